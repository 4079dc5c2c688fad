/**
 * Redis for tests: 127.0.0.1:6379 (or XROUTE_TEST_REDIS). A test that needs it and cannot reach it
 * fails, saying so. Tests use their own key prefix and delete it afterwards (never FLUSHDB).
 */
import * as net from 'node:net';
import Redis from 'ioredis';
import { freePort } from './free-port';

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

/** The keys under `prefix:`, as another Redis client sees them. */
export async function redisKeys(prefix: string): Promise<string[]> {
  const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
    return (await r.keys(`${prefix}:*`)).sort();
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

/** A TCP proxy in front of Redis that a test can cut (connections dropped, new ones refused) and restore. */
export class CuttableRedisProxy {
  private readonly sockets = new Set<import('node:net').Socket>();
  private server: import('node:net').Server | undefined;
  private constructor(readonly port: number) {}

  static async start(): Promise<CuttableRedisProxy> {
    const proxy = new CuttableRedisProxy(await freePort());
    await proxy.restore();
    return proxy;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  /** Accepts connections again and pipes them to Redis. */
  async restore(): Promise<void> {
    const target = new URL(REDIS_URL);
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
  }

  /** Drops every connection and refuses new ones until restore(). */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
