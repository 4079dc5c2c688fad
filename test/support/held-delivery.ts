/**
 * The held-delivery run of docs/components/jms-queues.md "One held delivery never stops the receiver", shared
 * by the ActiveMQ and RabbitMQ tests: a started JMS receiver (XAMode 1) gets `total` messages; downstream holds
 * the first one taken (taken from the XQueue, not removed: a persister busy with a long job) until every other
 * has arrived, or `holdLimitMs`. Measures how long the others took, counts every message by body, and reads
 * the receiver's unsettled deliveries while the one is held.
 */
import { Message } from '../../src/message/message';
import { UnsettledDeliveries } from '../../src/runtime/component';
import { Taken, XQueue } from '../../src/xqueue/xqueue';
import { Harness, waitFor } from './component-harness';
import { OutgoingAmqp } from './amqp10-test-client';
import { median } from './median';

interface HeldRun {
  /** Milliseconds from the start of publishing until every message but the held one arrived. */
  readonly othersMs: number;
  /** Messages taken from the XQueue, and how many distinct bodies among them. */
  readonly deliveries: number;
  readonly distinct: number;
  readonly lost: number;
  readonly duplicated: number;
  /** The receiver's unsettled deliveries once the others had arrived, the one still held (hold runs only). */
  readonly whileHeld?: UnsettledDeliveries;
  /** How long the held message had been held when it was let go. */
  readonly heldMs?: number;
}

export interface HeldRunOptions {
  /** Starts the receiver (on a fresh source). */
  readonly start: () => { h: Harness; q: XQueue<Message> };
  /** Sends the messages to the receiver's source (resolves when the broker accepted them all). */
  readonly publish: (messages: readonly OutgoingAmqp[]) => Promise<void>;
  /**
   * A queue: every message is on it before the receiver starts, and the time counts from its subscription (the
   * receive side alone). A topic: published once the receiver subscribed, the time counting from the first send.
   */
  readonly publishFirst: boolean;
  readonly total: number;
  /** Hold the first message taken; false: the run without a held delivery that the held run is compared with. */
  readonly hold: boolean;
  readonly holdLimitMs: number;
}

async function heldDeliveryRun(o: HeldRunOptions): Promise<HeldRun> {
  const messages = Array.from({ length: o.total }, (_, i) => ({ body: `m${i}` }));
  if (o.publishFirst) await o.publish(messages);
  const { h, q } = o.start();
  const seen = new Map<string, number>();
  let deliveries = 0;
  let held: { taken: Taken<Message>; at: number } | undefined;
  const handle = q.attach('held-delivery-test', () => setImmediate(pull));
  function pull(): void {
    for (let t = q.take(handle); t !== undefined; t = q.take(handle)) {
      deliveries++;
      const body = t.item.bodyText() ?? '';
      seen.set(body, (seen.get(body) ?? 0) + 1);
      if (o.hold && held === undefined) held = { taken: t, at: Date.now() };
      else q.remove(t);
    }
  }
  try {
    await waitFor(() => h.logs.some((l) => l.message === 'subscribed'), `${h.env.name} subscribed (status ${JSON.stringify(h.status.get())})`, 15_000);
    const started = Date.now();
    const published = o.publishFirst ? Promise.resolve() : o.publish(messages);
    const others = () => seen.size - (held === undefined ? 0 : 1);
    await waitFor(
      () => others() >= o.total - 1,
      () => `${o.total - 1} messages besides the held one (have ${others()}, unsettled ${JSON.stringify(h.status.unsettled())})`,
      o.holdLimitMs,
    );
    const othersMs = Date.now() - started;
    await published;
    let whileHeld: UnsettledDeliveries | undefined;
    let heldMs: number | undefined;
    if (held !== undefined) {
      whileHeld = h.status.unsettled();
      heldMs = Date.now() - held.at;
      q.remove(held.taken);
      await waitFor(
        () => h.status.unsettled()?.deliveries === 0,
        () => `the held delivery settled (unsettled ${JSON.stringify(h.status.unsettled())})`,
      );
    }
    await waitFor(
      () => seen.size === o.total,
      () => `all ${o.total} messages (have ${seen.size})`,
    );
    const lost = messages.filter((m) => !seen.has(m.body)).length;
    return { othersMs, deliveries, distinct: seen.size, lost, duplicated: deliveries - seen.size, whileHeld, heldMs };
  } finally {
    q.detach(handle);
  }
}

