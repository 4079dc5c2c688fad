/**
 * The `eval` expression language of `s//:=eval/e` (docs/evaluator/rules.md, class Evaluation): 64-bit
 * integers and doubles with + - * / %, comparisons, single-quoted strings with == != =~ !~ (=~ is a
 * full match), && and ||, and the ternary. Booleans print as 1 and 0. Any error yields undefined,
 * which makes the substitution fail.
 *
 * Deliberate fix (the original's bug; docs/evaluator/rules.md): whitespace inside quoted strings is kept (the original removed all
 * whitespace before parsing, so 'a b' == 'ab' was true). A trailing operator is still tolerated.
 */
import { XrouteError } from '../foundation/xroute-error';
import { compilePerl5 } from './regex-dialect';
import { javaDoubleToString, parseJavaLong, wrapLong } from './java-numbers';

type Value = { t: 'int'; v: bigint } | { t: 'real'; v: number } | { t: 'str'; v: string } | { t: 'bool'; v: boolean };

/** An expression that does not parse or evaluate (named so, not EvalError, which is JavaScript's own). */
class ExpressionError extends XrouteError {}

const OPERATORS = ['==', '!=', '>=', '<=', '=~', '!~', '&&', '||', '>', '<', '+', '-', '*', '/', '%', '(', ')', '?', ':', '!'];

