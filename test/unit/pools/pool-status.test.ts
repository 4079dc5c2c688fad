import { startPool, RunningPool, waitFor } from './pool-support';
import { TcpPeer, startTcpPeer } from './peers';

describe('a pool in the status', () => {
  let peer: TcpPeer;
  let pool: RunningPool | undefined;
  beforeEach(async () => {
    peer = await startTcpPeer();
  });
  afterEach(async () => {
    await pool?.stop();
    await peer.close();
  });

  it('lists its children with their class and state', async () => {
    pool = startPool('persister', {});
    await waitFor(() => pool!.harness.status.status === 'RUNNING', 'the pool to run');
    expect(pool.harness.status.children()).toEqual([]);
    await pool.client.request({ URI: `${peer.uri}?Operation=request` });
    await waitFor(() => pool!.harness.status.children()?.[0]?.status === 'RUNNING', 'the child to run');
    expect(pool.harness.status.children()).toEqual([{ name: expect.any(String), className: expect.stringMatching(/StreamPersister/i), status: 'RUNNING' }]);
  });
});
