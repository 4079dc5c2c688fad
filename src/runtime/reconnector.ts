/**
 * Broker reconnection, written once for every transport (AMQP 0-9-1, AMQP 1.0, TCP streams).
 *
 * A connection loss is expected: it is logged once per outage (warn at the start, info when the link is
 * back with the outage's length and attempt count), retried with back-off for as long as it lasts, and
 * visible in the component's status (RETRYING with the last error and next delay). The outage's length runs
 * from the last traffic when the connection was declared dead for silence (src/runtime/silence-watch.ts), else
 * from the loss. Every delay has jitter
 * so that many processes do not reconnect in lock-step after a broker restart.
 *
 * An error that fast retrying cannot cure (isFatal: a wrong password, a missing queue with IsPassive, a TLS
 * failure) is not an outage: the status is FAILED with the reason, and the connection is tried again on a
 * slow schedule (`fatalRetryMs`, default 30 s) so that fixing the broker side heals the component without
 * a process restart. It is logged once per change of error, not once per attempt.
 *
 * Tolerance and MaxRetry keep their original meaning (docs/components/amqp.md), mapped onto back-off:
 *  - Tolerance: the first attempts of an outage are made at the minimum delay (fast re-open);
 *  - MaxRetry: attempts per retry cycle; after them the reconnector stays quiet for `quietMs` (the
 *    original's QuietPeriod x StandbyTime) and starts a new cycle, forever, logging once per cycle.
 *    0 (default) = no cycles: back-off up to its maximum between every attempt.
 */
import { Backoff, BackoffOptions, DEFAULT_JITTER } from '../foundation/backoff';
import { Clock, ClockTimer, REAL_CLOCK } from './clock';
import { Logger } from '../logging/logger';
import { StatusReporter } from './component';
import { describe } from './actor';
import { outageStartOf } from './silence-watch';

/** The reconnection settings of a component (back-off, Tolerance, MaxRetry): see ReconnectOptions. */
export interface ReconnectPolicy {
  readonly backoff: BackoffOptions;
  readonly tolerance: number;
  readonly maxRetry: number;
}

/** Timer functions of the owning actor, so that its stop clears them. */
export interface ReconnectTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export interface ReconnectOptions<C> {
  /** Component name, for logs. */
  readonly name: string;
  /** Opens the connection (and channel/link, topology, consumer). Throwing means "try again later". */
  connect(attempt: number): Promise<C>;
  /** Called with every new connection; lost() must be called when it breaks. */
  onConnected?(connection: C, info: { attempts: number; outageMs: number }): void;
  /**
   * Closes a connection whose attempt was still in flight at stop(): it is dropped, not handed to onConnected, so
   * nothing else holds it, and an open connection left behind keeps the process alive after the flow stopped.
   * The one place a late connection is closed: `connect` need not check whether its owner stopped meanwhile.
   * Required, so that a new user cannot forget it: every connection a `connect` returns holds something to close.
   */
  discard(connection: C): void;
  /** Gives up after this error (e.g. a configuration error such as a missing queue with IsPassive). */
  isFatal?(error: unknown): boolean;
  /** Called when a fatal error first moves the connection to the slow retry schedule. */
  onGiveUp?(error: unknown): void;
  /** Delay between attempts after a fatal error (default 30 000 ms). */
  readonly fatalRetryMs?: number;
  readonly backoff: BackoffOptions;
  /** Attempts at the minimum delay at the start of an outage (original Tolerance). Default 0. */
  readonly tolerance?: number;
  /** Attempts per retry cycle before a quiet period; 0 = no cycles (default). Never a reason to give up. */
  readonly maxRetry?: number;
  /** Length of the quiet period between cycles (default 60 000 ms: QuietPeriod 4 x StandbyTime 15 s). */
  readonly quietMs?: number;
  /** What is (re)opened, for the log lines: a broker connection (default) or a file ("cannot open the file"). */
  readonly resource?: 'connection' | 'file';
  readonly logger: Logger;
  readonly status?: StatusReporter;
  /** Timer functions (an actor's, so that stop clears them); without them, the clock's timers. */
  readonly timers?: ReconnectTimers;
  /** Where outage lengths and next-attempt times are read, and the timers without `timers` (default REAL_CLOCK; an actor's is ctx.clock). */
  readonly clock?: Clock;
}

