/**
 * SharedState on Redis. Every decision is one Lua script (atomic on the server, timed by the server's
 * own clock so that the instances' clocks do not matter):
 *  - a group's slots are a sorted set `<ns>:slots:<group>` of slot ids scored by their lease deadline;
 *    acquiring purges lapsed slots, then adds at most `cap - held` new ones;
 *  - a job key is a string `<ns>:key:<key>` holding the instance id, set with NX and a lease (PX);
 *    renewing and releasing check the holder first.
 * Commands fail fast while Redis is unreachable (no offline queue, a command timeout); the client keeps
 * reconnecting by itself. Callers treat a failure as "nothing granted" and try again later.
 */
import Redis from 'ioredis';
import { RenewResult, SharedState, newInstanceId } from './job-node-shared-state';
import { redactText } from '../../src/logging/redact';

const NOW_MS = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * KEYS[1] slots, KEYS[2] waiters; ARGV: cap, leaseMs, instance, waitLeaseMs, slot ids to add (as many as
 * wanted). While other instances wait, one that has not waited yet gets nothing and joins them; one
 * left short waits (its entry lapses unless it asks again). Returns the number of slots added.
 */
const ACQUIRE_SLOTS = `${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local want = #ARGV - 4
local n = 0
if redis.call('ZSCORE', KEYS[2], ARGV[3]) or redis.call('ZCARD', KEYS[2]) == 0 then
  n = math.max(0, math.min(tonumber(ARGV[1]) - redis.call('ZCARD', KEYS[1]), want))
end
local lease = tonumber(ARGV[2])
for i = 1, n do redis.call('ZADD', KEYS[1], now + lease, ARGV[i + 4]) end
if n < want then redis.call('ZADD', KEYS[2], now + tonumber(ARGV[4]), ARGV[3]) else redis.call('ZREM', KEYS[2], ARGV[3]) end
redis.call('PEXPIRE', KEYS[1], lease * 2)
redis.call('PEXPIRE', KEYS[2], math.max(lease, tonumber(ARGV[4])) * 2)
return n`;

/**
 * KEYS[1] slots, KEYS[2] waiters; ARGV: leaseMs, instance, this instance's slot ids. Returns the number
 * of other instances waiting, then the ids that had lapsed (now gone).
 */
const RENEW_SLOTS = `${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local lease = tonumber(ARGV[1])
local others = redis.call('ZCARD', KEYS[2])
if redis.call('ZSCORE', KEYS[2], ARGV[2]) then others = others - 1 end
local out = {others}
for i = 3, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then redis.call('ZADD', KEYS[1], now + lease, ARGV[i]) else out[#out + 1] = ARGV[i] end
end
redis.call('PEXPIRE', KEYS[1], lease * 2)
return out`;

/** KEYS: key names; ARGV: instance, leaseMs. Returns the indexes (1-based) of keys no longer held. */
const RENEW_KEYS = `local lost = {}
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('PEXPIRE', KEYS[i], ARGV[2]) else lost[#lost + 1] = i end
end
return lost`;

