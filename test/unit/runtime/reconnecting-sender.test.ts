import { Message } from '../../../src/message/message';
import { silentLogger } from '../../../src/logging/logger';
import { Reconnector } from '../../../src/runtime/reconnector';
import { CONFIRM_WAIT_MS, ReconnectingSender, SendResult, SenderSession, SenderTransport } from '../../../src/runtime/reconnecting-sender';
import { Outcome, Taken, XQueue } from '../../../src/xqueue/xqueue';
import { VirtualClock } from '../../support/virtual-clock';
import { waitFor } from '../../support/wait';

interface FakeSession extends SenderSession {
  readonly id: number;
  /** Sent and not yet confirmed, in send order. */
  readonly unconfirmed: Taken<Message>[];
  closed: boolean;
}

/** A broker double: sessions open at once (or when `hold` is released), sends are recorded per session. */
class FakeBroker {
  constructor(private readonly clock: VirtualClock) {}

  readonly sessions: FakeSession[] = [];
  readonly sent: string[] = [];
  /** Sessions whose channel is closing: every send on them throws at once. */
  readonly closing = new Set<number>();
  hold?: Promise<void>;

  transport(): SenderTransport<FakeSession, Taken<Message>> {
    return {
      open: async () => {
        await this.hold;
        const s: FakeSession = { id: this.sessions.length + 1, alive: true, unconfirmed: [], closed: false };
        this.sessions.push(s);
        return s;
      },
      reconnector: (connect, onConnected, discard) =>
        new Reconnector({ name: 'sender', connect, onConnected, discard, backoff: { minMs: 1, maxMs: 1, jitter: 0 }, logger: silentLogger, clock: this.clock }),
      attach: () => undefined,
      ready: () => true,
      send: (session, taken): SendResult => {
        if (this.closing.has(session.id)) return 'not-sent';
        session.unconfirmed.push(taken);
        this.sent.push(`${session.id}:${taken.item.bodyText()}`);
        return 'handled';
      },
      unconfirmed: (session) => session.unconfirmed.length,
      takeUnconfirmed: (session) => session.unconfirmed.splice(0),
      reportLost: (session, error, _resent, reconnector) => reconnector?.lost(error, session),
      close: async (session) => {
        session.closed = true;
      },
    };
  }

  /** The broker confirms the oldest send of `session`. */
  confirm(session: FakeSession, sender: ReconnectingSender<FakeSession, Taken<Message>>, outcome: Outcome = 'done'): void {
    const taken = session.unconfirmed.shift();
    if (taken) sender.finish(taken, outcome);
  }
}

/** A sender on a virtual clock: its reconnects and retry delays pass when the test runs the clock. */
function setup() {
  const clock = new VirtualClock();
  const input = new XQueue<Message>('in', 16);
  const handle = input.attach('test', () => undefined);
  const broker = new FakeBroker(clock);
  const outcomes: string[] = [];
  let pokes = 0;
  const sender = new ReconnectingSender<FakeSession, Taken<Message>>({
    transport: broker.transport(),
    input,
    taken: (t) => t,
    poke: () => pokes++,
    timers: { setTimeout: (fn, ms) => clock.set(fn, ms) },
    clock,
  });
  /** Offers and takes messages, as the actor's consumer does. */
  const take = (...texts: string[]): Taken<Message>[] =>
    texts.map((t) => {
      input.offer(Message.text(t), (m, outcome) => outcomes.push(`${m.bodyText()}:${outcome}`));
      return input.take(handle) as Taken<Message>;
    });
  /** Starts the sender and waits for its first session. */
  const connect = async (): Promise<void> => {
    sender.start();
    await waitFor(() => sender.session !== undefined, 'the first session');
  };
  return { input, broker, sender, take, outcomes, pokes: () => pokes, clock, connect };
}

