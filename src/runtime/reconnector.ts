/**
 * Broker reconnection, written once for every transport (AMQP 0-9-1, AMQP 1.0, TCP streams).
 *
 * A connection loss is expected: it is logged once per outage (warn at the start, info when the link is
 * back with the outage's length and attempt count), retried with back-off for as long as it lasts, and
 * visible in the component's status (RETRYING with the last error and next delay). Only an error that
 * retrying cannot cure (isFatal: a wrong password, a missing queue with IsPassive) gives up.
 *
 * Tolerance and MaxRetry keep their original meaning (components.md §2.5), mapped onto back-off:
 *  - Tolerance: the first attempts of an outage are made at the minimum delay (fast re-open);
 *  - MaxRetry: attempts per retry cycle; after them the reconnector stays quiet for `quietMs` (the
 *    original's QuietPeriod x StandbyTime) and starts a new cycle, forever, logging once per cycle.
 *    0 (default) = no cycles: back-off up to its maximum between every attempt.
 */
import { Backoff, BackoffOptions } from './backoff';
import { Logger } from '../logging/logger';
import { StatusReporter } from './component';
import { describe } from './actor';

export interface ReconnectOptions<C> {
  /** Component name, for logs. */
  readonly name: string;
  /** Opens the connection (and channel/link, topology, consumer). Throwing means "try again later". */
  connect(attempt: number): Promise<C>;
  /** Called with every new connection; lost() must be called when it breaks. */
  onConnected?(connection: C, info: { attempts: number; outageMs: number }): void;
  /** Gives up after this error (e.g. a configuration error such as a missing queue with IsPassive). */
  isFatal?(error: unknown): boolean;
  /** Called once when reconnection gives up (a fatal error). */
  onGiveUp?(error: unknown): void;
  readonly backoff: BackoffOptions;
  /** Attempts at the minimum delay at the start of an outage (original Tolerance). Default 0. */
  readonly tolerance?: number;
  /** Attempts per retry cycle before a quiet period; 0 = no cycles (default). Never a reason to give up. */
  readonly maxRetry?: number;
  /** Length of the quiet period between cycles (default 60 000 ms: QuietPeriod 4 x StandbyTime 15 s). */
  readonly quietMs?: number;
  readonly logger: Logger;
  readonly status?: StatusReporter;
  /** Timer functions (an actor's, so that stop clears them). */
  readonly timers?: { setTimeout(fn: () => void, ms: number): unknown; clearTimer(h: unknown): void };
}

export type ReconnectState = 'idle' | 'connecting' | 'connected' | 'retrying' | 'stopped' | 'failed';

export class Reconnector<C> {
  private state: ReconnectState = 'idle';
  private readonly backoff: Backoff;
  private attempts = 0;
  private outageStart = 0;
  private timer: unknown;
  private current: C | undefined;
  private lastError: unknown;
  private generation = 0;

  constructor(private readonly options: ReconnectOptions<C>) {
    this.backoff = new Backoff(options.backoff);
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
    this.outageStart = Date.now();
    void this.attempt();
  }

  /**
   * The connection broke (close/error event). Starts an outage unless one is already running.
   * `cause` 'client-fault': the broker is up but closed our channel over an error of ours (the caller
   * logs and counts it); the link is re-opened at once without reporting an outage.
   */
  lost(error: unknown, connection?: C, cause: 'outage' | 'client-fault' = 'outage'): void {
    if (this.state !== 'connected' || (connection !== undefined && connection !== this.current)) return;
    this.current = undefined;
    this.outageStart = Date.now();
    this.attempts = 0;
    this.backoff.reset();
    if (cause === 'outage') {
      this.lastError = error;
      this.options.logger.warn('connection lost; reconnecting', { component: this.options.name, error: describe(error) });
      this.options.status?.set('RETRYING', `connection lost: ${describe(error)}`);
    }
    this.schedule(0);
  }

  /** Stops retrying; the caller closes the connection. */
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
    if (gen !== this.generation) return; // stopped meanwhile: the caller's stop closes what it opened
    const outageMs = Date.now() - this.outageStart;
    const attempts = this.attempts;
    this.state = 'connected';
    this.current = conn;
    this.attempts = 0;
    this.backoff.reset();
    if (attempts > 1 || this.lastError !== undefined) {
      this.options.logger.info('reconnected', { component: this.options.name, attempts, outageMs });
    }
    this.lastError = undefined;
    this.options.status?.set('RUNNING');
    this.options.onConnected?.(conn, { attempts, outageMs });
  }

  private failed(error: unknown): void {
    const first = this.lastError === undefined;
    this.lastError = error;
    if (this.options.isFatal?.(error)) {
      this.state = 'failed';
      this.options.logger.error('giving up connecting', { component: this.options.name, attempts: this.attempts, error: describe(error) });
      this.options.status?.set('FAILED', describe(error));
      this.options.onGiveUp?.(error);
      return;
    }
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
    if (first) this.options.logger.warn('cannot connect; retrying', { component: this.options.name, error: describe(error), nextAttemptMs: delay });
    else if (endOfCycle) this.options.logger.warn('still cannot connect; quiet until the next retry cycle', { component: this.options.name, attempts: this.attempts, error: describe(error), nextAttemptMs: delay });
    else this.options.logger.debug('connect attempt failed', { component: this.options.name, attempt: this.attempts, error: describe(error), nextAttemptMs: delay });
    this.options.status?.set('RETRYING', `${describe(error)}; attempt ${this.attempts + 1} in ${delay} ms`);
    this.schedule(delay);
  }

  private schedule(delay: number): void {
    this.state = 'retrying';
    this.clearTimer();
    const run = () => {
      this.timer = undefined;
      if (this.state === 'retrying') void this.attempt();
    };
    if (this.options.timers) this.timer = this.options.timers.setTimeout(run, delay);
    else {
      const t = setTimeout(run, delay);
      this.timer = t;
    }
  }

  private clearTimer(): void {
    if (this.timer === undefined) return;
    if (this.options.timers) this.options.timers.clearTimer(this.timer);
    else clearTimeout(this.timer as NodeJS.Timeout);
    this.timer = undefined;
  }
}
