/**
 * Benchmark of JobNode's scheduling core (issue 6).
 *
 * Steady state with 100 rulesets (priorities 0..9, ties in definition order), 16 workers and N pending
 * jobs: each step completes one active job, which frees its worker and makes the scheduler take one
 * dispatch decision (the highest-ranked group with a ready job, oldest job first), and submits one new
 * job to a random group so that N stays constant. Cost per decision = time per step.
 *
 * Baseline: a minimal hand-written priority queue making the same choices - one binary heap over all
 * pending jobs keyed by (group rank, arrival), each entry carrying its request, plus a free-worker
 * stack. Before timing, both run the same arrivals and the sequences of dispatched jobs are compared
 * (they must be identical). Both get the same request objects: the request of a completed job is reused
 * for the next arrival, as an input XQueue reuses its cells, so neither pays for allocating requests.
 *
 * Rows: ns per decision at each N (baseline = the heap, ratio = scheduler / heap), decisions per second
 * at 10k pending, and the scaling ratio cost(max N) / cost(min N) for both (target <= 1.5 for the
 * scheduler). Rounds alternate which implementation runs first; the reported ratios are medians of the
 * per-round ratios.
 */
import { GroupSpec, JobScheduler, JobView, fixedThreshold } from '../../actors/nodes/job-node-scheduler';
import type { BenchRow } from './bench-types';
import { median } from './interleaved';

const GROUPS = 100;
const WORKERS = 16;
const ROUNDS = 7;
const STEPS = 200_000;

/** A deterministic pseudo-random sequence (same arrivals for both implementations). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
}

function groupSpecs(): GroupSpec[] {
  return Array.from({ length: GROUPS }, (_, g) => ({
    name: `r${g}`,
    bypass: false,
    priority: g % 10,
    threshold: fixedThreshold(1_000_000),
    heartbeatMs: 30_000,
    ttlMs: 0,
    duplicates: 'defer',
    failedJobs: 'redispatch',
    maxDispatch: 3,
  }));
}

/** Rank of each group: priority descending, ties in definition order (what both implementations use). */
function ranks(specs: GroupSpec[]): number[] {
  const order = specs.map((s, i) => ({ p: s.priority, i })).sort((a, b) => b.p - a.p || a.i - b.i);
  const rank = new Array<number>(specs.length);
  order.forEach((o, r) => (rank[o.i] = r));
  return rank;
}

interface Runner {
  /** Completes one active job and submits one new job to `group`; returns the id dispatched, if any. */
  step(group: number): void;
  dispatched: number[];
}

interface Req {
  group: number;
}

/** Completed requests come back as new arrivals (bounded input: cells are reused). */
class RequestPool {
  private readonly free: Req[] = [];
  next(group: number): Req {
    const r = this.free.pop() ?? { group };
    r.group = group;
    return r;
  }
  release(r: Req): void {
    this.free.push(r);
  }
}

function schedulerRunner(pending: number, random: () => number, record: boolean): Runner {
  const specs = groupSpecs();
  const active: JobView<Req>[] = [];
  const dispatches: number[] = [];
  const dispatched: number[] = [];
  const scheduler = new JobScheduler<Req>({
    groups: specs,
    workers: WORKERS,
    select: (p) => p.group,
    keyOf: () => undefined,
    clock: { now: Date.now },
    timers: { set: () => 0, clear: () => undefined },
    port: {
      start: (job, _worker) => {
        active.push(job);
        dispatches.push(job.dispatches);
        if (record) dispatched.push(job.id);
        return true;
      },
      query: () => true,
      abort: () => false,
      notify: () => undefined,
    },
  });
  const pool = new RequestPool();
  for (let i = 0; i < pending + WORKERS; i++) scheduler.submit(pool.next(random() % GROUPS));
  let head = 0;
  return {
    dispatched,
    step(group: number) {
      const job = active[head];
      const dispatch = dispatches[head++];
      if (head > 4096) {
        active.splice(0, head);
        dispatches.splice(0, head);
        head = 0;
      }
      scheduler.complete(job, dispatch);
      pool.release(job.payload);
      scheduler.submit(pool.next(group));
    },
  };
}

