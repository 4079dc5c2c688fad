/**
 * Child process of the core bench: a producer outruns a consumer that is 10x slower per message, with a
 * fresh 1 KiB Buffer per message, and reports the peak growth of the memory held: V8 heap used plus buffers
 * (`external`), sampled during the run, above what was held after calibration and a full GC. RSS would not do:
 * pages the calibration's garbage made resident stay resident after GC, and a small backlog reuses them, so a
 * small run reported a growth of 0 (seen in CI).
 *   node core-overload.js xqueue <messages>   bounded: the producer waits for XQueue cells (back pressure)
 *   node core-overload.js nact <messages>     unbounded: plain nact dispatch to a stateful actor (baseline)
 * The producer yields to the event loop every 128 messages, as a socket reader would between chunks.
 */
import { dispatch, spawn, start, stop } from 'nact';
import { ActorRuntime, Behaviour } from '../../src/runtime/actor';
import { XQueue } from '../../src/xqueue/xqueue';

export interface OverloadResult {
  mode: 'xqueue' | 'nact';
  messages: number;
  baselineKb: number;
  peakKb: number;
  ms: number;
  consumerNsPerMessage: number;
  producerNsPerMessage: number;
  maxBacklog: number;
}

interface Msg {
  readonly seq: number;
  readonly body: Buffer;
}

const CAPACITY = 1000;
const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

function makeMessage(seq: number): Msg {
  return { seq, body: Buffer.allocUnsafe(1024).fill(seq & 255) };
}

function spin(ns: number): void {
  const end = performance.now() + ns / 1e6;
  while (performance.now() < end);
}

/** The producer's own cost per message (make it, hand it to a queue with room), in ns. */
function producerCost(): number {
  measureProducer(20_000); // warm-up: the first run measures the JIT, not the producer
  return measureProducer(50_000);
}

function measureProducer(n: number): number {
  const q = new XQueue<Msg>('calibrate', CAPACITY);
  const h = q.attach('calibrate', () => undefined);
  let ms = 0;
  for (let sent = 0; sent < n; sent += CAPACITY) {
    const t0 = performance.now();
    for (let i = 0; i < CAPACITY; i++) q.offer(makeMessage(sent + i));
    ms += performance.now() - t0;
    for (let t = q.take(h); t; t = q.take(h)) q.remove(t); // the consumer's part, not timed
  }
  return (ms * 1e6) / n;
}

function heldKb(): number {
  const { heapUsed, external } = process.memoryUsage();
  return (heapUsed + external) / 1024;
}

/** Most memory held at a sample point, in KiB. */
let peakHeldKb = 0;
function sampleMemory(): void {
  peakHeldKb = Math.max(peakHeldKb, heldKb());
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('core-overload must run with --expose-gc (a baseline with garbage in it is not a baseline)');
  gc();
}

/**
 * What is held once the calibration's garbage is gone. V8 frees the buffers' backing stores on a background thread
 * after a GC, so `external` can stay high for a while after `gc()` (on a loaded machine a baseline 18 MB too high was
 * seen, which the run's own growth then hid). Collects until the figure stops falling.
 */
async function settledHeldKb(): Promise<number> {
  let held = Infinity;
  for (let i = 0; i < 20; i++) {
    collectGarbage();
    await new Promise<void>((r) => setTimeout(r, 20));
    const now = heldKb();
    if (now >= held - 64) return Math.min(now, held);
    held = now;
  }
  return held;
}

async function runXQueue(n: number, consumerNs: number): Promise<{ ms: number; maxBacklog: number }> {
  const runtime = new ActorRuntime('overload');
  const q = new XQueue<Msg>('overload', CAPACITY);
  let received = 0;
  let maxBacklog = 0;
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  runtime.spawn('slow-consumer', (): Behaviour<never> => ({
    start(ctx) {
      ctx.consume(q, (taken, queue) => {
        spin(consumerNs);
        if (taken.item.body[0] !== (taken.item.seq & 255)) throw new Error('corrupt message');
        queue.remove(taken);
        if (++received === n) finish();
      });
    },
  }));
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const msg = makeMessage(i);
    if (q.offer(msg) < 0) await q.put(msg);
    if ((i & 127) === 127) {
      maxBacklog = Math.max(maxBacklog, q.size);
      sampleMemory();
      await yieldToLoop();
    }
  }
  await done;
  const ms = performance.now() - t0;
  await runtime.stop();
  return { ms, maxBacklog };
}

async function runNact(n: number, consumerNs: number): Promise<{ ms: number; maxBacklog: number }> {
  const system = start();
  let handled = 0;
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  const ref = spawn(
    system,
    (count: number, msg: Msg) => {
      spin(consumerNs);
      if (msg.body[0] !== (msg.seq & 255)) throw new Error('corrupt message');
      handled = count + 1;
      if (handled === n) finish();
      return handled;
    },
    'slow-consumer',
    { initialState: 0 },
  );
  let maxBacklog = 0;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    dispatch(ref, makeMessage(i));
    if ((i & 127) === 127) {
      maxBacklog = Math.max(maxBacklog, i + 1 - handled); // dispatched and not yet handled: the mailbox
      sampleMemory();
      await yieldToLoop();
    }
  }
  await done;
  const ms = performance.now() - t0;
  stop(system);
  return { ms, maxBacklog };
}

export async function main(argv: string[]): Promise<OverloadResult> {
  const mode = argv[0] === 'nact' ? 'nact' : 'xqueue';
  const messages = Number(argv[1] ?? 1_000_000);
  if (!Number.isInteger(messages) || messages <= 0) throw new Error(`messages: expected a positive integer, got ${argv[1]}`);
  const producerNsPerMessage = producerCost();
  const consumerNsPerMessage = 10 * producerNsPerMessage;
  const baselineKb = await settledHeldKb();
  peakHeldKb = baselineKb;
  const { ms, maxBacklog } = mode === 'nact' ? await runNact(messages, consumerNsPerMessage) : await runXQueue(messages, consumerNsPerMessage);
  sampleMemory();
  const peakKb = peakHeldKb;
  return { mode, messages, baselineKb, peakKb, ms, consumerNsPerMessage, producerNsPerMessage, maxBacklog };
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (result) => process.stdout.write(JSON.stringify(result) + '\n'),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
