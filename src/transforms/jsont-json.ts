/**
 * The JSON reader and writer of QBroker's JSONT (docs/evaluator/transforms.md, "JTMPFile: QBroker's
 * JSONT"), reproducing what the original's own parser accepts and produces, since JSONT output
 * depends on it:
 * - every number is a double: a literal with a `.` is read as Java reads a double, any other as a
 *   Java long (so `1e3` and integers beyond 64 bits are errors);
 * - a bare literal runs to the next `, ] } / : " { [ \` or control character, and every blank inside
 *   it is dropped (`1 2` is 12);
 * - a list or map may not close after a comma unless a string, list or map began since (so
 *   `[1, 2]` and `["a", null]` are errors, `[1]`, `[null, "a"]` and `{"a": 1, "b": 2}` are not);
 * - strings take the escapes \\ \" \/ \n \r \t \b \f only (`\u` is an error) and no raw control
 *   character; `//` and `/* *\/` comments may stand between values; characters between a key and its
 *   colon other than `" , { } [ ] \ /` are ignored; an empty key is an error; a repeated key keeps its
 *   first place and takes the last value;
 * - a top-level value that is not a map or a list reads as nothing (`readJsontDocument` returns
 *   undefined), so JSONT gives EXCEPTION for it.
 * Inputs the original's parser misread in other ways (a bare word where a key belongs, text after the
 * top-level value) are errors here. Nesting deeper than the original's 1,023 levels is an error.
 */
import { parseJavaDouble, parseJavaLong, javaDoubleToString } from '../rules/java-numbers';
import { javaHashMapOrder } from './java-hash-order';
import { JsonTextSyntaxError } from './json-text';

export type JsontValue = null | boolean | number | string | JsontValue[] | JsontMap;
export type JsontMap = Map<string, JsontValue>;

const MAX_DEPTH = 1023;
/** Blanks between tokens, and the blanks dropped from a bare literal. */
const BLANK = new Set([' ', '\n', '\t', '\f', '\r', '\b']);
/** What ends a bare literal. */
const LITERAL_END = new Set([',', ']', '}', '/', '\n', '\t', '\f', '\r', '\b', ':', '"', '{', '[', '\\']);
/** What stops the search for a key's colon (anything else there is skipped). */
const COLON_STOP = new Set(['"', ',', '{', '}', '[', ']', '\\', '/']);
const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\', '"': '"', '/': '/', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
const STRING_FORBIDDEN = new Set(['\n', '\r', '\f', '\t', '\b']);

class Reader {
  private pos = 0;
  /** A comma was read since the last string, list or map began. */
  private commaPending = false;

  constructor(private readonly text: string) {}

  document(): JsontValue | undefined {
    this.skipBlanksAndComments();
    if (this.pos >= this.text.length) return undefined;
    const c = this.text[this.pos];
    // A top-level string or bare literal gives the original no map or list to format.
    if (c !== '{' && c !== '[') return undefined;
    const value = this.value(0);
    this.skipBlanksAndComments();
    if (this.pos < this.text.length) this.fail('text after the top-level value');
    return value;
  }

  private fail(reason: string): never {
    throw new JsonTextSyntaxError(reason, this.pos);
  }

  private skipBlanksAndComments(): void {
    for (;;) {
      while (this.pos < this.text.length && BLANK.has(this.text[this.pos])) this.pos++;
      if (this.text[this.pos] !== '/') return;
      this.comment();
    }
  }

  private comment(): void {
    const next = this.text[this.pos + 1];
    if (next === '/') {
      const end = this.text.indexOf('\n', this.pos + 2);
      this.pos = end < 0 ? this.text.length : end + 1;
    } else if (next === '*') {
      const end = this.text.indexOf('*/', this.pos + 2);
      if (end < 0) this.fail('an unterminated comment');
      this.pos = end + 2;
    } else {
      this.fail("a '/' that starts no comment");
    }
  }

  private value(depth: number): JsontValue {
    const c = this.text[this.pos];
    if (c === '{') return this.map(depth + 1);
    if (c === '[') return this.list(depth + 1);
    if (c === '"') {
      this.commaPending = false;
      return this.string();
    }
    if (c === 'r' || c === 'b') this.fail(`unexpected '${c}'`);
    return this.literal();
  }

