/**
 * Credentials never reach a log line or an error text: values of keys that name a secret are masked,
 * and `user:password@` in URIs becomes `user:***@`.
 */
const SECRET_KEY = /pass(word)?|passwd|credential|secret|token|sasl|EncryptedPassword/i;
const URI_CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)([^@/\s]+)@/gi;

export const MASK = '***';

export function redactText(text: string): string {
  return text.replace(URI_CREDENTIALS, `$1${MASK}@`);
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
