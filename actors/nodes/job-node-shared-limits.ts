/**
 * JobNode's side of SharedState: keeps the scheduler (which stays synchronous and knows nothing of
 * other instances) inside the cluster-wide limits.
 *
 *  - Slots. Each group's threshold as the scheduler sees it is min(Threshold, slots this instance
 *    holds). When the group has more jobs (active + ready) than slots, the missing slots are asked for;
 *    a slot no longer needed (no ready job left for it) is given back. A refused request is tried again
 *    every `retryMs`. So the scheduler never has more active jobs than slots held, and the slots held
 *    over all instances never exceed Threshold.
 *  - Keys. A job with a key enters the scheduler only once this instance holds that key; its later jobs
 *    with the same key join locally (the scheduler's own dedup orders them). The key is given back when
 *    the last of them ends. A key held elsewhere means: `defer` = try again every `retryMs`,
 *    `drop` = the job is dropped as a duplicate.
 *  - Leases are renewed every third of the lease. A renew that fails (Redis unreachable) pauses every
 *    group (threshold 0: running jobs go on, nothing new starts) until a renew succeeds again; the
 *    client keeps reconnecting meanwhile. Slots a renew reports lost are no longer counted.
 */
import { SharedState } from './job-node-shared-state';
import { DuplicatePolicy, ThresholdProvider } from './job-node-scheduler';

export interface SharedGroup {
  readonly name: string;
  readonly bypass: boolean;
  readonly threshold: ThresholdProvider;
}

export interface SharedLimitsHost {
  /** Active + ready jobs of a group in the scheduler. */
  demand(group: number): number;
  active(group: number): number;
  /** The thresholds changed: the scheduler must re-read them and dispatch what it can. */
  thresholdsChanged(): void;
  /** The thresholds changed during a scheduler call: re-read them before its next dispatch (no dispatch now). */
  thresholdsStale(): void;
  /** Runs `fn` later inside the owner's turn. */
  later(fn: () => void, ms: number): void;
  /** Delivers an asynchronous result into the owner's turn. */
  deliver(fn: () => void): void;
  log(level: 'info' | 'warn' | 'error', text: string, fields: Record<string, unknown>): void;
  readonly clock: () => number;
}

/**
 * What a JobNode replaced by a reload hands to its successor's SharedLimits (docs/components/job-node.md#at-a-reload):
 * the connection and its leases, kept rather than given back and taken again.
 */
export interface SharedHandover {
  readonly state: SharedState;
  /** Slots held per group name. */
  readonly held: ReadonlyMap<string, number>;
  /** Keys held when the successor took over; those its jobs do not hold again within a renew are given back. */
  readonly keys: readonly string[];
}

/** What the successor's SharedLimits starts from: the slots held, and its adopted jobs' references to their keys. */
export interface SharedInheritance {
  readonly held: ReadonlyMap<string, number>;
  readonly keyRefs: ReadonlyMap<string, number>;
  readonly keys: readonly string[];
}

interface KeyWaiter {
  readonly duplicates: DuplicatePolicy;
  /** Hands the job to the scheduler; true when it became a live job (holds a key reference). */
  readonly submit: () => boolean;
  readonly drop: () => void;
}

export class SharedLimits {
  private readonly held: number[];
  private readonly asking: boolean[];
  private readonly retrying: boolean[];
  /** Groups where another instance waits for a slot (as of the last renew). */
  private contended: boolean[];
  private healthy = true;
  private closed = false;
  /** quiesce(): a reload replaces the node; nothing new is asked of the shared state. */
  private quiet = false;
  /** Calls to the shared state not yet answered. */
  private pending = 0;
  private readonly keyRefs = new Map<string, number>();
  private readonly claiming = new Map<string, KeyWaiter[]>();
  /** Inherited keys no adopted job holds: given back at the first renew unless a job holds or claims them by then. */
  private provisional: readonly string[] = [];

  constructor(
    private readonly state: SharedState,
    private readonly groups: readonly SharedGroup[],
    private readonly host: SharedLimitsHost,
    private readonly options: { readonly leaseMs: number; readonly retryMs: number },
    inherited?: SharedInheritance,
  ) {
    this.held = groups.map((g) => inherited?.held.get(g.name) ?? 0);
    this.asking = groups.map(() => false);
    this.retrying = groups.map(() => false);
    this.contended = groups.map(() => false);
    if (inherited !== undefined) this.inherit(inherited);
    this.scheduleRenew();
  }

  /** Starts asking nothing new (a reload replaces the node): no slot or key is asked for; renewals go on. */
  quiesce(): void {
    this.quiet = true;
  }

  /** No call to the shared state is waiting for its answer. */
  get idle(): boolean {
    return this.pending === 0;
  }

