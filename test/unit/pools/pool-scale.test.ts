import { Message } from '../../../src/message/message';
import { REQUEST_QUERY, peerAndPoolPerTest, send, startPool } from './pool-support';
import { eventLoopTurns, waitFor } from '../../support/wait';
import { gcFunction } from '../../support/garbage';

jest.setTimeout(60_000);

const t = peerAndPoolPerTest();

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
 * test process outside the t.pool may end meanwhile; that made an exact comparison fail once). Waits up to 3 s
 * because at any one instant a periodic timer may be between two runs; a leak never converges, and 1000
 * leaked children would show as hundreds of handles.
 */
async function expectResourcesBackTo(baseline: Record<string, number>): Promise<void> {
  await waitFor(() => Object.keys(grownSince(baseline)).length === 0, 'active resources back to the baseline', 3000).catch(() => undefined);
  expect(grownSince(baseline)).toEqual({});
}

describe('PersisterPool at scale', () => {
  it('runs 512 concurrent children, each moving its own messages', async () => {
    t.pool = startPool('persister', { MaxNumberPersister: '512', DefaultPoolSize: '512' }, [], 512);
    const p = t.pool;
    const handles = await Promise.all(Array.from({ length: 512 }, () => p.client.request({ URI: `${t.peer.uri}?${REQUEST_QUERY}`, capacity: 4 })));
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
    expect(t.peer.connections).toBe(512);
  });

  it('leaks nothing over 1000 spawned and stopped children (heap and active handles)', async () => {
    const gc = gcFunction();
    t.pool = startPool('persister', { MaxNumberPersister: '128', DefaultPoolSize: '128' }, [], 128);
    const p = t.pool;
    const cycle = async (batches: number) => {
      for (let b = 0; b < batches; b++) {
        const hs = await Promise.all(Array.from({ length: 100 }, () => p.client.request({ URI: `${t.peer.uri}?${REQUEST_QUERY}`, capacity: 2 })));
        await Promise.all(hs.map((h) => send(h.transmit, 'x\n')));
        await Promise.all(hs.map((h, i) => (i % 2 === 0 ? h.release() : (h.stop(), h.closed()))));
      }
    };
    await cycle(2); // warm-up: JIT, pools of buffers
    await waitFor(() => p.active() === 0, 'the warm-up children stopped');
    await eventLoopTurns(); // their sockets' close events
    const resourcesBefore = activeResources();
    const heapBefore = await settledHeap(gc);
    await cycle(10);
    await waitFor(() => p.active() === 0, 'the children stopped');
    await eventLoopTurns();
    const heapAfter = await settledHeap(gc);
    expect(p.active()).toBe(0);
    await expectResourcesBackTo(resourcesBefore);
    expect(heapAfter - heapBefore).toBeLessThan(4 * 1024 * 1024);
  });

  it('keeps a pooled message in order with its siblings while children come and go', async () => {
    t.pool = startPool('persister', {});
    const h = await t.pool.client.request({ URI: `${t.peer.uri}?${REQUEST_QUERY}` });
    const others = await Promise.all(Array.from({ length: 20 }, () => t.pool!.client.request({ URI: 'file://-' })));
    const replies = await Promise.all([0, 1, 2].map((i) => send(h.transmit, `${i}\n`)));
    await Promise.all(others.map((o) => o.release()));
    expect(replies.map((m: Message) => m.bodyText())).toEqual(['echo:0', 'echo:1', 'echo:2']);
  });
});
