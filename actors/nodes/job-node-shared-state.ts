/**
 * The port through which JobNode instances running in separate processes share their limits: group
 * slots (a group's Threshold becomes a cap over all instances) and job keys (KeyTemplate dedup across
 * instances). Everything an instance holds is a lease: it lapses `leaseMs` after the last renew(), so
 * the slots and keys of an instance that died come back by themselves.
 *
 * Two implementations keep the same contract (test/support/shared-state-contract.ts, run against
 * both): MemorySharedState (one process; several JobNodes of a process may share a store) and
 * RedisSharedState (job-node-shared-redis.ts).
 */

/** What a renew found: leases that had lapsed and were taken away (the holder must stop counting on them). */
export interface RenewResult {
  /** Group name -> slots lost. */
  readonly lostSlots: ReadonlyMap<string, number>;
  readonly lostKeys: readonly string[];
  /** Groups in which this instance holds slots while another instance waits for one. */
  readonly contended: ReadonlySet<string>;
}

export interface SharedState {
  /**
   * Takes up to `want` slots of `group` while fewer than `cap` are held over all instances; resolves to the
   * number taken. Fair between instances: while others wait for a slot of the group, an instance that has
   * not asked before gets none and waits behind them; an instance left short waits until it asks again
   * (or, if it stops asking, for a short wait lease).
   */
  acquireSlots(group: string, cap: number, want: number): Promise<number>;
  /** Gives back `count` of this instance's slots of `group`. */
  releaseSlots(group: string, count: number): Promise<void>;
  /** Claims a job key for this instance; false when another instance holds it. Claiming a key it already holds is true. */
  claimKey(key: string): Promise<boolean>;
  releaseKey(key: string): Promise<void>;
  /** Extends every lease this instance holds; reports those that had already lapsed and were taken. */
  renew(): Promise<RenewResult>;
  /** Gives back everything this instance holds (best effort) and lets go of the connection. */
  close(): Promise<void>;
}

/** The state of one shared-state namespace in memory: several MemorySharedState instances may use it. */
export class MemorySharedStore {
  /** Group -> slot id -> lease deadline. */
  readonly slots = new Map<string, Map<string, number>>();
  /** Key -> holder and deadline. */
  readonly keys = new Map<string, { holder: string; until: number }>();
  /** Group -> waiting instance -> deadline of its wait. */
  readonly waiting = new Map<string, Map<string, number>>();
  constructor(
    readonly clock: () => number = Date.now,
    readonly waitLeaseMs = 1000,
  ) {}

  /** The instances waiting for a slot of `group`, lapsed waits dropped. */
  waitersOf(group: string): Map<string, number> {
    return this.live(this.waiting, group);
  }

  /** The slots of `group`, lapsed leases dropped. */
  liveSlots(group: string): Map<string, number> {
    return this.live(this.slots, group);
  }

  private live(byGroup: Map<string, Map<string, number>>, group: string): Map<string, number> {
    let entries = byGroup.get(group);
    if (entries === undefined) byGroup.set(group, (entries = new Map()));
    const now = this.clock();
    for (const [id, until] of entries) if (until <= now) entries.delete(id);
    return entries;
  }
}

let instanceCounter = 0;

/** A unique identity for one JobNode incarnation: host, pid and a counter. */
export function newInstanceId(): string {
  const host = process.env.HOSTNAME ?? 'host';
  return `${host}:${process.pid}:${Date.now().toString(36)}:${++instanceCounter}`;
}

/** The in-process implementation: the same rules, applied to a store in this process's memory. */
export class MemorySharedState implements SharedState {
  /** Group -> this instance's slot ids. */
  private readonly mine = new Map<string, string[]>();
  private readonly myKeys = new Set<string>();
  private nextSlot = 0;

  constructor(
    private readonly store: MemorySharedStore,
    private readonly leaseMs: number,
    readonly instance: string = newInstanceId(),
  ) {}

  async acquireSlots(group: string, cap: number, want: number): Promise<number> {
    const slots = this.store.liveSlots(group);
    const waiters = this.store.waitersOf(group);
    const n = waiters.size === 0 || waiters.has(this.instance) ? Math.max(0, Math.min(want, cap - slots.size)) : 0;
    if (n < want) waiters.set(this.instance, this.store.clock() + this.store.waitLeaseMs);
    else waiters.delete(this.instance);
    const mine = this.mineOf(group);
    const until = this.store.clock() + this.leaseMs;
    for (let i = 0; i < n; i++) {
      const id = `${this.instance}#${++this.nextSlot}`;
      slots.set(id, until);
      mine.push(id);
    }
    return n;
  }

  async releaseSlots(group: string, count: number): Promise<void> {
    const slots = this.store.liveSlots(group);
    for (const id of this.mineOf(group).splice(0, count)) slots.delete(id);
  }

  async claimKey(key: string): Promise<boolean> {
    const now = this.store.clock();
    const held = this.store.keys.get(key);
    if (held !== undefined && held.until > now && held.holder !== this.instance) return false;
    this.store.keys.set(key, { holder: this.instance, until: now + this.leaseMs });
    this.myKeys.add(key);
    return true;
  }

  async releaseKey(key: string): Promise<void> {
    this.myKeys.delete(key);
    if (this.store.keys.get(key)?.holder === this.instance) this.store.keys.delete(key);
  }

  async renew(): Promise<RenewResult> {
    const until = this.store.clock() + this.leaseMs;
    const lostSlots = new Map<string, number>();
    const contended = new Set<string>();
    for (const [group, ids] of this.mine) {
      const waiters = this.store.waitersOf(group);
      if (ids.length > 0 && waiters.size - (waiters.has(this.instance) ? 1 : 0) > 0) contended.add(group);
      const slots = this.store.liveSlots(group);
      const kept = ids.filter((id) => slots.has(id));
      for (const id of kept) slots.set(id, until);
      if (kept.length < ids.length) lostSlots.set(group, ids.length - kept.length);
      this.mine.set(group, kept);
    }
    const lostKeys: string[] = [];
    for (const key of this.myKeys) {
      const held = this.store.keys.get(key);
      if (held === undefined || held.holder !== this.instance || held.until <= this.store.clock()) {
        lostKeys.push(key);
        this.myKeys.delete(key);
      } else {
        held.until = until;
      }
    }
    return { lostSlots, lostKeys, contended };
  }

  async close(): Promise<void> {
    for (const [group, ids] of this.mine) await this.releaseSlots(group, ids.length);
    for (const key of [...this.myKeys]) await this.releaseKey(key);
  }

  private mineOf(group: string): string[] {
    let ids = this.mine.get(group);
    if (ids === undefined) this.mine.set(group, (ids = []));
    return ids;
  }
}