/**
 * 10,000 messages, one of them held until the others arrived, for at most 120 s (the figures of the docs), in
 * `pairs` rounds of a held run and a free one.
 *
 * Why rounds, and a median: one held run against one free run, the held one always first, failed the 2x bound now
 * and then on ActiveMQ (2 runs of 8: held 274-423 ms against free 163-210 ms) with nothing wrong in the receiver.
 * A run takes about 200 ms, so a fixed cost or a stall of the shared machine weighs a lot in one of them:
 * - the run right after the warm-up still warms up (JIT, the broker's too): it took 1.5-4 times as long as the
 *   later ones, and the held run was always that one;
 * - on ActiveMQ the held run has one stall of about 40 ms at its start: the broker sends the first delivery alone
 *   and holds the rest of the credit's messages until the TCP acknowledgement of that one (it does not set
 *   TCP_NODELAY by default), and the receiver, holding that delivery, has nothing to send that would carry it, so
 *   the acknowledgement leaves only at the kernel's delayed-acknowledgement timer. In the free run the first accept
 *   carries it at once. Any frame sent at that point removes the stall (measured); it is a once-per-run cost, not a
 *   slower receiver: after it the others arrive as fast as with nothing held;
 * - a neighbour's burst on the 2 cores lengthens whichever run it falls in.
 * (The actor runtime's fast path plays no part: no actor consumes this XQueue, the test pulls it in setImmediate.)
 * So the rounds alternate which run goes first (neither always inherits the warm-up), and the bound applies to the
 * median of the per-round ratios (test/bench/interleaved.ts compares on a noisy machine the same way). What it
 * specifies is unchanged: the others within twice the time they take with nothing held, and every held run loses
 * nothing, duplicates nothing and shows its held delivery unsettled. JMSReceiver on ActiveMQ, 10 runs at load average
 * 4.4-5.8: single rounds' ratios up to 2.34, the medians of 5 rounds 1.02-1.54.
 */
const HELD_RUN = { total: 10_000, holdLimitMs: 120_000, pairs: 5 };

/** One round: the run with a delivery held and the run without, each on a fresh source. */
export interface HeldPair {
  readonly held: HeldRun;
  readonly free: HeldRun;
}

/**
 * HELD_RUN.pairs rounds of the run with a held delivery and the one without, the held one going first in every
 * other round, each run on a receiver of its own that `start` starts (on a fresh source) and `stop` stops; prints them
 * for the notes.
 */
export async function heldAndFreePairs(
  label: string,
  start: (hold: boolean) => Pick<HeldRunOptions, 'start' | 'publish' | 'publishFirst'>,
  stop: () => Promise<void>,
): Promise<HeldPair[]> {
  const run = async (hold: boolean, total = HELD_RUN.total) => {
    try {
      return await heldDeliveryRun({ ...start(hold), hold, holdLimitMs: HELD_RUN.holdLimitMs, total });
    } finally {
      await stop();
    }
  };
  await run(false, 1000); // warm-up, not measured: the first connection and a cold JIT
  const pairs: HeldPair[] = [];
  for (let round = 0; round < HELD_RUN.pairs; round++) {
    if (round % 2 === 0) {
      const held = await run(true);
      pairs.push({ held, free: await run(false) });
    } else {
      const free = await run(false);
      pairs.push({ held: await run(true), free });
    }
  }
  const times = pairs.map((p) => ({ freeMs: p.free.othersMs, heldMs: p.held.othersMs, ratio: Number(heldRatio(p).toFixed(2)) }));
  console.log(`held delivery, ${label}: ${JSON.stringify({ medianRatio: Number(median(pairs.map(heldRatio)).toFixed(2)), times, held: pairs[0].held })}`);
  return pairs;
}

function heldRatio(p: HeldPair): number {
  return p.held.othersMs / p.free.othersMs;
}

/**
 * What the rounds must show: the others within twice the free time (the median of the rounds' ratios), and in
 * every held run none lost or duplicated, the held one unsettled for about as long as it was held.
 */
export function heldRunVerdict(pairs: readonly HeldPair[]): Record<string, unknown> {
  const held = pairs.map((p) => p.held);
  return {
    withinTwice: median(pairs.map(heldRatio)) <= 2,
    lost: held.map((r) => r.lost),
    duplicated: held.map((r) => r.duplicated),
    distinct: held.map((r) => r.distinct),
    unsettled: held.map((r) => r.whileHeld?.deliveries),
    ageCoversTheHold: held.map((r) => (r.whileHeld?.oldestAgeSeconds ?? 0) * 1000 >= (r.heldMs ?? Infinity) - 1000),
  };
}

const eachRound = <T>(value: T): T[] => Array.from({ length: HELD_RUN.pairs }, () => value);

export const HELD_RUN_PASSES = {
  withinTwice: true,
  lost: eachRound(0),
  duplicated: eachRound(0),
  distinct: eachRound(HELD_RUN.total),
  unsettled: eachRound(1),
  ageCoversTheHold: eachRound(true),
};
