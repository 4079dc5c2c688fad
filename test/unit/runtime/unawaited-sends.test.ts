import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { testTopology } from '../../support/flow-harness';
import { DEFAULT_MAX_WAITING_SENDS, Flow } from '../../../src/runtime/flow';
import { Message } from '../../../src/message/message';
import { fakeRegistry } from '../config/fake-components';
import { QueueFullError } from '../../../src/runtime/errors';

const topology = () =>
  testTopology(
    {
      Name: 'flow',
      Capacity: '2',
      Receiver: ['rcvr'],
      Persister: ['pstr'],
      rcvr: { ClassName: 'receiver.IdleReceiver', LinkName: 'root' },
      pstr: { ClassName: 'persister.UpperPersister', LinkName: 'root' },
    },
    fakeRegistry(),
  );

describe('sends waiting for a full link are bounded', () => {
  it('rejects a send at once with QueueFullError when the link is full and maxWaitingSends are waiting', async () => {
    const flow = Flow.start(topology(), { registry: fakeRegistry(), maxWaitingSends: 3 });
    flow.link('root').pause();
    const accepted = Array.from({ length: 3 }, (_, i) => flow.send('root', Message.text(`m${i}`)));
    await expect(flow.send('root', Message.text('one too many'))).rejects.toBeInstanceOf(QueueFullError);
    flow.link('root').resume();
    const results = await Promise.all(accepted);
    expect(results.map((r) => r.message.bodyText())).toEqual(['M0', 'M1', 'M2']);
    await flow.stop();
  });

  it('names the flow, the link and the limit in the error', async () => {
    const flow = Flow.start(topology(), { registry: fakeRegistry(), maxWaitingSends: 0 });
    flow.link('root').pause();
    await expect(flow.send('root', Message.text('c'))).rejects.toThrow('flow flow: link "root" is full and 0 sends are already waiting');
    flow.link('root').resume();
    await flow.stop();
  });

  it('keeps awaited sends paced by the link, never refused', async () => {
    const flow = Flow.start(topology(), { registry: fakeRegistry(), maxWaitingSends: 1 });
    for (let i = 0; i < 300; i++) expect((await flow.send('root', Message.text('x'))).outcome).toBe('done');
    await flow.stop();
  });

  it('documents a default of 10,000 waiting sends per link', () => {
    expect(DEFAULT_MAX_WAITING_SENDS).toBe(10_000);
  });

  it('settles every one of 1M un-awaited sends under 400 MB of RSS (child process, 120 s bound)', async () => {
    const child = join(__dirname, 'fixtures', 'unawaited-sends.ts');
    const register = join(__dirname, '..', '..', 'bench', 'ts-register.js');
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['-r', register, child, '1000000'], { timeout: 120_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
    );
    const r = JSON.parse(out) as { sends: number; done: number; full: number; other: number; peakRssMb: number };
    expect(r.done + r.full).toBe(1_000_000);
    expect(r.other).toBe(0);
    expect(r.done).toBeGreaterThan(0);
    expect(r.peakRssMb).toBeLessThan(400);
  }, 130_000);
});