/** The minimal hand-written equivalent: one heap of (rank, arrival) over every pending job. */
function heapRunner(pending: number, random: () => number, record: boolean): Runner {
  const rank = ranks(groupSpecs());
  const keys: number[] = [];
  const ids: number[] = [];
  const reqs: Req[] = [];
  const pool = new RequestPool();
  const freeWorkers: number[] = [];
  const active: Req[] = [];
  const dispatched: number[] = [];
  let nextId = 1;
  let head = 0;
  const push = (key: number, id: number, req: Req) => {
    let i = keys.length;
    keys.push(key);
    ids.push(id);
    reqs.push(req);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (keys[p] <= key) break;
      keys[i] = keys[p];
      ids[i] = ids[p];
      reqs[i] = reqs[p];
      i = p;
    }
    keys[i] = key;
    ids[i] = id;
    reqs[i] = req;
  };
  /** Pops the top entry; returns its id and leaves its request in `popped`. */
  let popped: Req | undefined;
  const pop = (): number => {
    const top = ids[0];
    popped = reqs[0];
    const lastKey = keys.pop() as number;
    const lastId = ids.pop() as number;
    const lastReq = reqs.pop() as Req;
    const n = keys.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const c = l + 1 < n && keys[l + 1] < keys[l] ? l + 1 : l;
        if (keys[c] >= lastKey) break;
        keys[i] = keys[c];
        ids[i] = ids[c];
        reqs[i] = reqs[c];
        i = c;
      }
      keys[i] = lastKey;
      ids[i] = lastId;
      reqs[i] = lastReq;
    }
    return top;
  };
  const dispatch = () => {
    while (freeWorkers.length > 0 && keys.length > 0) {
      freeWorkers.pop();
      const id = pop();
      active.push(popped as Req);
      if (record) dispatched.push(id);
    }
  };
  const submit = (group: number) => {
    const req = pool.next(group);
    push(rank[req.group] * 2 ** 32 + nextId, nextId, req);
    nextId++;
    dispatch();
  };
  for (let w = 0; w < WORKERS; w++) freeWorkers.push(w);
  for (let i = 0; i < pending + WORKERS; i++) submit(random() % GROUPS);
  return {
    dispatched,
    step(group: number) {
      pool.release(active[head++]);
      if (head > 4096) {
        active.splice(0, head);
        head = 0;
      }
      freeWorkers.push(0);
      dispatch();
      submit(group);
    },
  };
}

function timeSteps(runner: Runner, arrivals: Uint32Array): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < arrivals.length; i++) runner.step(arrivals[i]);
  return Number(process.hrtime.bigint() - t0) / arrivals.length;
}

function arrivalsFor(seed: number, n: number): Uint32Array {
  const r = lcg(seed);
  const a = new Uint32Array(n);
  for (let i = 0; i < n; i++) a[i] = r() % GROUPS;
  return a;
}

/** Both implementations must dispatch the same jobs in the same order. */
function checkSameChoices(pending: number): void {
  const a = schedulerRunner(pending, lcg(7), true);
  const b = heapRunner(pending, lcg(7), true);
  const arrivals = arrivalsFor(11, 5_000);
  for (const g of arrivals) {
    a.step(g);
    b.step(g);
  }
  const n = Math.min(a.dispatched.length, b.dispatched.length);
  for (let i = 0; i < n; i++) {
    if (a.dispatched[i] !== b.dispatched[i])
      throw new Error(`JobNode bench: the scheduler and the heap disagree at decision ${i} (${a.dispatched[i]} vs ${b.dispatched[i]}) with ${pending} pending`);
  }
  if (a.dispatched.length !== b.dispatched.length) throw new Error(`JobNode bench: ${a.dispatched.length} vs ${b.dispatched.length} decisions`);
}

export async function benchJobNode(opts: { pending: number[] }): Promise<BenchRow[]> {
  const sizes = [...new Set([...opts.pending, 10_000])].sort((x, y) => x - y);
  for (const n of sizes) checkSameChoices(Math.min(n, 20_000));
  const ours = new Map<number, number[]>(sizes.map((n) => [n, []]));
  const heap = new Map<number, number[]>(sizes.map((n) => [n, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const n of sizes) {
      const arrivals = arrivalsFor(round + 1, STEPS);
      const runs: [Map<number, number[]>, () => Runner][] = [
        [ours, () => schedulerRunner(n, lcg(round + 100), false)],
        [heap, () => heapRunner(n, lcg(round + 100), false)],
      ];
      if (round % 2 === 1) runs.reverse();
      for (const [into, make] of runs) {
        const runner = make();
        timeSteps(runner, arrivals.subarray(0, 20_000)); // warm-up
        into.get(n)!.push(timeSteps(runner, arrivals));
      }
      await new Promise((r) => setImmediate(r));
    }
  }
  const rows: BenchRow[] = [];
  for (const n of sizes) {
    const o = ours.get(n)!;
    const h = heap.get(n)!;
    rows.push({
      name: `jobnode dispatch decision, ${GROUPS} rulesets, ${n} pending`,
      unit: 'ns/decision',
      value: round1(median(o)),
      baseline: round1(median(h)),
      ratio: round2(median(o.map((x, i) => x / h[i]))),
    });
  }
  rows.push({
    name: `jobnode dispatch decisions per second, ${GROUPS} rulesets, 10000 pending`,
    unit: 'decisions/s',
    value: Math.round(1e9 / median(ours.get(10_000)!)),
  });
  const lo = sizes[0];
  const hi = sizes[sizes.length - 1];
  const scaling = (m: Map<number, number[]>) => median(m.get(hi)!.map((x, i) => x / m.get(lo)![i]));
  const oursScaling = scaling(ours);
  const heapScaling = scaling(heap);
  rows.push({
    name: `jobnode cost per decision at ${hi} pending / at ${lo} pending (baseline: the heap's)`,
    unit: 'ratio',
    value: round2(oursScaling),
    baseline: round2(heapScaling),
    ratio: round2(oursScaling / heapScaling),
    target: '<= 1.5',
  });
  return rows;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;

if (require.main === module) {
  void benchJobNode({ pending: [1_000, 10_000, 100_000] }).then((rows) => console.table(rows));
}
