/**
 * What one side of the latency bench's move path (RabbitMQ -> AmqpReceiver -> AmqpPersister -> RabbitMQ, or the raw
 * amqplib loop on one or two connections; latency-bench.ts) allocates and collects per message, measured apart from
 * the wall clock (issue 32): the side alone in this process carries an open-loop load; v8's GCProfiler reports the
 * heap before and after every collection, so the bytes allocated in the window are the growth between collections
 * summed, and the bytes a scavenge copies are the young objects still alive (what messages in flight keep). Run as
 * its own process, one side at a time:
 *   node --max-semi-space-size=64 dist/test/bench/latency-alloc-bench.js xroute|raw|raw2 [rate] [messages]
 * It prints one JSON line: bytes allocated, scavenge survivors, GC time and CPU time per message.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { ArrivalLog, openLoop, until } from './latency';
import { evaluateTopology, moveTopology, RABBITMQ, rawEvaluator, rawMover, xrouteMover } from './latency-bench';
import type { MoverSide } from './latency-kit';
import { BenchUsageError, runScript } from './script-args';

export interface GcFigures {
  readonly bytesPerMessage: number;
  /** Bytes that survived a scavenge (copied within or promoted out of the young generation), per message. */
  readonly survivedPerMessage: number;
  /** Bytes the old generation grew by between collections (allocated there directly, e.g. hidden classes), per message. */
  readonly oldDirectPerMessage: number;
  readonly gcMs: number;
  readonly scavenges: number;
  readonly markCompacts: number;
}

/** The GCProfiler's entry for one collection, as far as it is read here. */
export interface GcEntry {
  readonly gcType: string;
  /** Microseconds. */
  readonly cost: number;
  readonly beforeGC: { readonly heapStatistics: { readonly usedHeapSize: number }; readonly heapSpaceStatistics: readonly SpaceStats[] };
  readonly afterGC: { readonly heapStatistics: { readonly usedHeapSize: number }; readonly heapSpaceStatistics: readonly SpaceStats[] };
}

interface SpaceStats {
  readonly spaceName: string;
  readonly spaceUsedSize: number;
}

function youngUsed(spaces: readonly SpaceStats[]): number {
  return spaces.filter((s) => s.spaceName === 'new_space').reduce((a, s) => a + s.spaceUsedSize, 0);
}

function oldUsed(spaces: readonly SpaceStats[]): number {
  return spaces.filter((s) => s.spaceName !== 'new_space').reduce((a, s) => a + s.spaceUsedSize, 0);
}

/** Per message, from the GCProfiler's entries of a window whose heap use was `usedAtStart` at its start and `usedAtEnd` at its end. */
export function figures(entries: readonly GcEntry[], usedAtStart: number, usedAtEnd: number, messages: number): GcFigures {
  let allocated = 0;
  let survived = 0;
  let last = usedAtStart;
  let costUs = 0;
  let scavenges = 0;
  let oldDirect = 0;
  let previous: GcEntry | undefined;
  for (const e of entries) {
    if (previous !== undefined) oldDirect += oldUsed(e.beforeGC.heapSpaceStatistics) - oldUsed(previous.afterGC.heapSpaceStatistics);
    previous = e;
    allocated += e.beforeGC.heapStatistics.usedHeapSize - last;
    last = e.afterGC.heapStatistics.usedHeapSize;
    costUs += e.cost;
    if (e.gcType === 'Scavenge') {
      scavenges++;
      survived += youngUsed(e.afterGC.heapSpaceStatistics) + Math.max(0, oldUsed(e.afterGC.heapSpaceStatistics) - oldUsed(e.beforeGC.heapSpaceStatistics));
    }
  }
  allocated += usedAtEnd - last;
  return {
    bytesPerMessage: Math.round(allocated / messages),
    survivedPerMessage: Math.round(survived / messages),
    oldDirectPerMessage: Math.round(oldDirect / messages),
    gcMs: Math.round(costUs) / 1000,
    scavenges,
    markCompacts: entries.filter((e) => e.gcType === 'MarkSweepCompact').length,
  };
}

