/**
 * Time windows (`ActiveTime`; docs/evaluator/rules.md, docs/components/job-node.md), shared by the evaluator's
 * time-window rulesets and JobNode's dynamic thresholds. Every method takes the current time
 * explicitly, so callers inject their own clock.
 *
 * One TimeWindows map:
 *   {"TimeWindow": [{"Interval": "H:M:S-H:M:S", "Threshold": "a[,b[,c]]"}, ...],
 *    "StartTime": "yyyy/MM/dd HH:mm:ss zz", "StopTime": "...",
 *    "Month": [1-12], "MonthDay": [1-31], "WeekDay": [0-7, 0 and 7 = Sunday],
 *    "Blackout": ["M/D [H:M:S-H:M:S]", "N [H:M:S-H:M:S]" (N a weekday), "timechange0", "timechange1"]}
 *
 * [QUIRK] kept: time strings are S, M:S or H:M:S, so "08:30" is 8 minutes 30 seconds. Thresholds
 * use the same parser. An interval whose end is not after its start crosses midnight.
 * timechange0 is the day daylight saving time starts (the clock moves forward), timechange1 the day
 * it ends, in the process's local time zone.
 */
import { integerValue } from '../foundation/integer-text';
import { ConfigWhere, RuleConfigError, at, isRecord } from './errors';
import { compileDatePattern } from './java-date';
import { didYouMean } from '../foundation/did-you-mean';

const DAY_SECONDS = 86400;
const KEYS = ['TimeWindow', 'StartTime', 'StopTime', 'Month', 'MonthDay', 'WeekDay', 'Blackout'];
const WINDOW_KEYS = ['Interval', 'Threshold'];
const START_STOP = compileDatePattern('yyyy/MM/dd HH:mm:ss zz');

/** Parses `S`, `M:S` or `H:M:S` (optionally signed) into seconds; undefined when malformed. */
export function parseTimeString(text: string): number | undefined {
  const m = /^\s*([+-]?)(\d+)(?::(\d+))?(?::(\d+))?\s*$/.exec(text);
  if (m === null) return undefined;
  const parts = [m[2], m[3], m[4]].filter((p): p is string => p !== undefined).map(Number);
  let seconds = 0;
  for (const p of parts) seconds = seconds * 60 + p;
  return m[1] === '-' ? -seconds : seconds;
}

interface DayInterval {
  start: number; // seconds since local midnight
  end: number;
}

function parseInterval(text: string, where: ConfigWhere): DayInterval {
  const dash = text.indexOf('-', 1);
  const start = dash < 0 ? undefined : parseTimeString(text.slice(0, dash));
  const end = dash < 0 ? undefined : parseTimeString(text.slice(dash + 1));
  if (start === undefined || end === undefined || start < 0 || end < 0 || start > DAY_SECONDS || end > DAY_SECONDS) {
    throw new RuleConfigError(where, `bad interval ${JSON.stringify(text)}`, 'H:M:S-H:M:S, for example "8:30:00-17:00:00"');
  }
  return { start, end };
}

function inInterval(iv: DayInterval, secondOfDay: number): boolean {
  return iv.end > iv.start ? secondOfDay >= iv.start && secondOfDay < iv.end : secondOfDay >= iv.start || secondOfDay < iv.end;
}

const secondOfDay = (d: Date): number => d.getHours() * 3600 + d.getMinutes() * 60 + d.getSeconds();

interface Window {
  interval: DayInterval;
  /** Threshold numbers (time strings parsed to numbers); may be empty. */
  thresholds: number[];
}

type Blackout =
  | { kind: 'date'; month: number; day: number; interval?: DayInterval }
  | { kind: 'weekday'; weekday: number; interval?: DayInterval }
  | { kind: 'timechange'; forward: boolean };

export interface ActiveWindow {
  /** Position of the window in TimeWindow. */
  readonly index: number;
  readonly thresholds: readonly number[];
  /** Epoch ms at which the current occurrence of the window started. */
  readonly start: number;
}

function numberList(value: unknown, where: ConfigWhere, min: number, max: number): Set<number> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new RuleConfigError(where, 'is not a list', `a list of numbers ${min}-${max}`);
  return new Set(
    value.map((v, k) => {
      const n = integerValue(v);
      if (n === undefined || n < min || n > max)
        throw new RuleConfigError(at(where, `[${k}]`), `${JSON.stringify(v)} is out of range`, `a number ${min}-${max}`);
      return n;
    }),
  );
}

/** The DST change of the local day containing `d`: +1 forward (DST starts), -1 back, 0 none. */
function timeChangeOf(d: Date): number {
  const startOffset = new Date(d.getFullYear(), d.getMonth(), d.getDate(), 0, 0, 0).getTimezoneOffset();
  const endOffset = new Date(d.getFullYear(), d.getMonth(), d.getDate(), 23, 59, 59).getTimezoneOffset();
  return endOffset < startOffset ? 1 : endOffset > startOffset ? -1 : 0;
}

