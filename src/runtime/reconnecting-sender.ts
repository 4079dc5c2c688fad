/**
 * The send loop shared by every broker persister (AmqpPersister over AMQP 0-9-1, JMSPersister and
 * JMSPublisher over AMQP 1.0), written once on top of the Reconnector:
 *
 *  - a message leaves the input XQueue only when the broker confirmed it (at least once);
 *  - taken messages wait in `unsent`, oldest first, while there is no usable session;
 *  - when a session dies, every send it had not confirmed goes back to the FRONT of `unsent` and is sent
 *    again, in its original order, on the next session (the broker may have it and lost only the confirm);
 *  - a message the broker refused can be sent again after a delay (`retryLater`);
 *  - stopping waits briefly for the confirms still due, so what the broker has is not sent twice more than
 *    needed, then closes the session;
 *  - the consumer is woken once per burst of confirms, not once per message.
 *
 * What differs per transport (opening a session, wiring its confirm events, sending one message, closing)
 * is the SenderTransport port; the reconnection policy is the transport's own Reconnector.
 */
import { Message } from '../message/message';
import { Outcome, Taken, XQueue } from '../xqueue/xqueue';
import { Reconnector } from './reconnector';
import { Clock, REAL_CLOCK } from './clock';

/** A broker session (connection plus channel or link) as the sender tracks it. */
export interface SenderSession {
  /** False from the moment the session is known dead or closed. */
  alive: boolean;
  /** Why it died, when it died before the sender took it. */
  lostError?: unknown;
}

export type SendResult = 'handled' | 'not-sent';

export interface SenderTransport<S extends SenderSession, P> {
  /** Opens a session (connection, channel or link, topology). Throwing means "try again later". */
  open(): Promise<S>;
  /**
   * The transport's Reconnector around `connect`, calling `onConnected` with each new session and `discard` with
   * one that came up after it was stopped.
   */
  reconnector(connect: () => Promise<S>, onConnected: (session: S) => void, discard: (session: S) => void): Reconnector<S>;
  /** A new session is the current one: wire its confirm and loss events. */
  attach(session: S): void;
  /** Room to send one more now (link credit, a bounded buffer); a later event calls flush() again. */
  ready(session: S): boolean;
  /** Sends one message (or settles it at once, e.g. one that cannot be converted): 'handled'; 'not-sent' when
   * the session refused it at once (it is kept, first in line, for the next session). */
  send(session: S, item: P): SendResult;
  /** Sends of the session still awaiting their confirm. */
  unconfirmed(session: S): number;
  /** Removes and returns the sends a dead session never confirmed, in send order. */
  takeUnconfirmed(session: S): P[];
  /**
   * Reports a lost session (counters, log) and hands it to `reconnector` (undefined once stopped).
   * `resent` is how many unconfirmed sends go out again.
   */
  reportLost(session: S, error: unknown, resent: number, reconnector: Reconnector<S> | undefined): void;
  /** Closes a session the sender no longer uses. */
  close(session: S): Promise<void>;
}

export interface ReconnectingSenderOptions<S extends SenderSession, P> {
  readonly transport: SenderTransport<S, P>;
  readonly input: XQueue<Message>;
  /** The message an item carries. */
  taken(item: P): Taken<Message>;
  /** Wakes the input consumer (after removals, when maxInFlight bounds it). */
  poke(): void;
  /** Timers of the owning actor, so that its stop clears them. */
  readonly timers: { setTimeout(fn: () => void, ms: number): unknown };
  /** The owning actor's clock (ctx.clock): stop's wait for confirms runs on it (default REAL_CLOCK). */
  readonly clock?: Clock;
}

/** How long stop() waits for confirms still due. */
export const CONFIRM_WAIT_MS = 2000;
const CONFIRM_POLL_MS = 20;

export class ReconnectingSender<S extends SenderSession, P> {
  private reconnector?: Reconnector<S>;
  private current?: S;
  /** Items waiting for a (new) session or for room to send, oldest first. */
  private unsent: P[] = [];
  /** Refused items waiting for their retry delay. */
  private delayed = 0;
  private stopping = false;
  private pokeScheduled = false;

  constructor(private readonly o: ReconnectingSenderOptions<S, P>) {}

  /** The session sends go out on, when one is up. */
  get session(): S | undefined {
    return this.current;
  }

