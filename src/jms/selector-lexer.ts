/**
 * Tokens of the JMS message selector language (JMS 1.1 §3.8.1.1): Java-style identifiers, case-insensitive
 * keywords, 'string' literals with '' as an escaped quote, exact (Java integer: decimal, 0x hex, 0 octal,
 * optional L) and approximate (Java floating point, optional F/D) numeric literals, and the operators.
 */
import { SelectorSyntaxError } from './selector-errors';

const KEYWORDS = ['NOT', 'AND', 'OR', 'BETWEEN', 'LIKE', 'IN', 'IS', 'NULL', 'TRUE', 'FALSE', 'ESCAPE'] as const;
export type Keyword = (typeof KEYWORDS)[number];

export type Token =
  | { kind: 'ident'; text: string; pos: number }
  | { kind: 'keyword'; text: Keyword; pos: number }
  | { kind: 'string'; text: string; value: string; pos: number }
  | { kind: 'exact'; text: string; value: bigint; pos: number }
  | { kind: 'approx'; text: string; value: number; pos: number }
  | { kind: 'op'; text: '=' | '<>' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '(' | ')' | ','; pos: number }
  | { kind: 'eof'; text: ''; pos: number };

const KEYWORD_SET: ReadonlySet<string> = new Set(KEYWORDS);
const IDENT_START = /[\p{L}_$]/u;
const IDENT_PART = /[\p{L}\p{N}_$]/u;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

export function tokenize(selector: string): Token[] {
  const tokens: Token[] = [];
  const fail = (pos: number, reason: string): never => {
    throw new SelectorSyntaxError(selector, pos + 1, reason);
  };
  let i = 0;
  const n = selector.length;
  while (i < n) {
    const c = selector[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= n) fail(start, 'unterminated string literal');
        if (selector[i] === "'") {
          if (selector[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += selector[i++];
      }
      tokens.push({ kind: 'string', text: selector.slice(start, i), value, pos: start });
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(selector[i + 1] ?? ''))) {
      tokens.push(readNumber(selector, start, fail));
      i = start + tokens[tokens.length - 1].text.length;
      continue;
    }
    if (IDENT_START.test(c)) {
      while (i < n && IDENT_PART.test(selector[i])) i++;
      const text = selector.slice(start, i);
      const upper = text.toUpperCase();
      if (KEYWORD_SET.has(upper)) tokens.push({ kind: 'keyword', text: upper as Keyword, pos: start });
      else tokens.push({ kind: 'ident', text, pos: start });
      continue;
    }
    const two = selector.slice(i, i + 2);
    if (two === '<>' || two === '<=' || two === '>=') {
      tokens.push({ kind: 'op', text: two, pos: start });
      i += 2;
      continue;
    }
    if ('=<>+-*/(),'.includes(c)) {
      tokens.push({ kind: 'op', text: c as '=', pos: start });
      i++;
      continue;
    }
    if (c === '!' && selector[i + 1] === '=') fail(start, "unknown operator '!=' (use '<>')");
    if (c === '"') fail(start, 'string literals are written in single quotes');
    fail(start, `unexpected character ${JSON.stringify(c)}`);
  }
  tokens.push({ kind: 'eof', text: '', pos: n });
  return tokens;
}

function readNumber(selector: string, start: number, fail: (pos: number, reason: string) => never): Token {
  const rest = selector.slice(start);
  const hex = /^0[xX]([0-9a-fA-F]+)([lL])?/.exec(rest);
  let token: Token;
  if (hex) {
    token = { kind: 'exact', text: hex[0], value: BigInt('0x' + hex[1]), pos: start };
  } else {
    const m = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?([fFdDlL])?/.exec(rest)!;
    const [text, mantissa, exponent, suffix] = m;
    const approx = mantissa.includes('.') || exponent !== undefined || (suffix !== undefined && /[fFdD]/.test(suffix));
    if (approx) {
      if (suffix !== undefined && /[lL]/.test(suffix)) fail(start, `invalid numeric literal ${text}`);
      token = { kind: 'approx', text, value: Number(mantissa + (exponent ?? '')), pos: start };
    } else if (mantissa.length > 1 && mantissa.startsWith('0')) {
      if (/[89]/.test(mantissa)) fail(start, `invalid octal literal ${text}`);
      token = { kind: 'exact', text, value: BigInt('0o' + mantissa.slice(1)), pos: start };
    } else {
      token = { kind: 'exact', text, value: BigInt(mantissa), pos: start };
    }
  }
  const after = selector[start + token.text.length];
  if (after !== undefined && IDENT_PART.test(after)) fail(start, `invalid numeric literal ${selector.slice(start, start + token.text.length + 1)}`);
  // 9223372036854775808 is allowed only after a unary minus; the parser checks the sign.
  if (token.kind === 'exact' && (token.value > LONG_MAX + 1n || token.value < LONG_MIN))
    fail(start, `integer literal ${token.text} is out of range for a long`);
  return token;
}

export const LONG_RANGE = { min: LONG_MIN, max: LONG_MAX };
