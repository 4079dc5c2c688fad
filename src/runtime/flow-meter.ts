/**
 * Rates and "last message at" of a running flow, derived from the plain counters the message path already
 * increments (component totals, XQueue counters): a timer samples them, so counting costs nothing per message
 * (docs/operations.md "Flow"). Each series keeps the samples of the last minute in a ring.
 */

/** Messages per second over the last second and the last minute (from counter samples). */
export interface Rates {
  readonly in1s: number;
  readonly in1m: number;
  readonly out1s: number;
  readonly out1m: number;
}

const ZERO_RATES: Rates = { in1s: 0, in1m: 0, out1s: 0, out1m: 0 };

/** Two monotonic counters of one component or link: what came in, what went out. */
export interface InOut {
  readonly in: number;
  readonly out: number;
}

const WINDOW_1S = 1000;
const WINDOW_1M = 60_000;

class Series {
  private readonly times: Float64Array;
  private readonly ins: Float64Array;
  private readonly outs: Float64Array;
  private next = 0;
  private count = 0;
  /** Epoch ms of the first sample that saw the counters move (undefined: never moved). */
  lastChangeAt: number | undefined;

  constructor(size: number) {
    this.times = new Float64Array(size);
    this.ins = new Float64Array(size);
    this.outs = new Float64Array(size);
  }

  record(now: number, v: InOut): void {
    const prev = this.count > 0 ? (this.next - 1 + this.times.length) % this.times.length : -1;
    if (prev >= 0 && (this.ins[prev] !== v.in || this.outs[prev] !== v.out)) this.lastChangeAt = now;
    else if (prev < 0 && (v.in !== 0 || v.out !== 0)) this.lastChangeAt = now;
    this.times[this.next] = now;
    this.ins[this.next] = v.in;
    this.outs[this.next] = v.out;
    this.next = (this.next + 1) % this.times.length;
    this.count = Math.min(this.count + 1, this.times.length);
  }

  /** The newest sample at least `windowMs` old, else the oldest one; -1 without samples. */
  private base(now: number, windowMs: number): number {
    const n = this.times.length;
    let oldest = -1;
    for (let k = 1; k <= this.count; k++) {
      const i = (this.next - k + n) % n;
      oldest = i;
      if (now - this.times[i] >= windowMs) return i;
    }
    return oldest;
  }

  rates(now: number, v: InOut): Rates {
    const per = (windowMs: number, which: 'in' | 'out'): number => {
      const i = this.base(now, windowMs);
      if (i < 0 || now <= this.times[i]) return 0;
      const then = which === 'in' ? this.ins[i] : this.outs[i];
      return Math.max(0, Math.round((((v[which] - then) * 1000) / (now - this.times[i])) * 10) / 10);
    };
    return { in1s: per(WINDOW_1S, 'in'), in1m: per(WINDOW_1M, 'in'), out1s: per(WINDOW_1S, 'out'), out1m: per(WINDOW_1M, 'out') };
  }

  /** When the counters last moved: since the last sample counts as now. */
  lastMoved(now: number, v: InOut): number | undefined {
    if (this.count === 0) return v.in !== 0 || v.out !== 0 ? now : undefined;
    const prev = (this.next - 1 + this.times.length) % this.times.length;
    return this.ins[prev] !== v.in || this.outs[prev] !== v.out ? now : this.lastChangeAt;
  }
}

/** Samples named counters every `sampleMs` (unref'd timer) and answers their rates. */
export class FlowMeter {
  private readonly series = new Map<string, Series>();
  private readonly size: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly read: () => ReadonlyMap<string, InOut>,
    readonly sampleMs = 1000,
  ) {
    this.size = Math.ceil(WINDOW_1M / sampleMs) + 2;
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.sample();
    this.timer = setInterval(() => this.sample(), this.sampleMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  sample(now = Date.now()): void {
    for (const [key, v] of this.read()) {
      let s = this.series.get(key);
      if (s === undefined) this.series.set(key, (s = new Series(this.size)));
      s.record(now, v);
    }
  }

  rates(key: string, current: InOut, now = Date.now()): Rates {
    return this.series.get(key)?.rates(now, current) ?? ZERO_RATES;
  }

  /** Epoch ms when the counters of `key` last moved, to within one sample interval; undefined if never. */
  lastMovedAt(key: string, current: InOut, now = Date.now()): number | undefined {
    return this.series.get(key)?.lastMoved(now, current);
  }
}
