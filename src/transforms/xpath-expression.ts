/**
 * XPath 1.0 expressions of the XPath kinds (XPath maps, xcut, xmerge), compiled once to closures
 * (xpath-compiler.ts) with the original's name matching (docs/evaluator/transforms.md): namespace
 * processing is effectively off, so an unprefixed step matches an element or attribute by its
 * local name whatever its prefix (`/r/a` matches `<ns:r><ns:a>`), an unprefixed element in a
 * default namespace is not matched, and a prefixed step (`/ns:r`, `ns:*`) is rejected when the
 * expression is compiled.
 */
import { TransformProblem } from './errors';
import type { XNode } from '../xml/xml-dom';
import { Eval, XPathError, compileXPath, toStr, typeName } from '../xml/xpath-compiler';

/** Why an expression cannot be compiled or evaluated; callers add ruleset and key. */
export class XPathProblem extends TransformProblem {
  constructor(reason: string, cause?: unknown) {
    super(reason, cause);
    this.name = 'XPathProblem';
  }
}

const OPTIONS = { names: 'local' } as const;

export class CompiledXPath {
  private constructor(
    readonly source: string,
    private readonly evaluate: Eval,
  ) {}

  static compile(source: string): CompiledXPath {
    try {
      return new CompiledXPath(source, compileXPath(source, OPTIONS));
    } catch (e) {
      if (e instanceof XPathError) throw new XPathProblem(`bad XPath ${JSON.stringify(source)}: ${e.message}`, e);
      throw e;
    }
  }

  /** The XPath string value: of the first node in document order, or the number/boolean as text. */
  stringValue(context: XNode): string {
    return toStr(this.run(context, 'failed'));
  }

  /** The selected nodes in document order; an expression that is not a node set is an error. */
  selectNodes(context: XNode): XNode[] {
    const v = this.run(context, 'does not select nodes');
    if (!Array.isArray(v)) throw new XPathProblem(`XPath ${JSON.stringify(this.source)} does not select nodes: it gives a ${typeName(v)}`);
    return v;
  }

  private run(context: XNode, failure: string) {
    try {
      return this.evaluate({ node: context, pos: 1, size: 1, rt: undefined });
    } catch (e) {
      if (e instanceof XPathError || e instanceof RangeError) throw new XPathProblem(`XPath ${JSON.stringify(this.source)} ${failure}: ${e.message}`, e);
      throw e;
    }
  }
}
