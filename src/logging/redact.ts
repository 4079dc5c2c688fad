/**
 * Credentials never reach a log line or an error text: values of keys that name a secret are masked,
 * `user:password@` in URIs becomes `user:***@`, and the secret values of every component configuration
 * started in this process are masked wherever they appear (a peer may echo a password back in an error
 * answer that is then logged).
 */
const SECRET_KEY = /pass(word)?|passwd|credential|secret|token|sasl|EncryptedPassword/i;
const URI_CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)([^@/\s]+)@/gi;

export const MASK = '***';

/** Secret values seen in configurations; shorter ones are not masked (a 1-character "password" is everywhere). */
const knownSecrets = new Set<string>();
const MIN_SECRET_LENGTH = 4;
/** Pools may start children with many different passwords over a long run: the oldest are forgotten. */
const MAX_KNOWN_SECRETS = 4096;

export function redactText(text: string): string {
  let out = text.replace(URI_CREDENTIALS, `$1${MASK}@`);
  for (const secret of knownSecrets) if (out.includes(secret)) out = out.split(secret).join(MASK);
  return out;
}

/**
 * Remembers the values of a configuration's secret keys (Password, EncryptedPassword, ...; nested maps
 * included) and the password of every `user:password@` URI in it, so that redactText masks them anywhere.
 */
export function registerConfigSecrets(config: unknown, seen = new WeakSet<object>()): void {
  if (typeof config === 'string') {
    for (const m of config.matchAll(URI_CREDENTIALS)) rememberSecret(m[2]);
    return;
  }
  if (config === null || typeof config !== 'object' || seen.has(config)) return;
  seen.add(config);
  const entries = config instanceof Map ? [...config.entries()] : Object.entries(config);
  for (const [k, v] of entries) {
    if (typeof k === 'string' && isSecretKey(k) && typeof v === 'string') rememberSecret(v);
    else registerConfigSecrets(v, seen);
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