export class TimeWindows {
  private constructor(
    private readonly windows: readonly Window[],
    private readonly startTime: number | undefined,
    private readonly stopTime: number | undefined,
    private readonly months: Set<number> | undefined,
    private readonly monthDays: Set<number> | undefined,
    private readonly weekDays: Set<number> | undefined,
    private readonly blackouts: readonly Blackout[],
  ) {}

  /** The threshold numbers of each window, in TimeWindow order. */
  get windowThresholds(): ReadonlyArray<readonly number[]> {
    return this.windows.map((w) => w.thresholds);
  }

  /** Smallest number of thresholds over all windows: decides age, occurrence or plain mode (docs/evaluator/rules.md). */
  get thresholdCount(): number {
    return Math.min(...this.windows.map((w) => w.thresholds.length));
  }

  static parse(config: unknown, where: ConfigWhere = {}): TimeWindows {
    if (!isRecord(config)) throw new RuleConfigError(where, 'is not a map', 'a map with TimeWindow');
    for (const key of Object.keys(config)) {
      if (!KEYS.includes(key)) throw new RuleConfigError(at(where, key), `unknown key in a time window map${didYouMean(key, KEYS)}`, KEYS.join(', '));
    }
    const list = config.TimeWindow;
    if (!Array.isArray(list) || list.length === 0)
      throw new RuleConfigError(at(where, 'TimeWindow'), 'is missing or empty', 'a list of {"Interval": "H:M:S-H:M:S", "Threshold": "n"}');
    const windows = list.map((w, k): Window => {
      const ww = at(where, `TimeWindow[${k}]`);
      if (!isRecord(w)) throw new RuleConfigError(ww, 'is not a map', 'a map with Interval and Threshold');
      for (const key of Object.keys(w)) {
        if (!WINDOW_KEYS.includes(key))
          throw new RuleConfigError(at(ww, key), `unknown key in a time window${didYouMean(key, WINDOW_KEYS)}`, WINDOW_KEYS.join(', '));
      }
      if (typeof w.Interval !== 'string') throw new RuleConfigError(at(ww, 'Interval'), 'is missing or not a string', 'H:M:S-H:M:S');
      const interval = parseInterval(w.Interval, at(ww, 'Interval'));
      const raw = w.Threshold;
      let thresholds: number[] = [];
      if (raw !== undefined && raw !== null && raw !== '') {
        thresholds = String(raw)
          .split(',')
          .map((t) => {
            const v = parseTimeString(t);
            if (v === undefined)
              throw new RuleConfigError(at(ww, 'Threshold'), `bad threshold ${JSON.stringify(raw)}`, 'numbers or time strings separated by commas');
            return v;
          });
      }
      return { interval, thresholds };
    });
    const time = (key: string): number | undefined => {
      const v = config[key];
      if (v === undefined || v === null) return undefined;
      const t = typeof v === 'string' ? START_STOP.parse(v) : undefined;
      if (t === undefined) throw new RuleConfigError(at(where, key), `bad time ${JSON.stringify(v)}`, 'yyyy/MM/dd HH:mm:ss zz');
      return t;
    };
    const blackouts = (() => {
      const v = config.Blackout;
      if (v === undefined || v === null) return [];
      if (!Array.isArray(v)) throw new RuleConfigError(at(where, 'Blackout'), 'is not a list', 'a list of "M/D [interval]", "N [interval]" or "timechange0"');
      return v.map((b, k): Blackout => parseBlackout(b, at(where, `Blackout[${k}]`)));
    })();
    return new TimeWindows(
      windows,
      time('StartTime'),
      time('StopTime'),
      numberList(config.Month, at(where, 'Month'), 1, 12),
      numberList(config.MonthDay, at(where, 'MonthDay'), 1, 31),
      numberList(config.WeekDay, at(where, 'WeekDay'), 0, 7),
      blackouts,
    );
  }

