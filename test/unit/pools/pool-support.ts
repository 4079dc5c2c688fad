/** Runs a pool as an actor with a real input XQueue and a PoolClient talking to it. */
import { Harness, runComponent, waitFor } from '../../support/component-harness';
import { AnyComponentDefinition, ComponentConfig, ComponentRegistry } from '../../../src/runtime/component';
import { DEFAULT_POLICY, SupervisionPolicy } from '../../../src/runtime/supervision-policy';
import { Message } from '../../../src/message/message';
import { XQueue } from '../../../src/xqueue/xqueue';
import { PERSISTER_POOL } from '../../../actors/pools/persister-pool';
import { RECEIVER_POOL } from '../../../actors/pools/receiver-pool';
import { STREAM_PERSISTER } from '../../../actors/persisters/stream-persister';
import { FILE_PERSISTER } from '../../../actors/persisters/file-persister';
import { STREAM_RECEIVER } from '../../../actors/receivers/stream-receiver';
import { PoolClient } from '../../../actors/pools/pool-client';
import { TcpPeer, startTcpPeer } from './peers';

export const FAST_POLICY: SupervisionPolicy = { ...DEFAULT_POLICY, backoff: { minMs: 10, maxMs: 50 } };

// A generous ReceiveTime: on a loaded machine 512 children may wait over the default 1 s for an echo,
// and a reply timeout reconnects (a second connection would break the one-connection-per-child count).
export const REQUEST_QUERY = 'Operation=request&ReceiveTime=30000';

export interface RunningPool {
  harness: Harness;
  input: XQueue<Message>;
  client: PoolClient;
  active(): number;
  stop(): Promise<void>;
}

export function startPool(kind: 'persister' | 'receiver', config: Record<string, unknown>, extra: AnyComponentDefinition[] = [], capacity = 64): RunningPool {
  const input = new XQueue<Message>('pool', capacity);
  const def = kind === 'persister' ? PERSISTER_POOL : RECEIVER_POOL;
  const registry = new ComponentRegistry([PERSISTER_POOL, RECEIVER_POOL, STREAM_PERSISTER, FILE_PERSISTER, STREAM_RECEIVER, ...extra]);
  const harness = runComponent(def, { config: { Name: 'pool', ...config } as ComponentConfig, input, registry, policy: FAST_POLICY });
  return {
    harness,
    input,
    client: new PoolClient(input),
    active: () => harness.status.get().counters.active ?? 0,
    stop: () => harness.stop(),
  };
}

/** Puts a text message into a persister's transmit queue and resolves with it once the persister removed it. */
export function send(q: XQueue<Message>, text: string): Promise<Message> {
  return new Promise((resolve, reject) => {
    q.put(Message.text(text), (m) => resolve(m)).catch(reject);
  });
}

/** Takes `n` messages a receiver wrote into its transmit queue (removing each). */
export async function drain(q: XQueue<Message>, n: number, timeoutMs = 5000): Promise<Message[]> {
  const out: Message[] = [];
  const consumer = q.attach('test', () => undefined);
  try {
    await waitFor(
      () => {
        for (let t = q.take(consumer); t; t = q.take(consumer)) {
          out.push(t.item);
          q.remove(t);
        }
        return out.length >= n;
      },
      `${n} messages in ${q.name}`,
      timeoutMs,
    );
  } finally {
    q.detach(consumer);
  }
  return out;
}

export { waitFor };

/** Per test of the calling file: a fresh TCP peer before it, and after it the pool the test put in `pool` stopped. */
export function peerAndPoolPerTest(): { peer: TcpPeer; pool: RunningPool | undefined } {
  const fixture: { peer: TcpPeer; pool: RunningPool | undefined } = { peer: undefined as unknown as TcpPeer, pool: undefined };
  beforeEach(async () => {
    fixture.peer = await startTcpPeer();
  });
  afterEach(async () => {
    await fixture.pool?.stop();
    fixture.pool = undefined;
    await fixture.peer.close();
  });
  return fixture;
}