  private map(depth: number): JsontMap {
    if (depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH} levels`);
    this.commaPending = false;
    this.pos++;
    const out: JsontMap = new Map();
    this.skipBlanksAndComments();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipBlanksAndComments();
      if (this.text[this.pos] !== '"') this.fail(this.pos >= this.text.length ? 'an unclosed map' : 'a key that is not a string');
      this.commaPending = false;
      const key = this.string();
      if (key === '') this.fail('an empty key');
      this.colon();
      this.skipBlanksAndComments();
      if (this.pos >= this.text.length) this.fail('an unclosed map');
      out.set(key, this.value(depth));
      if (this.closes('}')) return out;
    }
  }

  private list(depth: number): JsontValue[] {
    if (depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH} levels`);
    this.commaPending = false;
    this.pos++;
    const out: JsontValue[] = [];
    this.skipBlanksAndComments();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipBlanksAndComments();
      if (this.pos >= this.text.length) this.fail('an unclosed list');
      out.push(this.value(depth));
      if (this.closes(']')) return out;
    }
  }

  /** After a value: true at the container's end (consumed), false after a comma (consumed). */
  private closes(end: '}' | ']'): boolean {
    this.skipBlanksAndComments();
    const c = this.text[this.pos];
    if (c === ',') {
      this.commaPending = true;
      this.pos++;
      return false;
    }
    if (c === end) {
      if (this.commaPending) this.fail(`'${end}' after a comma with no string, list or map since`);
      this.pos++;
      return true;
    }
    this.fail(c === undefined ? `an unclosed ${end === '}' ? 'map' : 'list'}` : `unexpected '${c}'`);
  }

  private colon(): void {
    while (this.pos < this.text.length) {
      const c = this.text[this.pos];
      if (c === ':') {
        this.pos++;
        return;
      }
      if (COLON_STOP.has(c)) this.fail(`unexpected '${c}' before a key's colon`);
      this.pos++;
    }
    this.fail('a key without a colon');
  }

  private string(): string {
    this.pos++;
    let out = '';
    let start = this.pos;
    for (;;) {
      if (this.pos >= this.text.length) this.fail('an unterminated string');
      const c = this.text[this.pos];
      if (c === '"') {
        out += this.text.slice(start, this.pos);
        this.pos++;
        return out;
      }
      if (STRING_FORBIDDEN.has(c)) this.fail('a control character inside a string');
      if (c === '\\') {
        out += this.text.slice(start, this.pos);
        const e = ESCAPES[this.text[this.pos + 1]];
        if (e === undefined) {
          this.pos++;
          this.fail(`an unsupported escape '\\${this.text[this.pos] ?? ''}'`);
        }
        out += e;
        this.pos += 2;
        start = this.pos;
        continue;
      }
      this.pos++;
    }
  }

  /** A bare literal inside a container: null, true, false or a number. */
  private literal(): JsontValue {
    const start = this.pos;
    while (this.pos < this.text.length && !LITERAL_END.has(this.text[this.pos])) this.pos++;
    if (this.pos >= this.text.length) this.fail('a literal with no end');
    const stop = this.text[this.pos];
    if (stop === ':' || stop === '"' || stop === '{' || stop === '[' || stop === '\\') this.fail(`unexpected '${stop}' after a literal`);
    return this.literalValue(this.text.slice(start, this.pos), start);
  }

  private literalValue(raw: string, at: number): JsontValue {
    let token = '';
    for (const ch of raw) if (!BLANK.has(ch)) token += ch;
    if (token === 'null') return null;
    if (token === 'true') return true;
    if (token === 'false') return false;
    const n = token.includes('.') ? parseJavaDouble(token) : toDouble(parseJavaLong(token));
    if (n === undefined) throw new JsonTextSyntaxError(`'${token}' is not null, true, false or a number the original reads`, at);
    return n;
  }
}

function toDouble(v: bigint | undefined): number | undefined {
  return v === undefined ? undefined : Number(v);
}

/**
 * Reads a document as the original's JSONT parser does: a map or a list, or undefined for an empty
 * text or a top-level scalar. Throws JsonTextSyntaxError for anything the original's parser refused.
 */
export function readJsontDocument(text: string): JsontMap | JsontValue[] | undefined {
  return new Reader(text).document() as JsontMap | JsontValue[] | undefined;
}

/** The original's JSON string escaping: \\ \n \r \" \b \f \t only. */
function escapeJson(s: string): string {
  return s.replace(/[\\\n\r"\b\f\t]/g, (c) => JSON_ESCAPED[c]);
}
const JSON_ESCAPED: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '"': '\\"', '\b': '\\b', '\f': '\\f', '\t': '\\t' };

/** Compact JSON as the original writes a map or list: no blanks, HashMap key order, doubles. */
export function writeJsont(value: JsontValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `"${escapeJson(value)}"`;
  if (typeof value === 'number') return javaDoubleToString(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(writeJsont).join(',')}]`;
  const keys = javaHashMapOrder([...value.keys()]).filter((k) => k !== '');
  return `{${keys.map((k) => `"${escapeJson(k)}":${writeJsont(value.get(k) as JsontValue)}`).join(',')}}`;
}
