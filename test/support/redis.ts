/**
 * Redis for tests: 127.0.0.1:6379 (or XROUTE_TEST_REDIS). A test that needs it and cannot reach it
 * fails, saying so. Tests use their own key prefix and delete it afterwards (never FLUSHDB).
 */
import Redis from 'ioredis';

export const REDIS_URL = process.env.XROUTE_TEST_REDIS ?? 'redis://127.0.0.1:6379/0';

export function redisUnreachable(cause: unknown): Error {
  return new Error(`this test needs Redis on ${REDIS_URL} (set XROUTE_TEST_REDIS to another URL): ${(cause as Error).message}`);
}

/** Throws a clear error when Redis cannot be reached. */
export async function requireRedis(): Promise<void> {
  const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
  } catch (e) {
    throw redisUnreachable(e);
  } finally {
    r.disconnect();
  }
}

/** Deletes every key under `prefix:`. */
export async function deleteRedisPrefix(prefix: string): Promise<void> {
  const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
    const keys = await r.keys(`${prefix}:*`);
    if (keys.length > 0) await r.del(...keys);
    await r.quit();
  } catch {
    r.disconnect();
  }
}
