/**
 * The ack logic alone, against a simulated broker: RabbitMQ's view of the unacked deliveries of each
 * channel. Random completion orders, random failures (nack with and without requeue), random flush
 * points and random channel losses; every frame the tracker emits must be one the broker accepts, and
 * every message must end settled exactly once.
 */
import fc from 'fast-check';
import { AckTracker, SettleFrame } from '../../../src/transports/ack-tracker';
import { DeliveryTagOrderError } from '../../../src/transports/amqp091-errors';

type Outcome = 'done' | 'requeue' | 'drop';

/** What a RabbitMQ channel holds and accepts (basic.ack / basic.nack semantics, 406 on an unknown tag). */
class SimulatedChannel {
  /** tag -> message id, for deliveries not yet settled by the client. */
  readonly unacked = new Map<number, number>();
  private nextTag = 1;
  closed = false;

  deliver(messageId: number): number {
    const tag = this.nextTag++;
    this.unacked.set(tag, messageId);
    return tag;
  }

  /** Applies one frame; returns the (tag, message) pairs it settled, or throws what the broker would answer. */
  apply(frame: SettleFrame): { tag: number; messageId: number }[] {
    if (this.closed) throw new Error(`frame ${JSON.stringify(frame)} sent on a closed channel`);
    if (!this.unacked.has(frame.tag)) throw new Error(`406 PRECONDITION_FAILED - unknown delivery tag ${frame.tag}`);
    const tags = frame.kind === 'ack' && frame.multiple ? [...this.unacked.keys()].filter((t) => t <= frame.tag) : [frame.tag];
    return tags.map((tag) => {
      const messageId = this.unacked.get(tag)!;
      this.unacked.delete(tag);
      return { tag, messageId };
    });
  }
}

interface InFlight {
  readonly channel: number;
  readonly tag: number;
  readonly messageId: number;
}

type Op =
  | { readonly kind: 'deliver' }
  | { readonly kind: 'complete'; readonly pick: number; readonly outcome: Outcome }
  | { readonly kind: 'flush' }
  | { readonly kind: 'lose' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Op>({ kind: 'deliver' }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('complete' as const),
      pick: fc.nat(),
      outcome: fc.oneof(
        { weight: 8, arbitrary: fc.constant<Outcome>('done') },
        { weight: 1, arbitrary: fc.constant<Outcome>('requeue') },
        { weight: 1, arbitrary: fc.constant<Outcome>('drop') },
      ),
    }),
  },
  { weight: 2, arbitrary: fc.constant<Op>({ kind: 'flush' }) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: 'lose' }) },
);

/**
 * Runs the receiver side (prefetch-bounded deliveries, outcomes in a random order, a tracker per
 * channel) against the simulated broker and checks every frame. Returns the count of frames sent.
 */
