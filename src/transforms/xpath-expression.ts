/**
 * XPath 1.0 expressions (the `xpath` package) with the original's name matching (evaluator.md
 * §13.1): namespace processing is effectively off, so an unprefixed step matches an element or
 * attribute by its local name whatever its namespace (`/r/a` matches `<ns:r><ns:a>`), and a
 * prefixed step (`/ns:r`, `ns:*`) is rejected when the expression is compiled.
 *
 * The expression is parsed once; its unprefixed name tests are then replaced by local-name tests.
 */
import { TransformProblem } from './errors';
import * as xpath from 'xpath';
import type { Node } from '@xmldom/xmldom';

/** Why an expression cannot be compiled or evaluated; callers add ruleset and key. */
export class XPathProblem extends TransformProblem {
  constructor(reason: string) {
    super(reason);
    this.name = 'XPathProblem';
  }
}

interface ParsedXPath {
  /** The expression tree (a non-enumerable property of the parsed object). */
  readonly expression: unknown;
  evaluate(options: { node: unknown }): { stringValue(): string; nodeset(): { toArray(): unknown[] } } & object;
}

/** The parts of the xpath package's expression tree this module rewrites. */
interface NameTest {
  readonly prefix: string | null;
  readonly localName: string;
}

type XPathModule = typeof xpath & {
  parse(expression: string): ParsedXPath;
  Step: new (...args: never[]) => { nodeTest: unknown };
  NodeTest: {
    NameTestQName: new (...args: never[]) => NameTest;
    NameTestPrefixAny: new (...args: never[]) => { prefix: string };
    NAMETESTQNAME: number;
    makeNodeTestType(type: number, members: object, ctor: (this: { localName: string }, localName: string) => void): new (localName: string) => object;
  };
};

const lib = xpath as XPathModule;
const ELEMENT = 1;
const ATTRIBUTE = 2;

const LocalNameTest = lib.NodeTest.makeNodeTestType(
  lib.NodeTest.NAMETESTQNAME,
  {
    matches(this: { localName: string }, n: { nodeType: number; localName?: string; nodeName: string }): boolean {
      return (n.nodeType === ELEMENT || n.nodeType === ATTRIBUTE) && (n.localName ?? n.nodeName) === this.localName;
    },
    toString(this: { localName: string }): string {
      return this.localName;
    },
  },
  function (this: { localName: string }, localName: string) {
    this.localName = localName;
  },
);

export class CompiledXPath {
  private constructor(
    readonly source: string,
    private readonly parsed: ParsedXPath,
  ) {}

  static compile(source: string): CompiledXPath {
    let parsed: ParsedXPath;
    try {
      parsed = lib.parse(source);
    } catch (e) {
      throw new XPathProblem(`bad XPath ${JSON.stringify(source)}: ${(e as Error).message}`);
    }
    matchByLocalName(parsed.expression, source, new Set());
    return new CompiledXPath(source, parsed);
  }

  /** The XPath string value: of the first node in document order, or the number/boolean as text. */
  stringValue(context: Node): string {
    try {
      return this.parsed.evaluate({ node: context }).stringValue();
    } catch (e) {
      throw new XPathProblem(`XPath ${JSON.stringify(this.source)} failed: ${(e as Error).message}`);
    }
  }

  /** The selected nodes in document order; an expression that is not a node set is an error. */
  selectNodes(context: Node): Node[] {
    try {
      return this.parsed.evaluate({ node: context }).nodeset().toArray() as Node[];
    } catch (e) {
      throw new XPathProblem(`XPath ${JSON.stringify(this.source)} does not select nodes: ${(e as Error).message}`);
    }
  }
}

/** Walks the parsed expression; replaces unprefixed name tests, refuses prefixed ones. */
function matchByLocalName(value: unknown, source: string, seen: Set<object>): void {
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  if (value instanceof lib.Step) {
    const test = value.nodeTest;
    if (test instanceof lib.NodeTest.NameTestQName) {
      if (test.prefix !== null) throw prefixed(source, `${test.prefix}:${test.localName}`);
      value.nodeTest = new LocalNameTest(test.localName);
    } else if (test instanceof lib.NodeTest.NameTestPrefixAny) {
      throw prefixed(source, `${test.prefix}:*`);
    }
  }
  for (const child of Object.values(value)) matchByLocalName(child, source, seen);
}

function prefixed(source: string, step: string): XPathProblem {
  return new XPathProblem(`XPath ${JSON.stringify(source)} has the prefixed step ${step}: namespace prefixes are not supported, unprefixed steps match by local name`);
}