  /** Hands the connection and every lease to the successor (nothing is given back); this one does nothing more. */
  handOver(): SharedHandover {
    this.closed = true;
    const held = new Map<string, number>();
    this.groups.forEach((g, i) => {
      if (this.held[i] > 0) held.set(g.name, this.held[i]);
    });
    // Keys still being claimed are handed on too: the successor gives back those none of its jobs holds.
    return { state: this.state, held, keys: [...this.keyRefs.keys(), ...this.claiming.keys()] };
  }

  private inherit(inherited: SharedInheritance): void {
    for (const [key, refs] of inherited.keyRefs) this.keyRefs.set(key, refs);
    this.provisional = inherited.keys.filter((k) => !this.keyRefs.has(k));
    // Slots of groups the new configuration no longer has.
    for (const [name, n] of inherited.held) {
      if (this.groups.some((g) => g.name === name && !g.bypass)) continue;
      this.track(this.state.releaseSlots(name, n)).catch((e) =>
        this.host.log('warn', 'cannot give back shared slots; they lapse with their lease', { group: name, error: String(e) }),
      );
    }
  }

  /** Counts a call to the shared state until it is answered (idle). */
  private track<T>(call: Promise<T>): Promise<T> {
    this.pending++;
    return call.finally(() => this.pending--);
  }

  /** The threshold the scheduler must use for `group`: capped by the slots held, 0 while paused. */
  thresholdFor(group: number): ThresholdProvider {
    const base = this.groups[group].threshold;
    return { dynamic: true, at: (now) => (this.healthy && !this.closed ? Math.min(base.at(now), this.held[group]) : 0) };
  }

  /** Slots held now (for status). */
  heldSlots(group: number): number {
    return this.held[group];
  }

  get paused(): boolean {
    return !this.healthy;
  }

  /** The group's demand may have changed: ask for missing slots, give back idle ones. */
  balance(group: number): void {
    if (this.closed || this.groups[group].bypass) return;
    const cap = Math.max(0, this.groups[group].threshold.at(this.host.clock()));
    const target = Math.min(cap, this.host.demand(group));
    const held = this.held[group];
    const idle = held - Math.max(target, this.host.active(group));
    if (idle > 0) {
      this.held[group] -= idle;
      this.host.thresholdsChanged();
      this.state
        .releaseSlots(this.groups[group].name, idle)
        .catch((e) =>
          this.host.log('warn', 'cannot give back shared slots; they lapse with their lease', { group: this.groups[group].name, error: String(e) }),
        );
    } else if (target > held && !this.asking[group] && !this.retrying[group] && !this.quiet) {
      this.ask(group, cap, target - held);
    }
  }

  /**
   * A job of the group ended (called inside the scheduler's call, before it dispatches again). While
   * another instance waits for a slot of the group, the slot goes back to Redis instead of to this
   * instance's next job; this instance then asks again and waits its turn.
   */
  jobEnded(group: number): void {
    if (this.closed || !this.contended[group] || this.held[group] <= this.host.active(group)) return;
    this.held[group]--;
    this.host.thresholdsStale();
    this.state
      .releaseSlots(this.groups[group].name, 1)
      .catch((e) => this.host.log('warn', 'cannot give back a shared slot; it lapses with its lease', { group: this.groups[group].name, error: String(e) }));
  }

  /** Admits a job whose key must be held cluster-wide before it may enter the scheduler. */
  withKey(key: string, waiter: KeyWaiter): void {
    const refs = this.keyRefs.get(key);
    if (refs !== undefined) {
      if (waiter.submit()) this.keyRefs.set(key, refs + 1);
      return;
    }
    const waiting = this.claiming.get(key);
    if (waiting !== undefined) {
      waiting.push(waiter);
      return;
    }
    this.claiming.set(key, [waiter]);
    this.claim(key);
  }

  /** A live job with this key ended: the last one gives the key back. */
  keyEnded(key: string): void {
    const refs = (this.keyRefs.get(key) ?? 1) - 1;
    if (refs > 0) {
      this.keyRefs.set(key, refs);
      return;
    }
    this.keyRefs.delete(key);
    this.state.releaseKey(key).catch((e) => this.host.log('warn', 'cannot give back a shared job key; it lapses with its lease', { key, error: String(e) }));
  }

  /** Jobs waiting for a key held by another instance. */
  get waitingForKeys(): number {
    let n = 0;
    for (const w of this.claiming.values()) n += w.length;
    return n;
  }

  close(): Promise<void> {
    this.closed = true;
    return this.state.close();
  }

  // ------------------------------------------------------------------ slots

