/**
 * XPath 1.0 syntax: a tokenizer that applies the specification's disambiguation rules (an
 * operator name or `*` after an operand is an operator; a name before `(` is a function or node
 * type; a name before `::` is an axis) and a recursive-descent parser into a small AST that
 * xpath-compiler.ts turns into closures.
 */
import { XrouteError } from '../foundation/xroute-error';

export type Ast =
  | { t: 'or' | 'and'; a: Ast; b: Ast }
  | { t: 'cmp'; op: '=' | '!=' | '<' | '<=' | '>' | '>='; a: Ast; b: Ast }
  | { t: 'arith'; op: '+' | '-' | '*' | 'div' | 'mod'; a: Ast; b: Ast }
  | { t: 'neg'; a: Ast }
  | { t: 'union'; a: Ast; b: Ast }
  | { t: 'path'; start: 'context' | 'root' | Ast; steps: Step[] }
  | { t: 'filter'; primary: Ast; preds: Ast[] }
  | { t: 'str'; v: string }
  | { t: 'num'; v: number }
  | { t: 'var'; name: string }
  | { t: 'call'; name: string; args: Ast[] };

export type Axis =
  | 'ancestor'
  | 'ancestor-or-self'
  | 'attribute'
  | 'child'
  | 'descendant'
  | 'descendant-or-self'
  | 'following'
  | 'following-sibling'
  | 'namespace'
  | 'parent'
  | 'preceding'
  | 'preceding-sibling'
  | 'self';

export type NodeTest =
  | { kind: 'name'; prefix: string; local: string }
  | { kind: 'any' }
  | { kind: 'prefix-any'; prefix: string }
  | { kind: 'node' | 'text' | 'comment' }
  | { kind: 'pi'; target?: string };

export interface Step {
  axis: Axis;
  test: NodeTest;
  preds: Ast[];
}

const AXES = new Set<string>([
  'ancestor',
  'ancestor-or-self',
  'attribute',
  'child',
  'descendant',
  'descendant-or-self',
  'following',
  'following-sibling',
  'namespace',
  'parent',
  'preceding',
  'preceding-sibling',
  'self',
]);
const NODE_TYPES = new Set(['node', 'text', 'comment', 'processing-instruction']);

export class XPathSyntaxError extends XrouteError {
  constructor(reason: string) {
    super(reason);
    this.name = 'XPathSyntaxError';
  }
}

type Token =
  | { k: 'op'; v: string } // ( ) [ ] . .. @ , :: / // | + - = != < <= > >= * and or mod div
  | { k: 'name'; v: string } // QName, NCName:* or *
  | { k: 'fn'; v: string }
  | { k: 'axis'; v: string }
  | { k: 'type'; v: string }
  | { k: 'str'; v: string }
  | { k: 'num'; v: number }
  | { k: 'var'; v: string };

