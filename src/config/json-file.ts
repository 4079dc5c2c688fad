/**
 * Reads a JSON configuration file: reports a syntax error with its line and column, accepts a UTF-8
 * byte-order mark (Windows editors write one) and resolves ${...} references (see references.ts).
 */
import { readFileSync } from 'fs';
import { JsonSyntaxError } from './errors';
import { resolveReferences } from './references';
import { jsonSyntaxReason } from './json-reason';

/** Parses configuration text; `topology` tells the reference resolver how to name components. */
export function parseJsonText(raw: string, file: string, topology?: boolean): unknown {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    const reason = (e as Error).message;
    const { line, column } = locate(text, reason);
    throw new JsonSyntaxError(file, line, column, jsonSyntaxReason(text, firstErrorOffset(text)), { cause: e });
  }
  return resolveReferences(json, file, topology ?? isTopologyShaped(json));
}

/** A topology lists its components (the same test as topology.ts's isTopologyJson, kept here to avoid a cycle). */
function isTopologyShaped(json: unknown): boolean {
  return typeof json === 'object' && json !== null && ['Receiver', 'Node', 'Persister'].some((k) => Array.isArray((json as Record<string, unknown>)[k]));
}

export function readJsonFile(file: string): unknown {
  return parseJsonText(readFileSync(file, 'utf8'), file);
}

/**
 * Where the text stops being JSON. V8's messages give a position only for some errors, so on failure the
 * text is re-scanned by a small strict parser that knows the offset of the first offending character.
 */
function locate(text: string, reason: string): { line: number; column: number } {
  const lc = /line (\d+) column (\d+)/.exec(reason);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const offset = firstErrorOffset(text);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { line, column };
}

/** Offset of the first character at which `text` is not valid JSON (text.length when it ends too early). */
function firstErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const lit = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const str = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) fail();
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const num = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail();
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        str();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    } else if (c === '"') str();
    else if (c === 't') lit('true');
    else if (c === 'f') lit('false');
    else if (c === 'n') lit('null');
    else if (c === '-' || (c >= '0' && c <= '9')) num();
    else fail();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
  } catch (at) {
    return typeof at === 'number' ? Math.min(at, text.length) : 0;
  }
  return text.length;
}
