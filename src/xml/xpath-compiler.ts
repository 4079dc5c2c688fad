/**
 * XPath 1.0 compiled to JavaScript closures over the light tree (xml-dom.ts): an expression is
 * parsed and compiled once, then each evaluation is plain function calls, with no interpretation
 * of a syntax tree per message.
 *
 * Two ways of matching names, chosen by the caller:
 *  - `local` (the XPath kinds, the original's namespace-unaware behaviour): an unprefixed name
 *    test matches by local name, so `/r/a` matches `<ns:r><ns:a>`; an unprefixed element in a
 *    default namespace (`<order xmlns="urn:x">`) is not matched, as on the original; a prefixed
 *    name test is refused at compile time.
 *  - `namespaces` (XSLT): XPath 1.0 proper; prefixes resolve through the stylesheet's namespace
 *    declarations and an unprefixed name test matches names in no namespace.
 *
 * Variables and extra functions (XSLT's current(), key(), EXSLT...) are supplied by the caller
 * at compile time, so an unknown variable or function is a compile error, never a surprise per
 * message.
 */
import { XrouteError } from '../foundation/xroute-error';
import {
  ATTRIBUTE,
  CDATA,
  COMMENT,
  DOCUMENT,
  ELEMENT,
  NAMESPACE,
  PROCESSING_INSTRUCTION,
  TEXT,
  XNode,
  idAttributesOf,
  namespaceNodes,
  sortDocumentOrder,
} from './xml-dom';
import { Ast, Axis, NodeTest, Step, XPathSyntaxError, parseXPath } from './xpath-parser';

/** A node set (document order, no duplicates), a string, a number or a boolean. */
export type XValue = XNode[] | string | number | boolean;

/** The dynamic context of an evaluation; `rt` belongs to the caller (the XSLT runtime). */
export interface XContext {
  node: XNode;
  pos: number;
  size: number;
  rt: unknown;
}

export type Eval = (c: XContext) => XValue;

export interface XFunction {
  readonly min: number;
  readonly max: number;
  call(c: XContext, args: XValue[]): XValue;
  /** For a function that reads QNames from its arguments: its call, given the options (prefixes) of the expression. */
  withOptions?(options: XPathOptions): (c: XContext, args: XValue[]) => XValue;
}

/** A QName as its expanded name, `local` or `{uri}local`; an undeclared prefix is an error naming `where`. */
export function expandQName(qname: string, resolvePrefix: ((prefix: string) => string | undefined) | undefined, where: string): string {
  const colon = qname.indexOf(':');
  if (colon < 0) return qname;
  const prefix = qname.slice(0, colon);
  const uri = resolvePrefix?.(prefix);
  if (uri === undefined) throw new XPathError(`the prefix ${prefix} of ${where} is not declared`);
  return `{${uri}}${qname.slice(colon + 1)}`;
}

export interface XPathOptions {
  readonly names: 'local' | 'namespaces';
  /** Namespace URI of a prefix (namespaces mode); undefined when it is not declared. */
  resolvePrefix?(prefix: string): string | undefined;
  /** The evaluator of a variable reference, or undefined when no such variable is in scope. */
  variable?(qname: string): Eval | undefined;
  /** Functions beyond XPath 1.0's core library, by expanded name: `local` or `{uri}local`. */
  functions?: Readonly<Record<string, XFunction>>;
  /** A call of an unknown function that is compiled anyway (a guarded extension call), or undefined to refuse it. */
  unknownFunction?(qname: string): Eval | undefined;
}

/** Why an expression does not compile or cannot be evaluated. */
export class XPathError extends XrouteError {
  constructor(reason: string, cause?: unknown) {
    super(reason, cause === undefined ? undefined : { cause });
    this.name = 'XPathError';
  }
}

export function compileXPath(source: string, options: XPathOptions): Eval {
  let ast: Ast;
  try {
    ast = parseXPath(source);
  } catch (e) {
    if (e instanceof XPathSyntaxError) throw new XPathError(e.message, e);
    throw e;
  }
  return new Compiler(options).expr(ast);
}

/**
 * Compiles an expression whose value is wanted as a string (xsl:value-of, attribute value
 * templates): a path gives the string value of its first node, found without building the
 * node set where the path's shape allows.
 */
export function compileStringXPath(source: string, options: XPathOptions): (c: XContext) => string {
  return new Compiler(options).string(parseAst(source));
}

/** Compiles an already parsed expression (XSLT patterns compile their predicates this way). */
export function compileAst(ast: Ast, options: XPathOptions): Eval {
  return new Compiler(options).expr(ast);
}

/** A node test as a predicate on nodes; `principal` is the axis's principal node type. */
export function compileNodeTest(test: NodeTest, attributeAxis: boolean, options: XPathOptions): (n: XNode) => boolean {
  return new Compiler(options).nodeTest(test, attributeAxis ? ATTRIBUTE : ELEMENT);
}