  /** Nothing waits to be sent, to be retried or to be confirmed. */
  get idle(): boolean {
    const s = this.current;
    return this.unsent.length === 0 && this.delayed === 0 && (s === undefined || this.o.transport.unconfirmed(s) === 0);
  }

  /** Starts connecting (again, after suspend(); not after stop()). */
  start(): void {
    if (this.stopping) return;
    this.reconnector = this.o.transport.reconnector(
      () => this.o.transport.open(),
      (session) => this.connected(session),
      (session) => this.discard(session),
    );
    this.reconnector.start();
  }

  /** Queues a taken message behind the ones waiting and sends what the session has room for. */
  submit(item: P): void {
    this.unsent.push(item);
    this.flush();
  }

  /** Sends `item` again after `ms` (a refusal by the broker); meanwhile it stays taken. */
  retryLater(item: P, ms: number): void {
    this.delayed++;
    this.o.timers.setTimeout(() => {
      this.delayed--;
      this.submit(item);
    }, ms);
  }

  /** Sends waiting items, oldest first, while the session is usable and has room. */
  flush(): void {
    while (this.unsent.length > 0) {
      const session = this.current;
      if (!session?.alive || this.stopping || !this.o.transport.ready(session)) return;
      const item = this.unsent.shift() as P;
      if (this.o.transport.send(session, item) === 'not-sent') {
        this.unsent.unshift(item); // the session is closing: its loss event re-queues and reconnects
        return;
      }
    }
  }

  /** Removes a message from the input with its outcome; the consumer is woken once per burst. */
  finish(item: P, outcome: Outcome, reason?: string): void {
    this.o.input.remove(this.o.taken(item), outcome, reason);
    if (this.pokeScheduled) return;
    this.pokeScheduled = true;
    queueMicrotask(() => {
      this.pokeScheduled = false;
      this.o.poke();
    });
  }

  /** The session died: its unconfirmed sends go first on the next session. Called by the transport's events. */
  lost(session: S, error: unknown): void {
    if (!session.alive) return;
    session.alive = false;
    session.lostError = error;
    if (this.current === session) this.current = undefined;
    const again = this.o.transport.takeUnconfirmed(session);
    this.unsent = again.concat(this.unsent);
    this.o.transport.reportLost(session, error, again.length, this.stopping ? undefined : this.reconnector);
  }

  /** Disconnects until start() (MaxIdleTime); nothing may be waiting. */
  suspend(): void {
    this.reconnector?.stop();
    this.reconnector = undefined;
    const session = this.current;
    this.current = undefined;
    if (!session) return;
    session.alive = false;
    void this.o.transport.close(session);
  }

  /** Stops for good; with `drain`, waits up to CONFIRM_WAIT_MS for the confirms still due first. */
  async stop(drain: boolean): Promise<void> {
    this.stopping = true;
    this.reconnector?.stop();
    const session = this.current;
    this.current = undefined;
    if (!session?.alive) return;
    if (drain && this.o.transport.unconfirmed(session) > 0) await this.confirmed(session, CONFIRM_WAIT_MS);
    session.alive = false;
    await this.o.transport.close(session);
  }

  /** A session that came up after stop() or suspend(): closed at once. */
  private discard(session: S): void {
    session.alive = false;
    void this.o.transport.close(session).catch(() => undefined);
  }

  private connected(session: S): void {
    if (!session.alive) {
      // Died between opening and now: the Reconnector was still connecting when the loss was reported.
      this.reconnector?.lost(session.lostError ?? new Error('connection lost'), session);
      return;
    }
    this.current = session;
    this.o.transport.attach(session);
    this.flush();
  }

  /** Resolves when every send of `session` is confirmed, the session dies, or after `timeoutMs`. */
  private confirmed(session: S, timeoutMs: number): Promise<void> {
    // The actor's own timers are already cleared when its behaviour stops, so this wait sets its timers on the clock.
    const clock = this.o.clock ?? REAL_CLOCK;
    const deadline = clock.now() + timeoutMs;
    return new Promise<void>((resolve) => {
      const check = () => {
        if (this.o.transport.unconfirmed(session) === 0 || !session.alive || clock.now() >= deadline) resolve();
        else clock.set(check, CONFIRM_POLL_MS);
      };
      check();
    });
  }
}