describe('ReconnectingSender', () => {
  it('keeps messages taken before the first session and sends them in order once connected', async () => {
    const { broker, sender, take } = setup();
    let release!: () => void;
    broker.hold = new Promise((r) => (release = r));
    sender.start();
    for (const t of take('a', 'b')) sender.submit(t);
    expect(broker.sent).toEqual([]);
    release();
    await waitFor(() => broker.sent.length === 2, 'two sends');
    expect(broker.sent).toEqual(['1:a', '1:b']);
  });

  it('sends the unconfirmed messages of a lost session first, in their order, on the next session', async () => {
    const { broker, sender, take, clock, connect } = setup();
    await connect();
    const [a, b, c] = take('a', 'b', 'c');
    sender.submit(a);
    sender.submit(b);
    sender.lost(broker.sessions[0], new Error('connection reset'));
    sender.submit(c);
    await clock.runUntil(
      () => broker.sent.length === 5,
      () => `five sends, not ${broker.sent}`,
    );
    expect(broker.sent).toEqual(['1:a', '1:b', '2:a', '2:b', '2:c']);
  });

  it('removes a confirmed message from the input with its outcome, waking the consumer once per burst', async () => {
    const { broker, sender, take, outcomes, pokes, connect } = setup();
    await connect();
    for (const t of take('a', 'b')) sender.submit(t);
    broker.confirm(broker.sessions[0], sender);
    broker.confirm(broker.sessions[0], sender, 'failed');
    await Promise.resolve(); // the consumer is woken in a microtask, once

    expect([outcomes, pokes()]).toEqual([['a:done', 'b:failed'], 1]);
  });

  it('sends a refused message again after the retry delay', async () => {
    const { broker, sender, take, clock, connect } = setup();
    await connect();
    const [a] = take('a');
    sender.retryLater(a, 10);
    expect(sender.idle).toBe(false);
    clock.advance(9);
    expect(broker.sent).toEqual([]);
    clock.advance(1);
    expect(broker.sent).toEqual(['1:a']);
  });

  it('keeps a message a closing session refused at once first in line, in order, for the next session', async () => {
    const { broker, sender, take, clock, connect } = setup();
    await connect();
    const [a, b] = take('a', 'b');
    broker.closing.add(1);
    sender.submit(a);
    sender.submit(b);
    expect(broker.sent).toEqual([]);
    sender.lost(broker.sessions[0], new Error('channel closed'));
    await clock.runUntil(
      () => broker.sent.length === 2,
      () => `two sends, not ${broker.sent}`,
    );
    expect(broker.sent).toEqual(['2:a', '2:b']);
  });

  it('waits for the confirms still due before closing when stopping with drain', async () => {
    const { broker, sender, take, clock, connect } = setup();
    await connect();
    for (const t of take('a')) sender.submit(t);
    const session = broker.sessions[0];
    const stopped = sender.stop(true);
    clock.advance(CONFIRM_WAIT_MS - 100);
    expect(session.closed).toBe(false);
    broker.confirm(session, sender);
    await clock.runUntil(() => session.closed, 'the session to close');
    expect([session.unconfirmed.length, clock.now() < CONFIRM_WAIT_MS]).toEqual([0, true]);
    await stopped;
  });

  it('closes the session anyway when the confirms do not come within the wait', async () => {
    const { broker, sender, take, clock, connect } = setup();
    await connect();
    for (const t of take('a')) sender.submit(t);
    const session = broker.sessions[0];
    const stopped = sender.stop(true);
    clock.advance(CONFIRM_WAIT_MS - 1);
    expect(session.closed).toBe(false);
    clock.advance(100);
    await stopped;
    expect([session.unconfirmed.length, session.closed]).toEqual([1, true]);
  });

  it('closes a session that comes up after stop', async () => {
    const { broker, sender } = setup();
    let release!: () => void;
    broker.hold = new Promise((r) => (release = r));
    sender.start();
    await sender.stop(false);
    release();
    await waitFor(() => broker.sessions.length === 1 && broker.sessions[0].closed, 'the late session to be closed');
    expect(broker.sessions.map((s) => s.closed)).toEqual([true]);
  });

  it('closes a session that comes up after suspend, also when started again meanwhile, and sends on the new one', async () => {
    const { broker, sender, take } = setup();
    let release!: () => void;
    broker.hold = new Promise((r) => (release = r));
    sender.start();
    sender.suspend();
    sender.start();
    for (const t of take('a')) sender.submit(t);
    release();
    await waitFor(() => broker.sessions.length === 2 && broker.sent.length === 1, 'both sessions and a send');
    expect([broker.sessions.map((s) => s.closed), broker.sent]).toEqual([[true, false], ['2:a']]);
  });

  it('disconnects on suspend and connects again on start', async () => {
    const { broker, sender, take, connect } = setup();
    await connect();
    sender.suspend();
    expect([broker.sessions[0].closed, sender.session]).toEqual([true, undefined]);
    sender.start();
    for (const t of take('a')) sender.submit(t);
    await waitFor(() => broker.sent.length === 1, 'a send');
    expect(broker.sent).toEqual(['2:a']);
  });
});