export function parseAst(source: string): Ast {
  try {
    return parseXPath(source);
  } catch (e) {
    if (e instanceof XPathSyntaxError) throw new XPathError(e.message, e);
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// conversions (XPath 1.0 §4)

export function typeName(v: XValue): string {
  return Array.isArray(v) ? 'node set' : typeof v;
}

export function toStr(v: XValue): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.length === 0 ? '' : v[0]!.stringValue();
  if (typeof v === 'number') return numberToString(v);
  return v ? 'true' : 'false';
}

export function toNum(v: XValue): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return stringToNumber(toStr(v));
}

export function toBool(v: XValue): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v);
  if (typeof v === 'string') return v.length > 0;
  return v.length > 0;
}

/**
 * XPath's number(): optional XML whitespace around `-?(\d+(\.\d*)?|\.\d+)`, anything else NaN
 * (no exponent, no `+`, no hexadecimal, unlike JavaScript's Number). Scanned by hand: it runs
 * for every comparison of a node with a number.
 */
export function stringToNumber(s: string): number {
  let start = 0;
  let end = s.length;
  while (start < end && isXmlSpace(s.charCodeAt(start))) start++;
  while (end > start && isXmlSpace(s.charCodeAt(end - 1))) end--;
  let p = start;
  if (p < end && s.charCodeAt(p) === 45 /* - */) p++;
  let digits = 0;
  while (p < end && isDigit(s.charCodeAt(p))) {
    p++;
    digits++;
  }
  if (p < end && s.charCodeAt(p) === 46 /* . */) {
    p++;
    while (p < end && isDigit(s.charCodeAt(p))) {
      p++;
      digits++;
    }
  }
  if (p !== end || digits === 0) return NaN;
  return Number(start === 0 && end === s.length ? s : s.slice(start, end));
}

function isXmlSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** A number as XPath 1.0 writes it: no exponent, no trailing `.0`, `NaN`, `Infinity`. */
export function numberToString(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === 0) return '0';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  const s = String(n);
  return s.includes('e') ? expandExponent(s) : s;
}

function expandExponent(s: string): string {
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s)!;
  const sign = m[1]!;
  const digits = m[2]! + (m[3] ?? '');
  const exp = Number(m[4]);
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = exp + 1;
  return sign + (digits.length <= whole ? digits.padEnd(whole, '0') : `${digits.slice(0, whole)}.${digits.slice(whole)}`);
}

// ---------------------------------------------------------------------------------------------
// comparisons (XPath 1.0 §3.4)

type CmpOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

function compareAtoms(op: CmpOp, a: string | number | boolean, b: string | number | boolean): boolean {
  if (op === '=' || op === '!=') {
    let eq: boolean;
    if (typeof a === 'boolean' || typeof b === 'boolean') eq = toBool(a) === toBool(b);
    else if (typeof a === 'number' || typeof b === 'number') eq = toNum(a) === toNum(b);
    else eq = a === b;
    return op === '=' ? eq : !eq;
  }
  const x = toNum(a);
  const y = toNum(b);
  switch (op) {
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    default:
      return x >= y;
  }
}

