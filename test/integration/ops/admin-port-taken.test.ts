/**
 * `xroute run --admin` on a port another process holds, as a user meets it: a real process, a RabbitMQ queue
 * with messages waiting. The endpoint binds before the flow starts, so the run fails with a clear message and
 * exit 1 and not one message is taken from the queue.
 */
import { runXroute, scratchDir, writeFlowFile } from '../../support/xroute-cli';
import net from 'node:net';
import * as path from 'path';
import { Admin, BROKER_URL, uniqueName } from '../amqp/amqp-kit';

it('refuses to start on an admin port in use, naming it, with exit 1 and every queued message left in the queue', async () => {
  const admin = await Admin.open();
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as net.AddressInfo).port;
  try {
    const queue = uniqueName('admin-port');
    await admin.queue(queue);
    for (let i = 0; i < 3; i++) admin.ch.sendToQueue(queue, Buffer.from(`m${i}`));
    await admin.ch.waitForConfirms();
    const dir = scratchDir('xroute-port-');
    const file = writeFlowFile(
      {
        Name: 'port-taken',
        Receiver: ['rcvr'],
        Persister: ['pstr'],
        rcvr: { ClassName: 'org.qbroker.receiver.RMQReceiver', URI: BROKER_URL, QueueName: queue, IsPassive: 'true', LinkName: 'root' },
        pstr: { ClassName: 'org.qbroker.persister.StreamPersister', URI: `file://${path.join(dir, 'out.txt')}`, Operation: 'write', LinkName: 'root' },
      },
      dir,
    );
    const run = await runXroute(['run', file, '--admin', `127.0.0.1:${port}`], { timeout: 30_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cannot start the admin endpoint on 127.0.0.1:${port}: the port is in use by another process`);
    expect((await admin.ch.checkQueue(queue)).messageCount).toBe(3);
  } finally {
    await new Promise<void>((resolve) => taken.close(() => resolve()));
    await admin.cleanup();
  }
}, 60_000);