export const DEFAULT_FATAL_RETRY_MS = 30_000;

export type ReconnectState = 'idle' | 'connecting' | 'connected' | 'retrying' | 'stopped' | 'failed';

const WORDS = {
  connection: {
    lost: 'connection lost; reconnecting',
    lostDetail: 'connection lost',
    cannot: 'cannot connect; retrying',
    still: 'still cannot connect; quiet until the next retry cycle',
    attempt: 'connect attempt failed',
    back: 'reconnected',
  },
  file: {
    lost: 'file lost; reopening',
    lostDetail: 'file lost',
    cannot: 'cannot open the file; retrying',
    still: 'still cannot open the file; quiet until the next retry cycle',
    attempt: 'open attempt failed',
    back: 'file reopened',
  },
} as const;

export class Reconnector<C> {
  private state: ReconnectState = 'idle';
  private readonly backoff: Backoff;
  private attempts = 0;
  private outageStart = 0;
  private timer: unknown;
  private current: C | undefined;
  private lastError: unknown;
  private generation = 0;
  private everConnected = false;
  /** The fatal error last logged, so a slow retry that fails the same way stays quiet. */
  private fatalText: string | undefined;

  private readonly words: (typeof WORDS)[keyof typeof WORDS];
  private readonly clock: Clock;

  constructor(private readonly options: ReconnectOptions<C>) {
    this.backoff = new Backoff({ ...options.backoff, jitter: options.backoff.jitter ?? DEFAULT_JITTER });
    this.words = WORDS[options.resource ?? 'connection'];
    this.clock = options.clock ?? REAL_CLOCK;
  }

  get connection(): C | undefined {
    return this.state === 'connected' ? this.current : undefined;
  }

  get status(): ReconnectState {
    return this.state;
  }

  /** The error of the last failed attempt of the current outage, if any. */
  get error(): unknown {
    return this.lastError;
  }

  start(): void {
    if (this.state !== 'idle') return;
    this.outageStart = this.clock.now();
    void this.attempt();
  }

  /**
   * The connection broke (close/error event). Starts an outage unless one is already running.
   * `cause` 'client-fault': the broker is up but closed our channel over an error of ours (the caller
   * logs and counts it); the link is re-opened at once without reporting an outage. A connection declared dead
   * for silence (SilentPeerError) dates its outage from its last traffic.
   */
  lost(error: unknown, connection?: C, cause: 'outage' | 'client-fault' = 'outage'): void {
    if (this.state !== 'connected' || (connection !== undefined && connection !== this.current)) return;
    this.current = undefined;
    this.outageStart = outageStartOf(error, this.clock.now());
    this.attempts = 0;
    this.backoff.reset();
    if (cause === 'outage') {
      this.lastError = error;
      this.options.logger.warn(this.words.lost, { component: this.options.name, error: describe(error) });
      this.options.status?.set('RETRYING', `${this.words.lostDetail}: ${describe(error)}`);
    }
    this.schedule(0);
  }

  /** Stops retrying; the caller closes the connection it was handed, discard the one still being opened. */
  stop(): void {
    this.state = 'stopped';
    this.generation++;
    this.clearTimer();
    this.current = undefined;
  }

