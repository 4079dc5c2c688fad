/**
 * Secrets never reach a log line, an error text, a status detail or a metric: the values of the properties the
 * schemas declare secret (src/foundation/secret-properties.ts) are masked in every object written out, the
 * password of a `user:password@` URI is masked in every text, and the secret values collected when a
 * configuration is loaded or started (declared properties, URI passwords, jndi.properties credentials,
 * values substituted from ${VAR} and ${file:...}) are masked wherever they appear (a peer may quote a
 * password back in an error answer that is then logged).
 *
 * A collected value is masked in free text only where it stands as a whole word: not right after or before a
 * letter, digit, '_' or '-'. So the password `wrong` hides `password wrong refused` but not the flow
 * `wrong-pass`. Values shorter than MIN_SECRET_LENGTH are not collected at all: masking every `ab` or `7`
 * would hide ordinary text. They are still masked under their own property. docs/operations.md, "Secrets".
 */
import { declareSecretProperties, isSecretKey } from '../foundation/secret-properties';
import { COMMON_PROPERTIES } from '../foundation/common-schema';

// The properties every component may carry are declared from the start; each registered class adds its own.
declareSecretProperties({ properties: COMMON_PROPERTIES });

export const MASK = '***';

/** Secret values collected from configurations, masked in any text where they stand as a whole word. */
const knownSecrets = new Set<string>();
const MIN_SECRET_LENGTH = 4;
/** Pools may start children with many different passwords over a long run: the oldest are forgotten. */
const MAX_KNOWN_SECRETS = 4096;

/** Where the password of a `scheme://user:password@` URI sits in a text. */
interface UriPassword {
  readonly start: number;
  readonly end: number;
}

const isSchemeChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 43 || c === 46 || c === 45;
const isLetter = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(String.fromCharCode(c)));

/** Index of the first character at or after `from` that `stop` accepts (text.length when none). */
function scanUntil(text: string, from: number, stop: (c: number) => boolean): number {
  let i = from;
  while (i < text.length && !stop(text.charCodeAt(i))) i++;
  return i;
}

/**
 * Finds every `scheme://user:password@` password (what the regex
 * /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:([^@/\s]+)@/gi finds) in one pass: the search starts at each "://"
 * and every scan stops at a '/', so no character is read more than a few times, where the regex
 * rescanned to the end of the text from every start position (seconds for 100 KB of letters).
 */
function findUriPasswords(text: string): UriPassword[] {
  const found: UriPassword[] = [];
  let consumed = 0;
  let from = 0;
  for (;;) {
    const sep = text.indexOf('://', from);
    if (sep < 0) return found;
    from = sep + 3;
    let scheme = sep;
    while (scheme > consumed && isSchemeChar(text.charCodeAt(scheme - 1))) scheme--;
    while (scheme < sep && !isLetter(text.charCodeAt(scheme))) scheme++;
    if (scheme === sep) continue;
    const userEnd = scanUntil(text, sep + 3, (c) => c === 47 || c === 58 || c === 64 || isSpace(c));
    if (text.charCodeAt(userEnd) !== 58) continue;
    const passwordEnd = scanUntil(text, userEnd + 1, (c) => c === 64 || c === 47 || isSpace(c));
    if (passwordEnd === userEnd + 1 || text.charCodeAt(passwordEnd) !== 64) continue;
    found.push({ start: userEnd + 1, end: passwordEnd });
    consumed = passwordEnd + 1;
    from = consumed;
  }
}

function maskUriPasswords(text: string): string {
  if (!text.includes('://')) return text;
  const passwords = findUriPasswords(text);
  if (passwords.length === 0) return text;
  let out = '';
  let last = 0;
  for (const p of passwords) {
    out += text.slice(last, p.start) + MASK;
    last = p.end;
  }
  return out + text.slice(last);
}

export function redactText(text: string): string {
  let out = maskUriPasswords(text);
  for (const secret of knownSecrets) if (out.includes(secret)) out = maskWholeWords(out, secret);
  return out;
}

/** A character that continues a word: a secret next to one is part of a longer name, not the secret. */
const isWordChar = (c: string | undefined): boolean => c !== undefined && (c === '_' || c === '-' || /[\p{L}\p{N}]/u.test(c));

/** `text` with every whole-word occurrence of `secret` masked. */
function maskWholeWords(text: string, secret: string): string {
  let out = '';
  let last = 0;
  for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + 1)) {
    const end = at + secret.length;
    if (at < last || isWordChar(text[at - 1]) || isWordChar(text[end])) continue;
    out += text.slice(last, at) + MASK;
    last = end;
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * Collects the secret values of a configuration: the values of its declared secret properties (at any depth,
 * whatever their JSON type) and the password of every `user:password@` URI in it.
 */
export function registerConfigSecrets(config: unknown, seen = new WeakSet<object>()): void {
  if (typeof config === 'string') {
    if (config.includes('://')) for (const p of findUriPasswords(config)) rememberSecret(config.slice(p.start, p.end));
    return;
  }
  if (config === null || typeof config !== 'object' || seen.has(config)) return;
  seen.add(config);
  const entries = config instanceof Map ? [...config.entries()] : Object.entries(config);
  for (const [k, v] of entries) {
    if (typeof k === 'string' && isSecretKey(k)) rememberSecretValue(v, seen);
    else registerConfigSecrets(v, seen);
  }
}

/** A secret given as a number, a list or a map (a configuration mistake) is still a secret: remember all of it. */
function rememberSecretValue(value: unknown, seen: WeakSet<object>): void {
  if (typeof value === 'string') rememberSecret(value);
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') rememberSecret(String(value));
  else if (value !== null && typeof value === 'object' && !seen.has(value)) {
    seen.add(value);
    for (const v of value instanceof Map ? value.values() : Object.values(value)) rememberSecretValue(v, seen);
  }
}

/**
 * Remembers one secret value (a substituted ${VAR}, a jndi.properties credential), so that it is masked
 * wherever it appears. Values shorter than MIN_SECRET_LENGTH are not remembered.
 */
export function rememberSecret(value: string): void {
  if (value.length < MIN_SECRET_LENGTH) return;
  // An error text often quotes a peer's answer as JSON: a secret with a quote or a backslash appears escaped there.
  const quoted = JSON.stringify(value).slice(1, -1);
  for (const form of quoted === value ? [value] : [value, quoted]) {
    knownSecrets.delete(form); // re-added as the newest
    knownSecrets.add(form);
  }
  while (knownSecrets.size > MAX_KNOWN_SECRETS) knownSecrets.delete(knownSecrets.values().next().value as string);
}

/** How many configured secret values are masked (bounded by MAX_KNOWN_SECRETS). */
export function knownSecretCount(): number {
  return knownSecrets.size;
}

/** A field value that is a collected secret, whatever its JSON type (a number password logged as a number). */
function isKnownSecretValue(value: unknown): boolean {
  return (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') && knownSecrets.has(String(value));
}

/** A copy of `value` with secrets masked (objects and arrays are walked; cycles are cut). */
export function redact(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactText(value);
  if (isKnownSecretValue(value)) return MASK;
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return { name: value.name, message: redactText(value.message) };
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => redact(v, seen));
  if (value instanceof Map) return redact(Object.fromEntries(value), seen);
  if (Buffer.isBuffer(value)) return `[${value.length} bytes]`;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = isSecretKey(k) && v !== undefined && v !== '' ? MASK : redact(v, seen);
  return out;
}