function compareValues(op: CmpOp, a: XValue, b: XValue): boolean {
  const aSet = Array.isArray(a);
  const bSet = Array.isArray(b);
  if (!aSet && !bSet) return compareAtoms(op, a as string, b as string);
  if (aSet && bSet) {
    if (a.length === 0 || b.length === 0) return false;
    const bs = b.map((n) => n.stringValue());
    for (const n of a) {
      const s = n.stringValue();
      for (const t of bs)
        if (compareAtoms(op, op === '=' || op === '!=' ? s : stringToNumber(s), op === '=' || op === '!=' ? t : stringToNumber(t))) return true;
    }
    return false;
  }
  const set = (aSet ? a : b) as XNode[];
  const other = (aSet ? b : a) as string | number | boolean;
  if (typeof other === 'boolean') return aSet ? compareAtoms(op, set.length > 0, other) : compareAtoms(op, other, set.length > 0);
  for (const n of set) {
    const s = n.stringValue();
    const v = typeof other === 'number' ? stringToNumber(s) : s;
    if (aSet ? compareAtoms(op, v, other) : compareAtoms(op, other, v)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// axes: each pushes the matching nodes in axis order (reverse document order for reverse axes)

type Test = (n: XNode) => boolean;
type AxisWalk = (n: XNode, test: Test, out: XNode[]) => void;

function descendants(n: XNode, test: Test, out: XNode[]): void {
  for (const c of n.children) {
    if (test(c)) out.push(c);
    if (c.children.length > 0) descendants(c, test, out);
  }
}

function siblingIndex(n: XNode): number {
  return n.parent === null || n.type === ATTRIBUTE ? -1 : n.parent.children.indexOf(n);
}

const AXIS_WALKS: Readonly<Record<Axis, AxisWalk>> = {
  namespace: (n, test, out) => {
    if (n.type === ELEMENT) for (const ns of namespaceNodes(n)) if (test(ns)) out.push(ns);
  },
  child: (n, test, out) => {
    for (const c of n.children) if (test(c)) out.push(c);
  },
  attribute: (n, test, out) => {
    for (const a of n.attrs) if (a.type === ATTRIBUTE && test(a)) out.push(a);
  },
  self: (n, test, out) => {
    if (test(n)) out.push(n);
  },
  parent: (n, test, out) => {
    if (n.parent !== null && test(n.parent)) out.push(n.parent);
  },
  descendant: descendants,
  'descendant-or-self': (n, test, out) => {
    if (test(n)) out.push(n);
    descendants(n, test, out);
  },
  ancestor: (n, test, out) => {
    for (let a = n.parent; a !== null; a = a.parent) if (test(a)) out.push(a);
  },
  'ancestor-or-self': (n, test, out) => {
    for (let a: XNode | null = n; a !== null; a = a.parent) if (test(a)) out.push(a);
  },
  'following-sibling': (n, test, out) => {
    const at = siblingIndex(n);
    if (at < 0) return;
    const sibs = n.parent!.children;
    for (let i = at + 1; i < sibs.length; i++) if (test(sibs[i]!)) out.push(sibs[i]!);
  },
  'preceding-sibling': (n, test, out) => {
    const at = siblingIndex(n);
    if (at < 0) return;
    const sibs = n.parent!.children;
    for (let i = at - 1; i >= 0; i--) if (test(sibs[i]!)) out.push(sibs[i]!);
  },
  following: (n, test, out) => {
    let x = n;
    if (n.type === ATTRIBUTE && n.parent !== null) {
      x = n.parent;
      descendants(x, test, out);
    }
    for (; x.parent !== null; x = x.parent) {
      const sibs = x.parent.children;
      for (let i = sibs.indexOf(x) + 1; i < sibs.length; i++) {
        if (test(sibs[i]!)) out.push(sibs[i]!);
        descendants(sibs[i]!, test, out);
      }
    }
  },
  preceding: (n, test, out) => {
    const found: XNode[] = [];
    let x = n.type === ATTRIBUTE && n.parent !== null ? n.parent : n;
    for (; x.parent !== null; x = x.parent) {
      const sibs = x.parent.children;
      const part: XNode[] = [];
      for (let i = 0, end = sibs.indexOf(x); i < end; i++) {
        if (test(sibs[i]!)) part.push(sibs[i]!);
        descendants(sibs[i]!, test, part);
      }
      found.unshift(...part);
    }
    for (let i = found.length - 1; i >= 0; i--) out.push(found[i]!);
  },
};

const NO_ARGS: XValue[] = [];

// flat paths: child, attribute and self steps without predicates, walked depth first (see Compiler.flatPath)

type FlatEach = (n: XNode, out: XNode[]) => void;
type FlatFirst = (n: XNode) => XNode | undefined;
type FlatCount = (n: XNode) => number;

interface FlatPath {
  readonly nodes: (c: XContext) => XNode[];
  readonly first: (c: XContext) => XNode | undefined;
  readonly count: (c: XContext) => number;
  /** The string value of the first node, '' when there is none. */
  readonly string: (c: XContext) => string;
}

/** The nodes a flat step's axis walks: an attribute step sees attributes only (not namespace declarations). */
function flatCandidates(axis: Axis, n: XNode): XNode[] {
  return axis === 'attribute' ? n.attrs : n.children;
}

function flatEach(axis: Axis, test: Test, next: FlatEach | undefined): FlatEach {
  if (axis === 'self') {
    return next === undefined
      ? (n, out) => {
          if (test(n)) out.push(n);
        }
      : (n, out) => {
          if (test(n)) next(n, out);
        };
  }
  const attribute = axis === 'attribute';
  return next === undefined
    ? (n, out) => {
        const list = flatCandidates(axis, n);
        for (let i = 0; i < list.length; i++) {
          const k = list[i]!;
          if ((!attribute || k.type === ATTRIBUTE) && test(k)) out.push(k);
        }
      }
    : (n, out) => {
        const list = flatCandidates(axis, n);
        for (let i = 0; i < list.length; i++) {
          const k = list[i]!;
          if ((!attribute || k.type === ATTRIBUTE) && test(k)) next(k, out);
        }
      };
}

function flatFirst(axis: Axis, test: Test, next: FlatFirst | undefined): FlatFirst {
  if (axis === 'self') return next === undefined ? (n) => (test(n) ? n : undefined) : (n) => (test(n) ? next(n) : undefined);
  const attribute = axis === 'attribute';
  return (n) => {
    const list = flatCandidates(axis, n);
    for (let i = 0; i < list.length; i++) {
      const k = list[i]!;
      if ((!attribute || k.type === ATTRIBUTE) && test(k)) {
        if (next === undefined) return k;
        const found = next(k);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
}

function flatCount(axis: Axis, test: Test, next: FlatCount | undefined): FlatCount {
  if (axis === 'self') return next === undefined ? (n) => (test(n) ? 1 : 0) : (n) => (test(n) ? next(n) : 0);
  const attribute = axis === 'attribute';
  return (n) => {
    const list = flatCandidates(axis, n);
    let total = 0;
    for (let i = 0; i < list.length; i++) {
      const k = list[i]!;
      if ((!attribute || k.type === ATTRIBUTE) && test(k)) total += next === undefined ? 1 : next(k);
    }
    return total;
  };
}

// the same walks for a child or attribute step with a name test (namespaces mode: local name and URI)

function flatEachNamed(type: number, local: string, ns: string, next: FlatEach | undefined): FlatEach {
  return (n, out) => {
    const list = type === ATTRIBUTE ? n.attrs : n.children;
    for (let i = 0; i < list.length; i++) {
      const k = list[i]!;
      if (k.local === local && k.type === type && k.ns === ns) {
        if (next === undefined) out.push(k);
        else next(k, out);
      }
    }
  };
}

function flatFirstNamed(type: number, local: string, ns: string, next: FlatFirst | undefined): FlatFirst {
  return (n) => {
    const list = type === ATTRIBUTE ? n.attrs : n.children;
    for (let i = 0; i < list.length; i++) {
      const k = list[i]!;
      if (k.local === local && k.type === type && k.ns === ns) {
        if (next === undefined) return k;
        const found = next(k);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
}

function flatCountNamed(type: number, local: string, ns: string, next: FlatCount | undefined): FlatCount {
  return (n) => {
    const list = type === ATTRIBUTE ? n.attrs : n.children;
    let total = 0;
    for (let i = 0; i < list.length; i++) {
      const k = list[i]!;
      if (k.local === local && k.type === type && k.ns === ns) total += next === undefined ? 1 : next(k);
    }
    return total;
  };
}

function flatPathFrom(fromRoot: boolean, each: FlatEach, first: FlatFirst, count: FlatCount): FlatPath {
  // a path from the root needs a document (a detached node's root is the node itself)
  const origin = fromRoot
    ? (c: XContext): XNode | undefined => {
        const r = c.node.root();
        return r.type === DOCUMENT ? r : undefined;
      }
    : (c: XContext): XNode | undefined => c.node;
  const firstOf = (c: XContext): XNode | undefined => {
    const o = origin(c);
    return o === undefined ? undefined : first(o);
  };
  return {
    nodes: (c) => {
      const out: XNode[] = [];
      const o = origin(c);
      if (o !== undefined) each(o, out);
      return out;
    },
    first: firstOf,
    count: (c) => {
      const o = origin(c);
      return o === undefined ? 0 : count(o);
    },
    string: (c) => {
      const n = firstOf(c);
      return n === undefined ? '' : n.stringValue();
    },
  };
}

const REVERSE_AXES = new Set<Axis>(['ancestor', 'ancestor-or-self', 'preceding', 'preceding-sibling']);
/** Axes whose results from several context nodes of one depth come out in document order. */
const ORDERED_FROM_SIBLINGS = new Set<Axis>(['child', 'attribute', 'self']);

// ---------------------------------------------------------------------------------------------

const CORE_FUNCTIONS: Readonly<Record<string, XFunction>> = {
  last: { min: 0, max: 0, call: (c) => c.size },
  position: { min: 0, max: 0, call: (c) => c.pos },
  count: { min: 1, max: 1, call: (_c, [a]) => nodesArg(a!, 'count').length },
  id: { min: 1, max: 1, call: (c, [a]) => idFunction(c, a!) },
  'local-name': {
    min: 0,
    max: 1,
    call: (c, args) =>
      nameOf(args, c, (n) => (n.type === ELEMENT || n.type === ATTRIBUTE || n.type === PROCESSING_INSTRUCTION || n.type === NAMESPACE ? n.local : '')),
  },
  'namespace-uri': { min: 0, max: 1, call: (c, args) => nameOf(args, c, (n) => n.ns) },
  name: { min: 0, max: 1, call: (c, args) => nameOf(args, c, (n) => n.name) },
  string: { min: 0, max: 1, call: (c, args) => (args.length === 0 ? c.node.stringValue() : toStr(args[0]!)) },
  concat: { min: 2, max: Infinity, call: (_c, args) => args.map(toStr).join('') },
  'starts-with': { min: 2, max: 2, call: (_c, [a, b]) => toStr(a!).startsWith(toStr(b!)) },
  contains: { min: 2, max: 2, call: (_c, [a, b]) => toStr(a!).includes(toStr(b!)) },
  'substring-before': {
    min: 2,
    max: 2,
    call: (_c, [a, b]) => {
      const s = toStr(a!);
      const at = s.indexOf(toStr(b!));
      return at < 0 ? '' : s.slice(0, at);
    },
  },
  'substring-after': {
    min: 2,
    max: 2,
    call: (_c, [a, b]) => {
      const s = toStr(a!);
      const t = toStr(b!);
      const at = s.indexOf(t);
      return at < 0 ? '' : s.slice(at + t.length);
    },
  },
  substring: { min: 2, max: 3, call: (_c, args) => substring(toStr(args[0]!), toNum(args[1]!), args.length > 2 ? toNum(args[2]!) : undefined) },
  'string-length': { min: 0, max: 1, call: (c, args) => [...(args.length === 0 ? c.node.stringValue() : toStr(args[0]!))].length },
  'normalize-space': {
    min: 0,
    max: 1,
    call: (c, args) =>
      (args.length === 0 ? c.node.stringValue() : toStr(args[0]!))
        .split(/[ \t\n\r]+/)
        .filter(Boolean)
        .join(' '),
  },
  translate: { min: 3, max: 3, call: (_c, [a, b, d]) => translate(toStr(a!), toStr(b!), toStr(d!)) },
  boolean: { min: 1, max: 1, call: (_c, [a]) => toBool(a!) },
  not: { min: 1, max: 1, call: (_c, [a]) => !toBool(a!) },
  true: { min: 0, max: 0, call: () => true },
  false: { min: 0, max: 0, call: () => false },
  lang: { min: 1, max: 1, call: (c, [a]) => lang(c.node, toStr(a!)) },
  number: { min: 0, max: 1, call: (c, args) => (args.length === 0 ? stringToNumber(c.node.stringValue()) : toNum(args[0]!)) },
  sum: { min: 1, max: 1, call: (_c, [a]) => nodesArg(a!, 'sum').reduce((t, n) => t + stringToNumber(n.stringValue()), 0) },
  floor: { min: 1, max: 1, call: (_c, [a]) => Math.floor(toNum(a!)) },
  ceiling: { min: 1, max: 1, call: (_c, [a]) => Math.ceil(toNum(a!)) },
  round: { min: 1, max: 1, call: (_c, [a]) => xpathRound(toNum(a!)) },
};

export function nodesArg(v: XValue, fn: string): XNode[] {
  if (!Array.isArray(v)) throw new XPathError(`${fn}() needs a node set, not a ${typeName(v)}`);
  return v;
}

function nameOf(args: XValue[], c: XContext, get: (n: XNode) => string): string {
  const nodes = args.length === 0 ? [c.node] : nodesArg(args[0]!, 'name');
  return nodes.length === 0 ? '' : get(nodes[0]!);
}

function idFunction(c: XContext, a: XValue): XNode[] {
  // IDs are xml:id and the attributes the internal subset declares of type ID; the first element with an ID counts
  const ids = new Set((Array.isArray(a) ? a.map((n) => n.stringValue()).join(' ') : toStr(a)).split(/[ \t\n\r]+/).filter(Boolean));
  const root = c.node.root();
  const declared = idAttributesOf(root);
  const out: XNode[] = [];
  const visit = (n: XNode): void => {
    if (n.type === ELEMENT) {
      const names = declared?.get(n.name);
      for (const at of n.attrs) {
        if (at.type === ATTRIBUTE && (at.name === 'xml:id' || (names !== undefined && names.includes(at.name))) && ids.delete(at.value)) {
          out.push(n);
          break;
        }
      }
    }
    for (const k of n.children) visit(k);
  };
  visit(root);
  return out;
}

function substring(s: string, start: number, length: number | undefined): string {
  const chars = [...s];
  const first = xpathRound(start);
  const end = length === undefined ? Infinity : first + xpathRound(length);
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const p = i + 1;
    if (p >= first && p < end) out += chars[i];
  }
  return out;
}

function translate(s: string, from: string, to: string): string {
  const f = [...from];
  const t = [...to];
  const map = new Map<string, string>();
  f.forEach((ch, i) => {
    if (!map.has(ch)) map.set(ch, t[i] ?? '');
  });
  let out = '';
  for (const ch of s) out += map.has(ch) ? map.get(ch)! : ch;
  return out;
}

function lang(node: XNode, wanted: string): boolean {
  for (let n: XNode | null = node; n !== null; n = n.parent) {
    const v = n.type === ELEMENT ? n.attribute('xml:lang') : undefined;
    if (v !== undefined) {
      const l = v.toLowerCase();
      const w = wanted.toLowerCase();
      return l === w || l.startsWith(w + '-');
    }
  }
  return false;
}

export function xpathRound(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  if (x < 0 && x >= -0.5) return -0;
  return Math.floor(x + 0.5);
}

// ---------------------------------------------------------------------------------------------

class Compiler {
  constructor(private readonly options: XPathOptions) {}

  expr(ast: Ast): Eval {
    switch (ast.t) {
      case 'str': {
        const v = ast.v;
        return () => v;
      }
      case 'num': {
        const v = ast.v;
        return () => v;
      }
      case 'or': {
        const a = this.expr(ast.a);
        const b = this.expr(ast.b);
        return (c) => toBool(a(c)) || toBool(b(c));
      }
      case 'and': {
        const a = this.expr(ast.a);
        const b = this.expr(ast.b);
        return (c) => toBool(a(c)) && toBool(b(c));
      }
      case 'cmp':
        return this.comparison(ast.op, ast.a, ast.b);
      case 'arith': {
        const a = this.expr(ast.a);
        const b = this.expr(ast.b);
        switch (ast.op) {
          case '+':
            return (c) => toNum(a(c)) + toNum(b(c));
          case '-':
            return (c) => toNum(a(c)) - toNum(b(c));
          case '*':
            return (c) => toNum(a(c)) * toNum(b(c));
          case 'div':
            return (c) => toNum(a(c)) / toNum(b(c));
          default:
            return (c) => toNum(a(c)) % toNum(b(c));
        }
      }
      case 'neg': {
        const a = this.expr(ast.a);
        return (c) => -toNum(a(c));
      }
      case 'union': {
        const a = this.expr(ast.a);
        const b = this.expr(ast.b);
        return (c) => {
          const x = a(c);
          const y = b(c);
          if (!Array.isArray(x) || !Array.isArray(y)) throw new XPathError('"|" needs node sets on both sides');
          return sortDocumentOrder([...x, ...y]);
        };
      }
      case 'var': {
        const v = this.options.variable?.(ast.name);
        if (v === undefined) throw new XPathError(`the variable $${ast.name} is not defined`);
        return v;
      }
      case 'call':
        return this.call(ast.name, ast.args);
      case 'filter': {
        const primary = this.expr(ast.primary);
        const preds = ast.preds.map((p) => this.predicate(p));
        return (c) => {
          const v = primary(c);
          if (!Array.isArray(v)) throw new XPathError(`a predicate needs a node set, not a ${typeName(v)}`);
          return applyPredicates(v, preds, c.rt);
        };
      }
      case 'path':
        return this.path(ast.start, ast.steps);
    }
  }

  /**
   * A comparison; where both sides are numbers by their form (`position() != last()`), or one is
   * a flat path and the other a number (`@qty > 2`), it is compiled to number comparisons
   * directly, with the same result as {@link compareValues}.
   */
  private comparison(op: CmpOp, aAst: Ast, bAst: Ast): Eval {
    const a = this.expr(aAst);
    const b = this.expr(bAst);
    const aNumber = isNumeric(aAst);
    const bNumber = isNumeric(bAst);
    if (aNumber && bNumber) {
      const test = numberTest(op);
      return (c) => test(a(c) as number, b(c) as number);
    }
    const aFlat = aAst.t === 'path' && bNumber ? this.flatPath(aAst.start, aAst.steps) : undefined;
    const bFlat = bAst.t === 'path' && aNumber && aFlat === undefined ? this.flatPath(bAst.start, bAst.steps) : undefined;
    if (aFlat !== undefined || bFlat !== undefined) {
      // a node set against a number: true when some node's number() compares true
      const nodes = aFlat !== undefined ? aFlat.nodes : bFlat!.nodes;
      const other = aFlat !== undefined ? b : a;
      const test = numberTest(aFlat !== undefined ? op : mirror(op));
      return (c) => {
        const y = other(c) as number; // evaluated even for an empty set: its errors still surface
        const set = nodes(c);
        for (let i = 0; i < set.length; i++) if (test(stringToNumber(set[i]!.stringValue()), y)) return true;
        return false;
      };
    }
    return (c) => compareValues(op, a(c), b(c));
  }

  private call(name: string, argAsts: Ast[]): Eval {
    const key = this.functionKey(name);
    const fn = CORE_FUNCTIONS[key] ?? this.options.functions?.[key];
    if (fn === undefined) {
      const deferred = this.options.unknownFunction?.(name);
      if (deferred !== undefined) return deferred;
      throw new XPathError(`the function ${name}() is not supported`);
    }
    if (argAsts.length < fn.min || argAsts.length > fn.max)
      throw new XPathError(`${name}() takes ${fn.min === fn.max ? fn.min : `${fn.min} to ${fn.max}`} arguments, not ${argAsts.length}`);
    if (fn === CORE_FUNCTIONS[key]) {
      const direct = this.directCall(key, argAsts);
      if (direct !== undefined) return direct;
    }
    const args = argAsts.map((a) => this.expr(a));
    const call = fn.withOptions !== undefined ? fn.withOptions(this.options) : fn.call;
    if (args.length === 0) return (c) => call(c, NO_ARGS);
    if (args.length === 1) {
      const a0 = args[0]!;
      return (c) => call(c, [a0(c)]);
    }
    return (c) =>
      call(
        c,
        args.map((a) => a(c)),
      );
  }

  /** Core functions evaluated without an argument array, or over a flat path without its node set. */
  private directCall(name: string, argAsts: Ast[]): Eval | undefined {
    if (name === 'position' && argAsts.length === 0) return (c) => c.pos;
    if (name === 'last' && argAsts.length === 0) return (c) => c.size;
    const only = argAsts.length === 1 ? argAsts[0]! : undefined;
    const flat = only !== undefined && only.t === 'path' ? this.flatPath(only.start, only.steps) : undefined;
    if (flat === undefined) return undefined;
    switch (name) {
      case 'count':
        return flat.count;
      case 'string':
        return flat.string;
      case 'sum':
        return (c) => {
          const nodes = flat.nodes(c);
          let total = 0;
          for (let i = 0; i < nodes.length; i++) total += stringToNumber(nodes[i]!.stringValue());
          return total;
        };
      default:
        return undefined;
    }
  }

  /** The expression's value as a string: a flat path's first node is found without its node set. */
  string(ast: Ast): (c: XContext) => string {
    if (ast.t === 'path') {
      const flat = this.flatPath(ast.start, ast.steps);
      if (flat !== undefined) return flat.string;
    }
    if (ast.t === 'str') {
      const v = ast.v;
      return () => v;
    }
    const e = this.expr(ast);
    return (c) => toStr(e(c));
  }

  /**
   * A path from the context node or the root whose steps are child, attribute or self steps
   * without predicates. From one node such steps give each node once and in document order, so
   * the path is walked depth first into one array (or to its first node, or counted) with no
   * node set per step and no sorting.
   */
  private flatPath(start: 'context' | 'root' | Ast, stepAsts: Step[]): FlatPath | undefined {
    if (start !== 'context' && start !== 'root') return undefined;
    if (stepAsts.length === 0) return undefined;
    for (const s of stepAsts) if ((s.axis !== 'child' && s.axis !== 'attribute' && s.axis !== 'self') || s.preds.length > 0) return undefined;
    let each: FlatEach | undefined;
    let first: FlatFirst | undefined;
    let count: FlatCount | undefined;
    for (let i = stepAsts.length - 1; i >= 0; i--) {
      const s = stepAsts[i]!;
      const principal = s.axis === 'attribute' ? ATTRIBUTE : ELEMENT;
      const named = s.axis !== 'self' && s.test.kind === 'name' && this.options.names === 'namespaces';
      if (named && s.test.kind === 'name') {
        // the name test inlined in the loop: the common step, and one call fewer per node
        const ns = s.test.prefix === '' ? '' : this.namespaceOf(s.test.prefix, `${s.test.prefix}:${s.test.local}`);
        each = flatEachNamed(principal, s.test.local, ns, each);
        first = flatFirstNamed(principal, s.test.local, ns, first);
        count = flatCountNamed(principal, s.test.local, ns, count);
        continue;
      }
      const test = this.nodeTest(s.test, principal);
      each = flatEach(s.axis, test, each);
      first = flatFirst(s.axis, test, first);
      count = flatCount(s.axis, test, count);
    }
    return flatPathFrom(start === 'root', each!, first!, count!);
  }

  private functionKey(name: string): string {
    const colon = name.indexOf(':');
    if (colon < 0) return name;
    const prefix = name.slice(0, colon);
    const uri = this.options.names === 'namespaces' ? this.options.resolvePrefix?.(prefix) : undefined;
    if (uri === undefined) throw new XPathError(`the function ${name}() has an undeclared prefix ${prefix}`);
    return `{${uri}}${name.slice(colon + 1)}`;
  }

  private predicate(ast: Ast): Eval | number {
    if (ast.t === 'num') return ast.v;
    return this.expr(ast);
  }

  private path(start: 'context' | 'root' | Ast, stepAsts: Step[]): Eval {
    const flat = this.flatPath(start, stepAsts);
    if (flat !== undefined) return flat.nodes;
    const steps = optimise(stepAsts).map((s) => this.step(s));
    const from: (c: XContext) => XNode[] =
      start === 'context'
        ? (c) => [c.node]
        : start === 'root'
          ? (c) => {
              const r = c.node.root();
              // a path from the root needs a document (a detached node's root is the node itself)
              return r.type === DOCUMENT ? [r] : [];
            }
          : this.nodeSet(this.expr(start));
    if (steps.length === 0) return from;
    // every node at one depth of one tree, so child/attribute results stay in document order
    const startsFlat = start === 'context' || start === 'root';
    return (c) => {
      let nodes = from(c);
      let flat = startsFlat;
      for (const s of steps) {
        nodes = s.apply(nodes, c.rt, flat);
        flat = flat && s.keepsFlat;
        if (nodes.length === 0) break;
      }
      return nodes;
    };
  }

  private nodeSet(e: Eval): (c: XContext) => XNode[] {
    return (c) => {
      const v = e(c);
      if (!Array.isArray(v)) throw new XPathError(`a path needs a node set, not a ${typeName(v)}`);
      return v;
    };
  }

  private step(s: Step): { apply(nodes: XNode[], rt: unknown, flat: boolean): XNode[]; keepsFlat: boolean } {
    const walk = AXIS_WALKS[s.axis];
    const test = this.nodeTest(s.test, s.axis === 'attribute' ? ATTRIBUTE : s.axis === 'namespace' ? NAMESPACE : ELEMENT);
    const preds = s.preds.map((p) => this.predicate(p));
    const reverse = REVERSE_AXES.has(s.axis);
    const ordered = ORDERED_FROM_SIBLINGS.has(s.axis);
    return {
      keepsFlat: s.axis === 'child' || s.axis === 'attribute' || s.axis === 'self',
      apply(nodes, rt, flat) {
        let out: XNode[];
        if (preds.length === 0) {
          out = [];
          for (const n of nodes) walk(n, test, out);
        } else if (nodes.length === 1) {
          out = [];
          walk(nodes[0]!, test, out);
          out = applyPredicates(out, preds, rt);
        } else {
          out = [];
          for (const n of nodes) {
            const part: XNode[] = [];
            walk(n, test, part);
            for (const m of applyPredicates(part, preds, rt)) out.push(m);
          }
        }
        if (out.length > 1 && (reverse || nodes.length > 1) && !(ordered && flat)) sortDocumentOrder(out);
        return out;
      },
    };
  }

  nodeTest(t: NodeTest, principal: number): Test {
    switch (t.kind) {
      case 'node':
        return () => true;
      case 'text':
        return (n) => n.type === TEXT || n.type === CDATA;
      case 'comment':
        return (n) => n.type === COMMENT;
      case 'pi': {
        const target = t.target;
        return target === undefined ? (n) => n.type === PROCESSING_INSTRUCTION : (n) => n.type === PROCESSING_INSTRUCTION && n.name === target;
      }
      case 'any':
        return (n) => n.type === principal;
      case 'prefix-any': {
        const uri = this.namespaceOf(t.prefix, `${t.prefix}:*`);
        return (n) => n.type === principal && n.ns === uri;
      }
      case 'name': {
        const local = t.local;
        if (this.options.names === 'local') {
          if (t.prefix !== '')
            throw new XPathError(`the prefixed step ${t.prefix}:${t.local}: namespace prefixes are not supported, unprefixed steps match by local name`);
          // a prefixed name matches by its local name; an unprefixed one in a default namespace does not
          return (n) => n.local === local && n.type === principal && (n.prefix !== '' || n.ns === '');
        }
        const uri = t.prefix === '' ? '' : this.namespaceOf(t.prefix, `${t.prefix}:${t.local}`);
        return (n) => n.local === local && n.type === principal && n.ns === uri;
      }
    }
  }

  private namespaceOf(prefix: string, step: string): string {
    if (this.options.names === 'local')
      throw new XPathError(`the prefixed step ${step}: namespace prefixes are not supported, unprefixed steps match by local name`);
    const uri = this.options.resolvePrefix?.(prefix);
    if (uri === undefined) throw new XPathError(`the prefix ${prefix} in ${step} is not declared`);
    return uri;
  }
}

/** Functions of XPath's core library that always give a number. */
const NUMBER_FUNCTIONS = new Set(['last', 'position', 'count', 'sum', 'number', 'string-length', 'floor', 'ceiling', 'round']);

/** True when an expression gives a number whatever it is evaluated on (by its form alone). */
function isNumeric(ast: Ast): boolean {
  switch (ast.t) {
    case 'num':
    case 'arith':
    case 'neg':
      return true;
    case 'call':
      return NUMBER_FUNCTIONS.has(ast.name);
    default:
      return false;
  }
}

function numberTest(op: CmpOp): (x: number, y: number) => boolean {
  switch (op) {
    case '=':
      return (x, y) => x === y;
    case '!=':
      return (x, y) => x !== y;
    case '<':
      return (x, y) => x < y;
    case '<=':
      return (x, y) => x <= y;
    case '>':
      return (x, y) => x > y;
    default:
      return (x, y) => x >= y;
  }
}

/** The operator with its sides swapped: `2 < x` is `x > 2`. */
function mirror(op: CmpOp): CmpOp {
  switch (op) {
    case '<':
      return '>';
    case '<=':
      return '>=';
    case '>':
      return '<';
    case '>=':
      return '<=';
    default:
      return op;
  }
}

/** `//name` without positional predicates is `descendant::name`: one walk instead of a walk per node. */
function optimise(steps: Step[]): Step[] {
  const out: Step[] = [];
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    const next = steps[i + 1];
    if (
      s.axis === 'descendant-or-self' &&
      s.test.kind === 'node' &&
      s.preds.length === 0 &&
      next !== undefined &&
      next.axis === 'child' &&
      next.preds.length === 0
    ) {
      out.push({ axis: 'descendant', test: next.test, preds: [] });
      i++;
    } else out.push(s);
  }
  return out;
}

export function applyPredicates(nodes: XNode[], preds: ReadonlyArray<Eval | number>, rt: unknown): XNode[] {
  let current = nodes;
  for (const p of preds) {
    if (typeof p === 'number') {
      const n = current[p - 1];
      current = n !== undefined && Number.isInteger(p) ? [n] : [];
      continue;
    }
    const ctx: XContext = { node: current[0]!, pos: 0, size: current.length, rt };
    const kept: XNode[] = [];
    for (let i = 0; i < current.length; i++) {
      ctx.node = current[i]!;
      ctx.pos = i + 1;
      const v = p(ctx);
      if (typeof v === 'number' ? v === i + 1 : toBool(v)) kept.push(current[i]!);
    }
    current = kept;
  }
  return current;
}
