import v8 from 'node:v8';
import vm from 'node:vm';
import { Message } from '../../../src/message/message';
import { PoolHandle } from '../../../actors/pools/pool-handle';
import { RunningPool, send, startPool } from './pool-support';
import { TcpPeer, startTcpPeer } from './peers';
import { waitFor } from '../../support/component-harness';

jest.setTimeout(60_000);

let peer: TcpPeer;
let pool: RunningPool | undefined;

beforeEach(async () => {
  peer = await startTcpPeer();
});

afterEach(async () => {
  await pool?.stop();
  pool = undefined;
  await peer.close();
});

/** The garbage collector, reachable without starting node with --expose-gc. */
function gcFunction(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

async function settledHeap(gc: () => void): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setImmediate(r));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) counts[r] = (counts[r] ?? 0) + 1;
  return counts;
}

/** The resource kinds of which more are active now than in `baseline`, with both counts. */
function grownSince(baseline: Record<string, number>): Record<string, { before: number; now: number }> {
  const grown: Record<string, { before: number; now: number }> = {};
  for (const [kind, now] of Object.entries(activeResources())) if (now > (baseline[kind] ?? 0)) grown[kind] = { before: baseline[kind] ?? 0, now };
  return grown;
}

/**
 * No kind of active handle or timer is above `baseline`. A leak is growth: fewer is not one (a timer of the
 * test process outside the pool may end meanwhile; that made an exact comparison fail once). Waits up to 3 s
 * because at any one instant a periodic timer may be between two runs; a leak never converges, and 1000
 * leaked children would show as hundreds of handles.
 */
async function expectResourcesBackTo(baseline: Record<string, number>): Promise<void> {
  await waitFor(() => Object.keys(grownSince(baseline)).length === 0, 'active resources back to the baseline', 3000).catch(() => undefined);
  expect(grownSince(baseline)).toEqual({});
}

async function medianMs(n: number, op: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await op();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(n / 2)];
}

// A generous ReceiveTime: on a loaded machine 512 children may wait over the default 1 s for an echo,
// and a reply timeout reconnects (a second connection would break the one-connection-per-child count).
const REQUEST_QUERY = 'Operation=request&ReceiveTime=30000';

describe('PersisterPool at scale', () => {
  it('runs 512 concurrent children, each moving its own messages', async () => {
    pool = startPool('persister', { MaxNumberPersister: '512', DefaultPoolSize: '512' }, [], 512);
    const p = pool;
    const handles = await Promise.all(Array.from({ length: 512 }, () => p.client.request({ URI: `${peer.uri}?${REQUEST_QUERY}`, capacity: 4 })));
    expect(p.active()).toBe(512);
    const replies = await Promise.all(
      handles.map(async (h, c) => {
        const got: string[] = [];
        for (let i = 0; i < 4; i++) got.push((await send(h.transmit, `c${c}-${i}\n`)).bodyText() ?? '');
        return got;
      }),
    );
    expect(replies.flat()).toHaveLength(2048);
    expect(replies.every((got, c) => got.join() === [0, 1, 2, 3].map((i) => `echo:c${c}-${i}`).join())).toBe(true);
    expect(peer.connections).toBe(512);
  });

  it('is not slowed by 512 live children: request latency and message round trips stay within 3x of an empty pool', async () => {
    pool = startPool('persister', { MaxNumberPersister: '1000', DefaultPoolSize: '1000' }, [], 64);
    const p = pool;
    const probe = await p.client.request({ URI: `${peer.uri}?${REQUEST_QUERY}` });
    const requestAndRelease = async () => (await p.client.request({ URI: 'file://-' })).release();
    const roundTrip = () => send(probe.transmit, 'x\n');
    await medianMs(50, requestAndRelease); // warm-up
    await medianMs(200, roundTrip);
    const emptyRequest = await medianMs(100, requestAndRelease);
    const emptyTrip = await medianMs(500, roundTrip);
    const live: PoolHandle[] = await Promise.all(Array.from({ length: 512 }, () => p.client.request({ URI: `${peer.uri}?${REQUEST_QUERY}`, capacity: 2 })));
    expect(p.active()).toBe(513);
    const busyRequest = await medianMs(100, requestAndRelease);
    const busyTrip = await medianMs(500, roundTrip);
    expect(busyRequest).toBeLessThan(3 * emptyRequest + 0.5);
    expect(busyTrip).toBeLessThan(3 * emptyTrip + 0.5);
    await Promise.all(live.map((h) => h.release()));
  });

  it('leaks nothing over 1000 spawned and stopped children (heap and active handles)', async () => {
    const gc = gcFunction();
    pool = startPool('persister', { MaxNumberPersister: '128', DefaultPoolSize: '128' }, [], 128);
    const p = pool;
    const cycle = async (batches: number) => {
      for (let b = 0; b < batches; b++) {
        const hs = await Promise.all(Array.from({ length: 100 }, () => p.client.request({ URI: `${peer.uri}?${REQUEST_QUERY}`, capacity: 2 })));
        await Promise.all(hs.map((h) => send(h.transmit, 'x\n')));
        await Promise.all(hs.map((h, i) => (i % 2 === 0 ? h.release() : (h.stop(), h.closed()))));
      }
    };
    await cycle(2); // warm-up: JIT, pools of buffers
    await new Promise((r) => setTimeout(r, 50));
    const resourcesBefore = activeResources();
    const heapBefore = await settledHeap(gc);
    await cycle(10);
    await new Promise((r) => setTimeout(r, 50));
    const heapAfter = await settledHeap(gc);
    expect(p.active()).toBe(0);
    await expectResourcesBackTo(resourcesBefore);
    expect(heapAfter - heapBefore).toBeLessThan(4 * 1024 * 1024);
  });

  it('keeps a pooled message in order with its siblings while children come and go', async () => {
    pool = startPool('persister', {});
    const h = await pool.client.request({ URI: `${peer.uri}?${REQUEST_QUERY}` });
    const others = await Promise.all(Array.from({ length: 20 }, () => pool!.client.request({ URI: 'file://-' })));
    const replies = await Promise.all([0, 1, 2].map((i) => send(h.transmit, `${i}\n`)));
    await Promise.all(others.map((o) => o.release()));
    expect(replies.map((m: Message) => m.bodyText())).toEqual(['echo:0', 'echo:1', 'echo:2']);
  });
});