function run(messages: number, prefetch: number, ops: readonly Op[]): { frames: number } {
  const queue: number[] = Array.from({ length: messages }, (_, i) => i);
  const finished = new Map<number, 'acked' | 'dropped'>();
  const attempts = new Map<number, number>();
  let channelNo = 0;
  let broker = new SimulatedChannel();
  let tracker = new AckTracker();
  const oldTrackers: AckTracker[] = [];
  const inFlight: InFlight[] = [];
  /** Outcomes given to the current tracker and not yet seen in a frame: tag -> outcome. */
  let expected = new Map<number, Outcome>();
  let frames = 0;

  const deliver = (): void => {
    if (broker.unacked.size >= prefetch || queue.length === 0) return;
    const messageId = queue.shift()!;
    const tag = broker.deliver(messageId);
    tracker.delivered(tag);
    inFlight.push({ channel: channelNo, tag, messageId });
  };

  const flush = (): void => {
    for (const frame of tracker.flush()) {
      frames++;
      const settled = broker.apply(frame);
      if (frame.kind === 'ack' && frame.multiple) {
        const tags = settled.map((s) => s.tag);
        // A multiple-ack spans consecutive tags only: never an earlier settled one.
        expect(tags).toEqual(Array.from({ length: tags.length }, (_, i) => frame.tag - tags.length + 1 + i));
      }
      for (const { tag, messageId } of settled) {
        const outcome = expected.get(tag);
        // Nothing is settled before it has its outcome, and it is settled the way the outcome says.
        if (outcome === undefined) throw new Error(`tag ${tag} settled by ${JSON.stringify(frame)} before its message finished`);
        expect(frame.kind === 'ack' ? 'done' : frame.requeue ? 'requeue' : 'drop').toBe(outcome);
        expected.delete(tag);
        expect(finished.has(messageId)).toBe(false);
        if (outcome === 'done') finished.set(messageId, 'acked');
        else if (outcome === 'drop') finished.set(messageId, 'dropped');
        else queue.push(messageId);
      }
    }
  };

  const complete = (pick: number, outcome: Outcome): void => {
    if (inFlight.length === 0) return;
    const [d] = inFlight.splice(pick % inFlight.length, 1);
    // A message that failed twice succeeds, so that every run ends.
    const tries = (attempts.get(d.messageId) ?? 0) + 1;
    attempts.set(d.messageId, tries);
    const final: Outcome = tries > 2 ? 'done' : outcome;
    if (d.channel !== channelNo) {
      // A delivery of a lost channel: its tracker refuses it and never emits a frame again.
      const old = oldTrackers[d.channel];
      expect(final === 'done' ? old.done(d.tag) : old.failed(d.tag, final === 'requeue')).toBe(false);
      expect(old.flush()).toEqual([]);
      return;
    }
    const accepted = final === 'done' ? tracker.done(d.tag) : tracker.failed(d.tag, final === 'requeue');
    expect(accepted).toBe(true);
    expected.set(d.tag, final);
    // A second outcome for the same delivery is refused.
    expect(tracker.done(d.tag)).toBe(false);
  };

  const lose = (): void => {
    tracker.lost();
    oldTrackers[channelNo] = tracker;
    // The broker returns every delivery the channel still held to the queue, in tag order.
    for (const messageId of broker.unacked.values()) queue.push(messageId);
    broker.closed = true;
    channelNo++;
    broker = new SimulatedChannel();
    tracker = new AckTracker();
    expected = new Map();
  };

  for (const op of ops) {
    if (op.kind === 'deliver') deliver();
    else if (op.kind === 'complete') complete(op.pick, op.outcome);
    else if (op.kind === 'flush') flush();
    else lose();
  }
  // Drain: deliver and finish everything, in a fixed order.
  for (let guard = 0; finished.size < messages; guard++) {
    if (guard > messages * 20) throw new Error('did not drain');
    while (broker.unacked.size < prefetch && queue.length > 0) deliver();
    while (inFlight.length > 0) complete(0, 'done');
    flush();
  }
  // Every message ended exactly once; the current channel holds nothing unsettled.
  expect(finished.size).toBe(messages);
  expect(broker.unacked.size).toBe(0);
  expect(tracker.unsettledCount).toBe(0);
  return { frames };
}

describe('AckTracker against a simulated RabbitMQ channel', () => {
  it('sends only frames the broker accepts and settles every delivery exactly once, for any completion order, failures and channel losses', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 12 }), fc.array(opArb, { maxLength: 300 }), (messages, prefetch, ops) => {
        run(messages, prefetch, ops);
      }),
      { numRuns: 200 },
    );
  });

  it('coalesces in-order completions into one multiple-ack per flush', () => {
    const t = new AckTracker();
    for (let tag = 1; tag <= 5; tag++) t.delivered(tag);
    for (let tag = 1; tag <= 5; tag++) t.done(tag);
    expect(t.flush()).toEqual([{ kind: 'ack', tag: 5, multiple: true }]);
  });

  it('acks a delivery finished behind one in flight on its own, and never covers it again', () => {
    const t = new AckTracker();
    for (let tag = 1; tag <= 6; tag++) t.delivered(tag);
    t.done(5);
    expect(t.flush()).toEqual([{ kind: 'ack', tag: 5, multiple: false }]);
    for (const tag of [1, 2, 3, 4, 6]) t.done(tag);
    expect(t.flush()).toEqual([
      { kind: 'ack', tag: 4, multiple: true },
      { kind: 'ack', tag: 6, multiple: false },
    ]);
  });

  it('ends a run at a failed delivery and nacks it in order', () => {
    const t = new AckTracker();
    for (let tag = 1; tag <= 4; tag++) t.delivered(tag);
    t.done(1);
    t.failed(2, true);
    t.done(3);
    t.done(4);
    expect(t.flush()).toEqual([
      { kind: 'ack', tag: 1, multiple: false },
      { kind: 'nack', tag: 2, requeue: true },
      { kind: 'ack', tag: 4, multiple: true },
    ]);
  });

  it('refuses a tag out of order (tags count up by one per channel)', () => {
    const t = new AckTracker();
    t.delivered(1);
    expect(() => t.delivered(3)).toThrow(DeliveryTagOrderError);
  });

  it('emits nothing after the channel is lost', () => {
    const t = new AckTracker();
    t.delivered(1);
    t.delivered(2);
    t.done(1);
    expect(t.lost()).toBe(1);
    expect(t.done(2)).toBe(false);
    expect(t.flush()).toEqual([]);
  });
});