const NAME = /[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*/y;

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const operandBefore = (): boolean => {
    const prev = tokens[tokens.length - 1];
    if (prev === undefined) return false;
    if (prev.k === 'op') return prev.v === ')' || prev.v === ']' || prev.v === '.' || prev.v === '..';
    return prev.k !== 'fn' && prev.k !== 'axis' && prev.k !== 'type';
  };
  const readName = (): string | undefined => {
    NAME.lastIndex = i;
    const m = NAME.exec(src);
    if (!m) return undefined;
    i += m[0].length;
    return m[0];
  };
  const peekNonSpace = (from: number): number => {
    while (from < src.length && /\s/.test(src[from]!)) from++;
    return from;
  };
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = src.indexOf(c, i + 1);
      if (end < 0) throw new XPathSyntaxError('unterminated string literal');
      tokens.push({ k: 'str', v: src.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /[0-9]*(\.[0-9]*)?([eE][+-]?[0-9]+)?/y;
      m.lastIndex = i;
      const text = m.exec(src)![0];
      tokens.push({ k: 'num', v: Number(text) });
      i += text.length;
      continue;
    }
    if (c === '$') {
      i++;
      const name = readQName();
      if (name === undefined) throw new XPathSyntaxError('a variable name was expected after "$"');
      tokens.push({ k: 'var', v: name });
      continue;
    }
    const two = src.slice(i, i + 2);
    if (two === '..' || two === '::' || two === '//' || two === '!=' || two === '<=' || two === '>=') {
      tokens.push({ k: 'op', v: two });
      i += 2;
      continue;
    }
    if (c === '*') {
      tokens.push(operandBefore() ? { k: 'op', v: '*' } : { k: 'name', v: '*' });
      i++;
      continue;
    }
    if ('()[].@,/|+-=<>'.includes(c)) {
      tokens.push({ k: 'op', v: c });
      i++;
      continue;
    }
    const name = readName();
    if (name === undefined) throw new XPathSyntaxError(`unexpected character ${JSON.stringify(c)}`);
    if (operandBefore()) {
      if (name === 'and' || name === 'or' || name === 'mod' || name === 'div') {
        tokens.push({ k: 'op', v: name });
        continue;
      }
      throw new XPathSyntaxError(`unexpected name ${name}`);
    }
    let qname = name;
    if (src[i] === ':' && src[i + 1] !== ':') {
      if (src[i + 1] === '*') {
        tokens.push({ k: 'name', v: `${name}:*` });
        i += 2;
        continue;
      }
      i++;
      const local = readName();
      if (local === undefined) throw new XPathSyntaxError(`a local name was expected after ${name}:`);
      qname = `${name}:${local}`;
    }
    const after = peekNonSpace(i);
    if (src[after] === '(' && qname === name && NODE_TYPES.has(name)) tokens.push({ k: 'type', v: name });
    else if (src[after] === '(') tokens.push({ k: 'fn', v: qname });
    else if (src.startsWith('::', after) && qname === name) {
      if (!AXES.has(name)) throw new XPathSyntaxError(`unknown axis ${name}`);
      tokens.push({ k: 'axis', v: name });
    } else tokens.push({ k: 'name', v: qname });
  }
  return tokens;

  function readQName(): string | undefined {
    const first = readName();
    if (first === undefined) return undefined;
    if (src[i] === ':' && src[i + 1] !== ':') {
      i++;
      const local = readName();
      if (local === undefined) throw new XPathSyntaxError(`a local name was expected after ${first}:`);
      return `${first}:${local}`;
    }
    return first;
  }
}