type Token = { op: string } | { num: string } | { str: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if ((c >= '0' && c <= '9') || c === '.') {
      const m = /^(?:\d+\.?\d*|\.\d+)/.exec(text.slice(i));
      if (m === null) throw new ExpressionError('bad number');
      tokens.push({ num: m[0] });
      i += m[0].length;
      continue;
    }
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new ExpressionError('unterminated string');
      tokens.push({ str: text.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (op === undefined) throw new ExpressionError(`unexpected ${c}`);
    tokens.push({ op });
    i += op.length;
  }
  return tokens;
}

const regexCache = new Map<string, RegExp>();
function fullMatch(pattern: string, text: string): boolean {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    re = compilePerl5(pattern, { fullMatch: true });
    if (regexCache.size > 256) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re.test(text);
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  private peekOp(): string | undefined {
    const t = this.tokens[this.pos];
    return t !== undefined && 'op' in t ? t.op : undefined;
  }
  private atEnd(): boolean {
    return this.pos >= this.tokens.length;
  }

  parse(): Value {
    const v = this.ternary();
    if (!this.atEnd()) throw new ExpressionError('unexpected token');
    return v;
  }

  private ternary(): Value {
    const cond = this.or();
    if (this.peekOp() !== '?') return cond;
    this.pos++;
    const a = this.ternary();
    if (this.peekOp() !== ':') throw new ExpressionError('missing :');
    this.pos++;
    const b = this.ternary();
    return truthy(cond) ? a : b;
  }

  /** Parses `next (op next)*` for the given operators; a trailing operator ends the chain. */
  private chain(ops: readonly string[], next: () => Value, apply: (op: string, a: Value, b: Value) => Value): Value {
    let left = next();
    for (;;) {
      const op = this.peekOp();
      if (op === undefined || !ops.includes(op)) return left;
      this.pos++;
      if (this.atEnd()) return left; // tolerated: "1 + " is 1
      left = apply(op, left, next());
    }
  }

  private or(): Value {
    return this.chain(
      ['||'],
      () => this.and(),
      (_op, a, b) => ({ t: 'bool', v: truthy(a) || truthy(b) }),
    );
  }
  private and(): Value {
    return this.chain(
      ['&&'],
      () => this.comparison(),
      (_op, a, b) => ({ t: 'bool', v: truthy(a) && truthy(b) }),
    );
  }
  private comparison(): Value {
    return this.chain(['==', '!=', '>=', '<=', '>', '<', '=~', '!~'], () => this.additive(), compare);
  }
  private additive(): Value {
    return this.chain(['+', '-'], () => this.multiplicative(), arithmetic);
  }
  private multiplicative(): Value {
    return this.chain(['*', '/', '%'], () => this.unary(), arithmetic);
  }
  private unary(): Value {
    const op = this.peekOp();
    if (op === '-' || op === '+') {
      this.pos++;
      const v = numeric(this.unary());
      if (op === '+') return v;
      return v.t === 'int' ? { t: 'int', v: wrapLong(-v.v) } : { t: 'real', v: -v.v };
    }
    if (op === '!') {
      this.pos++;
      return { t: 'bool', v: !truthy(this.unary()) };
    }
    return this.primary();
  }
  private primary(): Value {
    const t = this.tokens[this.pos++];
    if (t === undefined) throw new ExpressionError('unexpected end');
    if ('num' in t) {
      if (t.num.includes('.')) return { t: 'real', v: Number(t.num) };
      const v = parseJavaLong(t.num);
      if (v === undefined) throw new ExpressionError('integer out of range');
      return { t: 'int', v };
    }
    if ('str' in t) return { t: 'str', v: t.str };
    if (t.op === '(') {
      const v = this.ternary();
      if (this.peekOp() !== ')') throw new ExpressionError('missing )');
      this.pos++;
      return v;
    }
    throw new ExpressionError(`unexpected ${t.op}`);
  }
}

function truthy(v: Value): boolean {
  switch (v.t) {
    case 'bool':
      return v.v;
    case 'int':
      return v.v !== 0n;
    case 'real':
      return v.v !== 0;
    case 'str':
      throw new ExpressionError('a string is not a condition');
  }
}

function numeric(v: Value): { t: 'int'; v: bigint } | { t: 'real'; v: number } {
  if (v.t === 'int' || v.t === 'real') return v;
  if (v.t === 'bool') return { t: 'int', v: v.v ? 1n : 0n };
  throw new ExpressionError('a string is not a number');
}

function arithmetic(op: string, a: Value, b: Value): Value {
  const x = numeric(a);
  const y = numeric(b);
  if (x.t === 'int' && y.t === 'int') {
    if ((op === '/' || op === '%') && y.v === 0n) throw new ExpressionError('division by zero');
    const r = op === '+' ? x.v + y.v : op === '-' ? x.v - y.v : op === '*' ? x.v * y.v : op === '/' ? x.v / y.v : x.v % y.v;
    return { t: 'int', v: wrapLong(r) };
  }
  const p = Number(x.v);
  const q = Number(y.v);
  if ((op === '/' || op === '%') && q === 0) throw new ExpressionError('division by zero');
  return { t: 'real', v: op === '+' ? p + q : op === '-' ? p - q : op === '*' ? p * q : op === '/' ? p / q : p % q };
}

function compare(op: string, a: Value, b: Value): Value {
  if (a.t === 'str' || b.t === 'str') {
    if (a.t !== 'str' || b.t !== 'str') throw new ExpressionError('cannot compare a string with a number');
    switch (op) {
      case '==':
        return { t: 'bool', v: a.v === b.v };
      case '!=':
        return { t: 'bool', v: a.v !== b.v };
      case '=~':
        return { t: 'bool', v: fullMatch(b.v, a.v) };
      case '!~':
        return { t: 'bool', v: !fullMatch(b.v, a.v) };
      default:
        throw new ExpressionError(`${op} does not apply to strings`);
    }
  }
  if (op === '=~' || op === '!~') throw new ExpressionError(`${op} needs strings`);
  const x = numeric(a);
  const y = numeric(b);
  const c =
    x.t === 'int' && y.t === 'int'
      ? x.v < y.v
        ? -1
        : x.v > y.v
          ? 1
          : 0
      : Number(x.v) < Number(y.v)
        ? -1
        : Number(x.v) > Number(y.v)
          ? 1
          : Number(x.v) === Number(y.v)
            ? 0
            : NaN;
  const v = op === '==' ? c === 0 : op === '!=' ? c !== 0 : op === '>' ? c > 0 : op === '>=' ? c >= 0 : op === '<' ? c < 0 : c <= 0;
  return { t: 'bool', v };
}

/** Evaluates an expression; undefined when it is malformed or divides by zero. */
export function evaluateExpression(text: string): string | undefined {
  const start = text.trimStart()[0];
  if (start === undefined || !/[0-9.+\-(']/.test(start)) return undefined;
  try {
    const v = new Parser(tokenize(text)).parse();
    switch (v.t) {
      case 'int':
        return v.v.toString();
      case 'real':
        return javaDoubleToString(v.v);
      case 'str':
        return v.v;
      case 'bool':
        return v.v ? '1' : '0';
    }
  } catch {
    return undefined;
  }
}
