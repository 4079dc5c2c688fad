import { Message } from '../../../src/message/message';
import { silentLogger } from '../../../src/logging/logger';
import { Reconnector } from '../../../src/runtime/reconnector';
import { ReconnectingSender, SendResult, SenderSession, SenderTransport } from '../../../src/runtime/reconnecting-sender';
import { Outcome, Taken, XQueue } from '../../../src/xqueue/xqueue';

interface FakeSession extends SenderSession {
  readonly id: number;
  /** Sent and not yet confirmed, in send order. */
  readonly unconfirmed: Taken<Message>[];
  closed: boolean;
}

/** A broker double: sessions open at once (or when `hold` is released), sends are recorded per session. */
class FakeBroker {
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
      reconnector: (connect, onConnected) => new Reconnector({ name: 'sender', connect, onConnected, backoff: { minMs: 1, maxMs: 1, jitter: 0 }, logger: silentLogger }),
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

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

function setup() {
  const input = new XQueue<Message>('in', 16);
  const handle = input.attach('test', () => undefined);
  const broker = new FakeBroker();
  const outcomes: string[] = [];
  let pokes = 0;
  const sender = new ReconnectingSender<FakeSession, Taken<Message>>({
    transport: broker.transport(),
    input,
    taken: (t) => t,
    poke: () => pokes++,
    timers: { setTimeout: (fn, ms) => setTimeout(fn, ms) },
  });
  /** Offers and takes messages, as the actor's consumer does. */
  const take = (...texts: string[]): Taken<Message>[] =>
    texts.map((t) => {
      input.offer(Message.text(t), (m, outcome) => outcomes.push(`${m.bodyText()}:${outcome}`));
      return input.take(handle) as Taken<Message>;
    });
  return { input, broker, sender, take, outcomes, pokes: () => pokes };
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
    await tick();
    expect(broker.sent).toEqual(['1:a', '1:b']);
  });

  it('sends the unconfirmed messages of a lost session first, in their order, on the next session', async () => {
    const { broker, sender, take } = setup();
    sender.start();
    await tick();
    const [a, b, c] = take('a', 'b', 'c');
    sender.submit(a);
    sender.submit(b);
    sender.lost(broker.sessions[0], new Error('connection reset'));
    sender.submit(c);
    await tick();
    expect(broker.sent).toEqual(['1:a', '1:b', '2:a', '2:b', '2:c']);
  });

  it('removes a confirmed message from the input with its outcome, waking the consumer once per burst', async () => {
    const { broker, sender, take, outcomes, pokes } = setup();
    sender.start();
    await tick();
    for (const t of take('a', 'b')) sender.submit(t);
    broker.confirm(broker.sessions[0], sender);
    broker.confirm(broker.sessions[0], sender, 'failed');
    await tick();
    expect([outcomes, pokes()]).toEqual([['a:done', 'b:failed'], 1]);
  });

  it('sends a refused message again after the retry delay', async () => {
    const { broker, sender, take } = setup();
    sender.start();
    await tick();
    const [a] = take('a');
    sender.retryLater(a, 10);
    expect(sender.idle).toBe(false);
    await new Promise((r) => setTimeout(r, 30));
    expect(broker.sent).toEqual(['1:a']);
  });

  it('keeps a message a closing session refused at once first in line, in order, for the next session', async () => {
    const { broker, sender, take } = setup();
    sender.start();
    await tick();
    const [a, b] = take('a', 'b');
    broker.closing.add(1);
    sender.submit(a);
    sender.submit(b);
    expect(broker.sent).toEqual([]);
    sender.lost(broker.sessions[0], new Error('channel closed'));
    await tick();
    expect(broker.sent).toEqual(['2:a', '2:b']);
  });

  it('waits for the confirms still due before closing when stopping with drain', async () => {
    const { broker, sender, take } = setup();
    sender.start();
    await tick();
    for (const t of take('a')) sender.submit(t);
    const session = broker.sessions[0];
    setTimeout(() => broker.confirm(session, sender), 30);
    await sender.stop(true);
    expect([session.unconfirmed.length, session.closed]).toEqual([0, true]);
  });

  it('closes a session that comes up after stop', async () => {
    const { broker, sender } = setup();
    let release!: () => void;
    broker.hold = new Promise((r) => (release = r));
    sender.start();
    await sender.stop(false);
    release();
    await tick();
    expect(broker.sessions.map((s) => s.closed)).toEqual([true]);
  });

  it('disconnects on suspend and connects again on start', async () => {
    const { broker, sender, take } = setup();
    sender.start();
    await tick();
    sender.suspend();
    expect([broker.sessions[0].closed, sender.session]).toEqual([true, undefined]);
    sender.start();
    for (const t of take('a')) sender.submit(t);
    await tick();
    expect(broker.sent).toEqual(['2:a']);
  });
});