export function parseXPath(src: string): Ast {
  const tokens = tokenize(src);
  let p = 0;
  const peek = (): Token | undefined => tokens[p];
  const isOp = (v: string): boolean => {
    const t = tokens[p];
    return t !== undefined && t.k === 'op' && t.v === v;
  };
  const expect = (v: string): void => {
    if (!isOp(v)) throw new XPathSyntaxError(`"${v}" expected${tokens[p] ? ` before ${describe(tokens[p]!)}` : ' at the end'}`);
    p++;
  };

  const orExpr = (): Ast => {
    let a = andExpr();
    while (isOp('or')) {
      p++;
      a = { t: 'or', a, b: andExpr() };
    }
    return a;
  };
  const andExpr = (): Ast => {
    let a = equality();
    while (isOp('and')) {
      p++;
      a = { t: 'and', a, b: equality() };
    }
    return a;
  };
  const equality = (): Ast => {
    let a = relational();
    while (isOp('=') || isOp('!=')) {
      const op = (tokens[p++] as { v: '=' | '!=' }).v;
      a = { t: 'cmp', op, a, b: relational() };
    }
    return a;
  };
  const relational = (): Ast => {
    let a = additive();
    while (isOp('<') || isOp('<=') || isOp('>') || isOp('>=')) {
      const op = (tokens[p++] as { v: '<' | '<=' | '>' | '>=' }).v;
      a = { t: 'cmp', op, a, b: additive() };
    }
    return a;
  };
  const additive = (): Ast => {
    let a = multiplicative();
    while (isOp('+') || isOp('-')) {
      const op = (tokens[p++] as { v: '+' | '-' }).v;
      a = { t: 'arith', op, a, b: multiplicative() };
    }
    return a;
  };
  const multiplicative = (): Ast => {
    let a = unary();
    while (isOp('*') || isOp('div') || isOp('mod')) {
      const op = (tokens[p++] as { v: '*' | 'div' | 'mod' }).v;
      a = { t: 'arith', op, a, b: unary() };
    }
    return a;
  };
  const unary = (): Ast => {
    if (isOp('-')) {
      p++;
      return { t: 'neg', a: unary() };
    }
    return union();
  };
  const union = (): Ast => {
    let a = pathExpr();
    while (isOp('|')) {
      p++;
      a = { t: 'union', a, b: pathExpr() };
    }
    return a;
  };
  const startsStep = (t: Token | undefined): boolean =>
    t !== undefined && (t.k === 'name' || t.k === 'axis' || t.k === 'type' || (t.k === 'op' && (t.v === '@' || t.v === '.' || t.v === '..')));
  const pathExpr = (): Ast => {
    const t = peek();
    if (t === undefined) throw new XPathSyntaxError('an expression was expected at the end');
    if (t.k === 'op' && (t.v === '/' || t.v === '//')) {
      p++;
      const steps: Step[] = [];
      if (t.v === '//') {
        steps.push(descendantOrSelf());
        steps.push(...relativePath());
      } else if (startsStep(peek())) steps.push(...relativePath());
      return { t: 'path', start: 'root', steps };
    }
    if (startsStep(t)) return { t: 'path', start: 'context', steps: relativePath() };
    const primary = primaryExpr();
    const preds: Ast[] = [];
    while (isOp('[')) preds.push(predicate());
    const filter: Ast = preds.length > 0 ? { t: 'filter', primary, preds } : primary;
    if (isOp('/') || isOp('//')) {
      const steps: Step[] = [];
      if (tokens[p++]!.v === '//') steps.push(descendantOrSelf());
      steps.push(...relativePath());
      return { t: 'path', start: filter, steps };
    }
    return filter;
  };
  const relativePath = (): Step[] => {
    const steps = [step()];
    while (isOp('/') || isOp('//')) {
      if (tokens[p++]!.v === '//') steps.push(descendantOrSelf());
      steps.push(step());
    }
    return steps;
  };
  const step = (): Step => {
    if (isOp('.')) {
      p++;
      return { axis: 'self', test: { kind: 'node' }, preds: [] };
    }
    if (isOp('..')) {
      p++;
      return { axis: 'parent', test: { kind: 'node' }, preds: [] };
    }
    let axis: Axis = 'child';
    const t = peek();
    if (t?.k === 'axis') {
      axis = t.v as Axis;
      p++;
      expect('::');
    } else if (isOp('@')) {
      axis = 'attribute';
      p++;
    }
    const test = nodeTest();
    const preds: Ast[] = [];
    while (isOp('[')) preds.push(predicate());
    return { axis, test, preds };
  };
  const nodeTest = (): NodeTest => {
    const t = tokens[p++];
    if (t?.k === 'name') {
      if (t.v === '*') return { kind: 'any' };
      if (t.v.endsWith(':*')) return { kind: 'prefix-any', prefix: t.v.slice(0, -2) };
      const colon = t.v.indexOf(':');
      return colon < 0 ? { kind: 'name', prefix: '', local: t.v } : { kind: 'name', prefix: t.v.slice(0, colon), local: t.v.slice(colon + 1) };
    }
    if (t?.k === 'type') {
      expect('(');
      if (t.v === 'processing-instruction') {
        const lit = peek();
        let target: string | undefined;
        if (lit?.k === 'str') {
          target = lit.v;
          p++;
        }
        expect(')');
        return { kind: 'pi', target };
      }
      expect(')');
      return { kind: t.v as 'node' | 'text' | 'comment' };
    }
    throw new XPathSyntaxError(t ? `a node test was expected, not ${describe(t)}` : 'a node test was expected at the end');
  };
  const predicate = (): Ast => {
    expect('[');
    const e = orExpr();
    expect(']');
    return e;
  };
  const primaryExpr = (): Ast => {
    const t = tokens[p++];
    if (t === undefined) throw new XPathSyntaxError('an expression was expected at the end');
    if (t.k === 'var') return { t: 'var', name: t.v };
    if (t.k === 'str') return { t: 'str', v: t.v };
    if (t.k === 'num') return { t: 'num', v: t.v };
    if (t.k === 'op' && t.v === '(') {
      const e = orExpr();
      expect(')');
      return e;
    }
    if (t.k === 'fn') {
      expect('(');
      const args: Ast[] = [];
      if (!isOp(')')) {
        args.push(orExpr());
        while (isOp(',')) {
          p++;
          args.push(orExpr());
        }
      }
      expect(')');
      return { t: 'call', name: t.v, args };
    }
    throw new XPathSyntaxError(`unexpected ${describe(t)}`);
  };

  const e = orExpr();
  if (p < tokens.length) throw new XPathSyntaxError(`unexpected ${describe(tokens[p]!)}`);
  return e;
}

function descendantOrSelf(): Step {
  return { axis: 'descendant-or-self', test: { kind: 'node' }, preds: [] };
}

function describe(t: Token): string {
  return t.k === 'str' ? `the string '${t.v}'` : `"${t.v}"`;
}