/** KEYS[1] key; ARGV[1] instance, ARGV[2] leaseMs. 1 = held by this instance now. */
const CLAIM_KEY = `local h = redis.call('GET', KEYS[1])
if h == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if h then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

const RELEASE_KEY = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

interface Scripts {
  acquireSlots(slots: string, waiters: string, ...args: (string | number)[]): Promise<number>;
  renewSlots(slots: string, waiters: string, ...args: (string | number)[]): Promise<(string | number)[]>;
  renewKeys(numKeys: number, ...args: (string | number)[]): Promise<number[]>;
  claimKey(key: string, instance: string, leaseMs: number): Promise<number>;
  releaseKey(key: string, instance: string): Promise<number>;
}

export interface RedisSharedStateOptions {
  /** redis://host:port/db */
  readonly url: string;
  /** Key prefix of this namespace (e.g. "xroute:jobnode:Scheduler"). */
  readonly namespace: string;
  readonly leaseMs: number;
  /** How long an instance left short stays first in line without asking again, ms (default 1000). */
  readonly waitLeaseMs?: number;
  /** How long one command may take before it counts as failed, ms. */
  readonly commandTimeoutMs?: number;
  readonly instance?: string;
  /** Told when the connection fails (the client keeps reconnecting). */
  readonly onError?: (error: Error) => void;
}

export class RedisSharedState implements SharedState {
  readonly instance: string;
  private readonly redis: Redis & Scripts;
  private readonly mine = new Map<string, string[]>();
  private readonly myKeys = new Set<string>();
  private nextSlot = 0;

  constructor(private readonly options: RedisSharedStateOptions) {
    this.instance = options.instance ?? newInstanceId();
    const redis = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 1000,
      retryStrategy: (times) => Math.min(50 * times, 1000),
      lazyConnect: false,
      // Commands issued in one event-loop turn go out as one write: many jobs claiming keys at once cost one round trip.
      enableAutoPipelining: true,
    });
    redis.on('error', (e: Error) => options.onError?.(e));
    redis.defineCommand('acquireSlots', { numberOfKeys: 2, lua: ACQUIRE_SLOTS });
    redis.defineCommand('renewSlots', { numberOfKeys: 2, lua: RENEW_SLOTS });
    redis.defineCommand('renewKeys', { lua: RENEW_KEYS });
    redis.defineCommand('claimKey', { numberOfKeys: 1, lua: CLAIM_KEY });
    redis.defineCommand('releaseKey', { numberOfKeys: 1, lua: RELEASE_KEY });
    this.redis = redis as Redis & Scripts;
  }

  /** Resolves once connected; rejects after `timeoutMs` (for callers that want to fail early, e.g. tests). */
  async ready(timeoutMs = 2000): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Redis at ${redactText(this.options.url)} not reachable within ${timeoutMs} ms`)), timeoutMs);
      this.redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async acquireSlots(group: string, cap: number, want: number): Promise<number> {
    if (want <= 0 || cap <= 0) return 0;
    const ids = Array.from({ length: want }, () => `${this.instance}#${++this.nextSlot}`);
    const n = Number(
      await this.redis.acquireSlots(
        this.slotsKey(group),
        this.waitersKey(group),
        cap,
        this.options.leaseMs,
        this.instance,
        this.options.waitLeaseMs ?? 1000,
        ...ids,
      ),
    );
    this.mineOf(group).push(...ids.slice(0, n));
    return n;
  }

  async releaseSlots(group: string, count: number): Promise<void> {
    const ids = this.mineOf(group).splice(0, count);
    if (ids.length > 0) await this.redis.zrem(this.slotsKey(group), ...ids);
  }

  async claimKey(key: string): Promise<boolean> {
    const held = (await this.redis.claimKey(this.keyKey(key), this.instance, this.options.leaseMs)) === 1;
    if (held) this.myKeys.add(key);
    return held;
  }

  async releaseKey(key: string): Promise<void> {
    this.myKeys.delete(key);
    await this.redis.releaseKey(this.keyKey(key), this.instance);
  }

  async renew(): Promise<RenewResult> {
    const lostSlots = new Map<string, number>();
    const contended = new Set<string>();
    const groups = [...this.mine].filter(([, ids]) => ids.length > 0);
    const keys = [...this.myKeys];
    const pipeline = this.redis.pipeline() as unknown as Scripts & { exec(): Promise<[Error | null, unknown][] | null> };
    for (const [group, ids] of groups) void pipeline.renewSlots(this.slotsKey(group), this.waitersKey(group), this.options.leaseMs, this.instance, ...ids);
    if (keys.length > 0) void pipeline.renewKeys(keys.length, ...keys.map((k) => this.keyKey(k)), this.instance, this.options.leaseMs);
    const results = (await pipeline.exec()) ?? [];
    for (const [error] of results) if (error) throw error;
    groups.forEach(([group, ids], i) => {
      const [others, ...lapsed] = results[i][1] as [number, ...string[]];
      if (Number(others) > 0) contended.add(group);
      const lost = new Set(lapsed);
      if (lost.size === 0) return;
      this.mine.set(
        group,
        ids.filter((id) => !lost.has(id)),
      );
      lostSlots.set(group, lost.size);
    });
    const lostKeys = keys.length > 0 ? (results[groups.length][1] as number[]).map((i) => keys[i - 1]) : [];
    for (const k of lostKeys) this.myKeys.delete(k);
    return { lostSlots, lostKeys, contended };
  }

  async close(): Promise<void> {
    if (this.redis.status !== 'ready') {
      this.redis.disconnect();
      return;
    }
    try {
      for (const [group, ids] of this.mine) await this.releaseSlots(group, ids.length);
      for (const key of [...this.myKeys]) await this.releaseKey(key);
    } finally {
      // QUIT waits for the server to close the connection, so nothing is left open behind us.
      await this.redis.quit().catch(() => this.redis.disconnect());
    }
  }

  private slotsKey(group: string): string {
    return `${this.options.namespace}:slots:${group}`;
  }

  private waitersKey(group: string): string {
    return `${this.options.namespace}:waiting:${group}`;
  }

  private keyKey(key: string): string {
    return `${this.options.namespace}:key:${key}`;
  }

  private mineOf(group: string): string[] {
    let ids = this.mine.get(group);
    if (ids === undefined) this.mine.set(group, (ids = []));
    return ids;
  }
}