  private async attempt(): Promise<void> {
    const gen = ++this.generation;
    this.state = this.attempts === 0 ? 'connecting' : 'retrying';
    this.attempts++;
    let conn: C;
    try {
      conn = await this.options.connect(this.attempts);
    } catch (error) {
      if (gen !== this.generation) return;
      this.failed(error);
      return;
    }
    if (gen !== this.generation) {
      this.options.discard(conn); // stopped meanwhile: the owner's stop did not know of this connection
      return;
    }
    const outageMs = this.clock.now() - this.outageStart;
    const attempts = this.attempts;
    this.state = 'connected';
    this.current = conn;
    this.attempts = 0;
    this.backoff.reset();
    if (attempts > 1 || this.lastError !== undefined) {
      this.options.logger.info(this.words.back, { component: this.options.name, attempts, outageMs });
    }
    if (this.everConnected) this.options.status?.countReconnect();
    this.everConnected = true;
    this.lastError = undefined;
    this.fatalText = undefined;
    this.options.status?.set('RUNNING');
    this.options.onConnected?.(conn, { attempts, outageMs });
  }

  private failed(error: unknown): void {
    const first = this.lastError === undefined;
    this.lastError = error;
    if (this.options.isFatal?.(error)) {
      this.failedFatally(error);
      return;
    }
    this.fatalText = undefined;
    const tolerance = this.options.tolerance ?? 0;
    const maxRetry = this.options.maxRetry ?? 0;
    const beyondTolerance = this.attempts - tolerance;
    const endOfCycle = maxRetry > 0 && beyondTolerance > 0 && beyondTolerance % maxRetry === 0;
    let delay: number;
    if (this.attempts <= tolerance) delay = this.options.backoff.minMs;
    else if (endOfCycle) {
      delay = this.options.quietMs ?? 60_000;
      this.backoff.reset();
    } else delay = this.backoff.next();
    // Once per outage at warn, once per retry cycle at warn; each other attempt only at debug, so an
    // outage cannot flood the log.
    if (first) this.options.logger.warn(this.words.cannot, { component: this.options.name, error: describe(error), nextAttemptMs: delay });
    else if (endOfCycle)
      this.options.logger.warn(this.words.still, { component: this.options.name, attempts: this.attempts, error: describe(error), nextAttemptMs: delay });
    else this.options.logger.debug(this.words.attempt, { component: this.options.name, attempt: this.attempts, error: describe(error), nextAttemptMs: delay });
    this.options.status?.set('RETRYING', `${describe(error)}; attempt ${this.attempts + 1} in ${delay} ms`, this.clock.now() + delay);
    this.schedule(delay);
  }

  private failedFatally(error: unknown): void {
    const text = describe(error);
    const delay = this.options.fatalRetryMs ?? DEFAULT_FATAL_RETRY_MS;
    const first = this.fatalText === undefined;
    if (text !== this.fatalText) {
      this.options.logger.error('cannot connect: fast retrying cannot cure this; trying again on the slow schedule', {
        component: this.options.name,
        attempts: this.attempts,
        error: text,
        nextAttemptMs: delay,
      });
    } else
      this.options.logger.debug('slow retry failed the same way', { component: this.options.name, attempt: this.attempts, error: text, nextAttemptMs: delay });
    this.fatalText = text;
    this.options.status?.set('FAILED', `${text}; retrying every ${Math.round(delay / 1000)} s`, this.clock.now() + delay);
    if (first) this.options.onGiveUp?.(error);
    this.schedule(delay, 'failed');
  }

  private schedule(delay: number, state: ReconnectState = 'retrying'): void {
    this.state = state;
    this.clearTimer();
    const run = () => {
      this.timer = undefined;
      if (this.state === 'retrying' || this.state === 'failed') void this.attempt();
    };
    this.timer = this.options.timers ? this.options.timers.setTimeout(run, delay) : this.clock.set(run, delay);
  }

  private clearTimer(): void {
    if (this.timer === undefined) return;
    if (this.options.timers) this.options.timers.clearTimer(this.timer);
    else this.clock.clear(this.timer as ClockTimer);
    this.timer = undefined;
  }
}
