/**
 * Credentials never reach a log line or an error text: values of keys that name a secret are masked,
 * `user:password@` in URIs becomes `user:***@`, and the secret values of every component configuration
 * started in this process are masked wherever they appear (a peer may echo a password back in an error
 * answer that is then logged).
 */
const SECRET_KEY = /pass(word)?|passwd|credential|secret|token|sasl|EncryptedPassword/i;

export const MASK = '***';

/** Secret values seen in configurations; shorter ones are not masked (a 1-character "password" is everywhere). */
const knownSecrets = new Set<string>();
const MIN_SECRET_LENGTH = 4;
/** Pools may start children with many different passwords over a long run: the oldest are forgotten. */
const MAX_KNOWN_SECRETS = 4096;

/** Where the password of a `scheme://user:password@` URI sits in a text. */
interface UriPassword {
  readonly start: number;
  readonly end: number;
}

const isSchemeChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 43 || c === 46 || c === 45;
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
  for (const secret of knownSecrets) if (out.includes(secret)) out = out.split(secret).join(MASK);
  return out;
}

/**
 * Remembers the values of a configuration's secret keys (Password, EncryptedPassword, ...; nested maps
 * included) and the password of every `user:password@` URI in it, so that redactText masks them anywhere.
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

function rememberSecret(value: string): void {
  if (value.length < MIN_SECRET_LENGTH) return;
  knownSecrets.delete(value); // re-added as the newest
  knownSecrets.add(value);
  if (knownSecrets.size > MAX_KNOWN_SECRETS) knownSecrets.delete(knownSecrets.values().next().value as string);
}

/** How many configured secret values are masked (bounded by MAX_KNOWN_SECRETS). */
export function knownSecretCount(): number {
  return knownSecrets.size;
}

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** A copy of `value` with secrets masked (objects and arrays are walked; cycles are cut). */
export function redact(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactText(value);
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