  private ask(group: number, cap: number, want: number): void {
    this.asking[group] = true;
    const name = this.groups[group].name;
    const done = (granted: number): void => {
      this.asking[group] = false;
      if (this.closed) {
        // Closed or handed over meanwhile: a successor counts only the slots held at the handover.
        if (granted > 0) this.state.releaseSlots(name, granted).catch(() => undefined);
        return;
      }
      if (granted > 0) {
        this.held[group] += granted;
        this.host.thresholdsChanged();
      }
      // Another instance holds the rest: try again shortly (the retry re-reads demand, which may have gone).
      if (this.held[group] < Math.min(cap, this.host.demand(group))) this.retryLater(group);
      else this.balance(group);
    };
    this.track(this.state.acquireSlots(this.groups[group].name, cap, want)).then(
      (granted) => (this.closed ? done(granted) : this.host.deliver(() => done(granted))),
      (e) =>
        this.host.deliver(() => {
          this.host.log('warn', 'cannot acquire shared slots; retrying', { group: this.groups[group].name, error: String(e) });
          done(0);
        }),
    );
  }

  private retryLater(group: number): void {
    if (this.retrying[group]) return;
    this.retrying[group] = true;
    this.host.later(() => {
      this.retrying[group] = false;
      this.balance(group);
    }, this.options.retryMs);
  }

  // ------------------------------------------------------------------ keys

  private claim(key: string): void {
    if (this.quiet) {
      // A reload replaces the node: the requests waiting for this key go to the successor, which claims it again.
      this.claiming.delete(key);
      return;
    }
    const done = (held: boolean | undefined): void => {
      const waiting = this.claiming.get(key) ?? [];
      if (this.closed) return;
      if (held === true) {
        this.claiming.delete(key);
        let refs = 0;
        for (const w of waiting) if (w.submit()) refs++;
        if (refs > 0) this.keyRefs.set(key, refs);
        else this.state.releaseKey(key).catch(() => undefined);
        return;
      }
      // Held elsewhere (false) or not known (undefined, Redis unreachable: never drop on a guess).
      const keep = held === false ? waiting.filter((w) => w.duplicates === 'defer') : waiting;
      if (held === false) for (const w of waiting) if (w.duplicates === 'drop') w.drop();
      if (keep.length === 0) {
        this.claiming.delete(key);
        return;
      }
      this.claiming.set(key, keep);
      this.host.later(() => this.claim(key), this.options.retryMs);
    };
    this.track(this.state.claimKey(key)).then(
      (held) => this.host.deliver(() => done(held)),
      (e) =>
        this.host.deliver(() => {
          this.host.log('warn', 'cannot claim a shared job key; retrying', { key, error: String(e) });
          done(undefined);
        }),
    );
  }

  // ------------------------------------------------------------------ leases

  /** Inherited keys that no job holds or claims again by the first renew after a reload are given back. */
  private releaseUnclaimed(): void {
    const keys = this.provisional;
    this.provisional = [];
    for (const key of keys) {
      if (this.keyRefs.has(key) || this.claiming.has(key)) continue;
      this.state.releaseKey(key).catch((e) => this.host.log('warn', 'cannot give back a shared job key; it lapses with its lease', { key, error: String(e) }));
    }
  }

  private scheduleRenew(): void {
    this.host.later(() => this.renew(), Math.max(1, Math.floor(this.options.leaseMs / 3)));
  }

  private renew(): void {
    if (this.closed) return;
    this.track(this.state.renew()).then(
      (result) =>
        this.host.deliver(() => {
          if (this.closed) return;
          result.lostSlots.forEach((lost, name) => {
            const g = this.groups.findIndex((x) => x.name === name);
            if (g >= 0) this.held[g] = Math.max(0, this.held[g] - lost);
            this.host.log('error', 'shared slots lapsed before they were renewed; they are no longer counted', { group: name, lost });
          });
          this.contended = this.groups.map((g) => result.contended.has(g.name));
          for (const key of result.lostKeys)
            this.host.log('error', 'a shared job key lapsed before it was renewed: another instance may run the same key', { key });
          if (!this.healthy) this.host.log('info', 'shared state reachable again: dispatch resumes', {});
          this.healthy = true;
          this.releaseUnclaimed();
          this.host.thresholdsChanged();
          this.groups.forEach((_g, i) => this.balance(i));
          this.scheduleRenew();
        }),
      (e) =>
        this.host.deliver(() => {
          if (this.closed) return;
          if (this.healthy) this.host.log('error', 'shared state unreachable: dispatch paused until its leases can be renewed', { error: String(e) });
          this.healthy = false;
          this.host.thresholdsChanged();
          this.host.later(() => this.renew(), this.options.retryMs);
        }),
    );
  }
}