  /** The first window that contains `now` on an active day, or undefined (blackout, expired, outside). */
  activeWindow(now: Date): ActiveWindow | undefined {
    const t = now.getTime();
    if (this.startTime !== undefined && t < this.startTime) return undefined;
    if (this.stopTime !== undefined && t >= this.stopTime) return undefined;
    if (this.months !== undefined && !this.months.has(now.getMonth() + 1)) return undefined;
    if (this.monthDays !== undefined && !this.monthDays.has(now.getDate())) return undefined;
    if (this.weekDays !== undefined && !this.weekDays.has(now.getDay()) && !(now.getDay() === 0 && this.weekDays.has(7))) return undefined;
    const sod = secondOfDay(now);
    if (this.inBlackout(now, sod)) return undefined;
    for (let index = 0; index < this.windows.length; index++) {
      const w = this.windows[index];
      if (!inInterval(w.interval, sod)) continue;
      const dayShift = w.interval.end <= w.interval.start && sod < w.interval.end ? -1 : 0;
      const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() + dayShift, 0, 0, w.interval.start).getTime();
      return { index, thresholds: w.thresholds, start };
    }
    return undefined;
  }

  /** JobNode's dynamic threshold: the numbers of the first window active now, or undefined. */
  activeThreshold(now: Date): number[] | undefined {
    const w = this.activeWindow(now);
    return w === undefined ? undefined : [...w.thresholds];
  }

  /**
   * The evaluator's check of a sample time against the windows (docs/evaluator/rules.md): 0 (in time) or 1 (late,
   * stale, or blackout). Age mode (2+ thresholds): 0 when now - sample < first threshold seconds.
   * Occurrence mode (one negative threshold -N): 0 when now - sample < N seconds. No threshold: 0 when
   * the sample is at or after the start of the current window. [QUIRK] kept: a single positive
   * threshold never gives 0.
   */
  check(sampleMs: number, nowMs: number): 0 | 1 {
    const w = this.activeWindow(new Date(nowMs));
    if (w === undefined) return 1;
    const count = this.thresholdCount;
    if (count === 0) return sampleMs >= w.start ? 0 : 1;
    const first = w.thresholds[0];
    if (count >= 2) return nowMs - sampleMs < first * 1000 ? 0 : 1;
    if (first < 0) return nowMs - sampleMs < -first * 1000 ? 0 : 1;
    return 1;
  }

  private inBlackout(now: Date, sod: number): boolean {
    for (const b of this.blackouts) {
      if (b.kind === 'timechange') {
        const change = timeChangeOf(now);
        if ((b.forward && change === 1) || (!b.forward && change === -1)) return true;
        continue;
      }
      const dayMatches = b.kind === 'date' ? now.getMonth() + 1 === b.month && now.getDate() === b.day : now.getDay() === b.weekday % 7;
      if (dayMatches && (b.interval === undefined || inInterval(b.interval, sod))) return true;
    }
    return false;
  }
}

function parseBlackout(b: unknown, where: ConfigWhere): Blackout {
  if (typeof b !== 'string') throw new RuleConfigError(where, `${JSON.stringify(b)} is not a string`, '"M/D [interval]", "N [interval]" or "timechange0"');
  const text = b.trim();
  if (text === 'timechange0' || text === 'timechange1') return { kind: 'timechange', forward: text === 'timechange0' };
  const m = /^(?:(\d{1,2})\/(\d{1,2})|(\d))(?:\s+(\S+))?$/.exec(text);
  if (m === null) throw new RuleConfigError(where, `bad blackout ${JSON.stringify(b)}`, '"M/D [H:M:S-H:M:S]", "N [H:M:S-H:M:S]" or "timechange0"');
  const interval = m[4] === undefined ? undefined : parseInterval(m[4], where);
  if (m[3] !== undefined) {
    const weekday = Number(m[3]);
    if (weekday > 7) throw new RuleConfigError(where, `bad weekday in ${JSON.stringify(b)}`, '0-7');
    return { kind: 'weekday', weekday, interval };
  }
  const month = Number(m[1]);
  const day = Number(m[2]);
  if (month < 1 || month > 12 || day < 1 || day > 31) throw new RuleConfigError(where, `bad date in ${JSON.stringify(b)}`, 'M/D');
  return { kind: 'date', month, day, interval };
}

/**
 * An `ActiveTime` value: one TimeWindows map (the evaluator) or a list of them (JobNode). The first
 * map with a window active now decides.
 */
export class ActiveTime {
  private constructor(readonly windows: readonly TimeWindows[]) {}

  static parse(config: unknown, where: ConfigWhere = {}): ActiveTime {
    const list = Array.isArray(config) ? config : [config];
    if (list.length === 0) throw new RuleConfigError(where, 'is empty', 'a time window map or a list of them');
    return new ActiveTime(list.map((c, k) => TimeWindows.parse(c, Array.isArray(config) ? at(where, `[${k}]`) : where)));
  }

  activeWindow(now: Date): ActiveWindow | undefined {
    for (const w of this.windows) {
      const a = w.activeWindow(now);
      if (a !== undefined) return a;
    }
    return undefined;
  }

  /** The threshold numbers of the first window active now, or undefined outside every window. */
  activeThreshold(now: Date): number[] | undefined {
    const a = this.activeWindow(now);
    return a === undefined ? undefined : [...a.thresholds];
  }
}