/**
 * Starts v8's sampling heap profiler (every allocation, also those a collection freed since); the function it
 * returns stops it and gives the profile (a .heapprofile, for Chrome DevTools' Memory tab).
 */
async function startAllocationSampling(): Promise<() => Promise<unknown>> {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r as T))));
  await post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  return async () => {
    const { profile } = await post<{ profile: unknown }>('HeapProfiler.stopSampling');
    session.disconnect();
    return profile;
  };
}

async function measure(side: MoverSide, rate: number, messages: number, profileFile?: string): Promise<GcFigures & { cpuUsPerMessage: number }> {
  const warm = Math.max(1_000, Math.round(messages / 5));
  return RABBITMQ.withQueues(async (q) => {
    const log = new ArrivalLog(warm + messages);
    await q.watch(log);
    const stop = await side.start(q.inQueue, q.outQueue);
    try {
      const carry = async (from: number, count: number) => {
        await openLoop(rate, count, (i, at) => {
          log.sent(from + i, at);
          q.send(from + i);
        });
        await until(
          () => log.arrivals === from + count,
          () => `${side.label}: ${log.arrivals}/${from + count} arrived`,
          120_000,
        );
      };
      await carry(0, warm);
      const sampling = profileFile === undefined ? undefined : await startAllocationSampling();
      const profiler = new GCProfiler();
      const cpu0 = process.cpuUsage();
      profiler.start();
      const usedAtStart = getHeapStatistics().used_heap_size;
      await carry(warm, messages);
      const usedAtEnd = getHeapStatistics().used_heap_size;
      const entries = (profiler.stop()?.statistics ?? []) as unknown as GcEntry[];
      if (sampling !== undefined && profileFile !== undefined) writeFileSync(profileFile, JSON.stringify(await sampling()));
      const cpu = process.cpuUsage(cpu0);
      return { ...figures(entries, usedAtStart, usedAtEnd, messages), cpuUsPerMessage: Math.round((cpu.user + cpu.system) / messages) };
    } finally {
      await stop();
    }
  });
}

const SIDES: Readonly<Record<string, () => MoverSide>> = {
  xroute: () => xrouteMover(moveTopology),
  'xroute-evaluate': () => xrouteMover(evaluateTopology),
  raw: () => rawMover(1),
  raw2: () => rawMover(2),
  'raw-evaluate': () => rawEvaluator(),
};

/** SIDE [RATE] [MESSAGES] from `argv`; anything else is a BenchUsageError. */
export function allocArgs(argv: readonly string[]): { side: string; rate: number; messages: number } {
  const usage = `usage: node dist/test/bench/latency-alloc-bench.js ${Object.keys(SIDES).join('|')} [RATE msg/s, default 2000] [MESSAGES, default 20000]`;
  const [side = '', rate = '2000', messages = '20000', ...rest] = argv;
  if (!(side in SIDES) || rest.length > 0) throw new BenchUsageError(usage);
  const positive = (text: string) => {
    const n = Number(text);
    if (!Number.isSafeInteger(n) || n <= 0) throw new BenchUsageError(`${JSON.stringify(text)} is not a positive integer; ${usage}`);
    return n;
  };
  return { side, rate: positive(rate), messages: positive(messages) };
}

async function main(): Promise<void> {
  let args: ReturnType<typeof allocArgs>;
  try {
    args = allocArgs(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof BenchUsageError)) throw e;
    process.stderr.write(`${e.message}\n`);
    process.exit(2);
  }
  const result = await measure(SIDES[args.side](), args.rate, args.messages, process.env.ALLOC_PROFILE);
  console.log(JSON.stringify({ ...args, ...result }));
}

if (require.main === module) runScript(main);
