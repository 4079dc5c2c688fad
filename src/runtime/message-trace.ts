/**
 * The per-message trace of `xroute run --trace COMPONENT[,…]` and POST /trace (docs/operations.md "Tracing
 * messages"): one info line per message a traced component finishes, with the message's id, the link, the outcome
 * and the milliseconds it spent there (a node: the outlinks it chose). Lines are bounded per component by a token
 * bucket; the lines dropped are counted and reported in one warning per interval, so a flood of messages cannot
 * flood the log. A component that is not traced costs one field read per hop (its tally's `trace`, undefined).
 */
import { Logger } from '../logging/logger';
import { Message } from '../message/message';
import { Outcome, QueueTracer } from '../xqueue/xqueue';
import { TokenBucket } from './token-bucket';

/** What a traced component's tally holds: the queue's hooks, and the outlinks a node chose. */
export interface ComponentTracer extends QueueTracer {
  /** A node sent `item` to `outlink` (reported in the message's trace line). */
  routed(item: unknown, outlink: string): void;
  /** Logs the count of lines the rate bound dropped, if any. */
  reportDropped(): void;
  /** Ends the trace (reports what was dropped). */
  close(): void;
}

export interface TraceOptions {
  /** Trace lines per second per component (default 50), after a burst of as many. */
  readonly linesPerSecond?: number;
  /** How often the count of dropped lines is reported, when there are any (default 10 s). */
  readonly reportEveryMs?: number;
  /** Milliseconds clock (default performance.now); tests pass virtual time. */
  readonly now?: () => number;
}

const DEFAULT_TRACE_LINES_PER_SECOND = 50;
const DEFAULT_TRACE_REPORT_MS = 10_000;
/** Outlinks kept per message in its trace line (a node that routes one message round a loop of tasks). */
const MAX_OUTLINKS = 8;

let traceIds = 0;
const generatedIds = new WeakMap<object, string>();

/** A message's id for a trace line: its JMSMessageID, else one given on first sight (the same in every component). */
export function traceIdOf(item: unknown): string {
  if (item instanceof Message && item.headers.JMSMessageID !== undefined && item.headers.JMSMessageID !== '') return item.headers.JMSMessageID;
  if (item === null || typeof item !== 'object') return String(item);
  let id = generatedIds.get(item);
  if (id === undefined) generatedIds.set(item, (id = `trace-${++traceIds}`));
  return id;
}

export class ComponentTrace implements ComponentTracer {
  private readonly started = new WeakMap<object, number>();
  private readonly outlinks = new WeakMap<object, string[]>();
  private readonly bucket: TokenBucket;
  private readonly now: () => number;
  private readonly reportTimer: NodeJS.Timeout;
  private dropped = 0;

  constructor(
    readonly component: string,
    private readonly logger: Logger,
    options: TraceOptions = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    const perSecond = options.linesPerSecond ?? DEFAULT_TRACE_LINES_PER_SECOND;
    this.bucket = new TokenBucket(perSecond, perSecond, this.now);
    this.reportTimer = setInterval(() => this.reportDropped(), options.reportEveryMs ?? DEFAULT_TRACE_REPORT_MS);
    this.reportTimer.unref();
  }

  took(_link: string, item: unknown): void {
    this.start(item);
  }

  added(_link: string, item: unknown): void {
    this.start(item);
  }

  finished(link: string, item: unknown, outcome: Outcome, reason?: string): void {
    this.line(link, 'in', item, outcome, reason);
  }

  delivered(link: string, item: unknown, outcome: Outcome, reason?: string): void {
    this.line(link, 'out', item, outcome, reason);
  }

  routed(item: unknown, outlink: string): void {
    if (item === null || typeof item !== 'object') return;
    const list = this.outlinks.get(item);
    if (list === undefined) this.outlinks.set(item, [outlink]);
    else if (list.length < MAX_OUTLINKS) list.push(outlink);
  }

  /** Logs how many lines the rate bound dropped since the last report, if any. */
  reportDropped(): void {
    if (this.dropped === 0) return;
    this.logger.warn('trace lines dropped: more messages than the trace may log per second', {
      component: this.component,
      dropped: this.dropped,
      linesPerSecond: this.bucket.perSecond,
    });
    this.dropped = 0;
  }

  /** Stops the trace: reports what was dropped and ends the timer. */
  close(): void {
    clearInterval(this.reportTimer);
    this.reportDropped();
  }

  private start(item: unknown): void {
    if (item !== null && typeof item === 'object') this.started.set(item, this.now());
  }

  private line(link: string, direction: 'in' | 'out', item: unknown, outcome: Outcome, reason: string | undefined): void {
    const isObject = item !== null && typeof item === 'object';
    const since = isObject ? this.started.get(item) : undefined;
    const outlinks = isObject ? this.outlinks.get(item) : undefined;
    if (isObject) this.outlinks.delete(item);
    if (!this.bucket.take()) {
      this.dropped++;
      return;
    }
    this.logger.info('trace', {
      component: this.component,
      id: traceIdOf(item),
      link,
      // in: taken from its input link; out: added to its output link (a receiver) and finished downstream
      direction,
      outcome,
      ...(since !== undefined ? { ms: Math.round((this.now() - since) * 10) / 10 } : {}),
      ...(outlinks !== undefined ? { outlinks } : {}),
      ...(reason !== undefined ? { reason } : {}),
    });
  }
}
