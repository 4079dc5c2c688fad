/**
 * A JMS component stopped while its connection to ActiveMQ is still being opened closes that connection once it
 * comes up (the Reconnector's discard): left open, it would keep `xroute run` alive after its flow stopped. A
 * TcpProxy of this test holds the connect until after the stop.
 */
import { JMS_PERSISTER } from '../../actors/persisters/jms-persister';
import { JMS_RECEIVER } from '../../actors/receivers/jms-receiver';
import { AnyComponentDefinition } from '../../src/runtime/component';
import { waitFor } from '../support/component-harness';
import { TcpProxy } from '../support/tcp-proxy';
import { ACTIVEMQ, Kit, unique } from './activemq-kit';

jest.setTimeout(60_000);

const kit = new Kit();
let proxy: TcpProxy | undefined;

afterEach(async () => {
  await kit.cleanup();
  await proxy?.close();
  proxy = undefined;
});

/** Starts `def` through a cut proxy, stops it while its connect is held there, then lets the connect through. */
async function stopWhileConnecting(def: AnyComponentDefinition, config: Record<string, string>): Promise<TcpProxy> {
  const p = await TcpProxy.start({ host: ACTIVEMQ.host, port: ACTIVEMQ.port });
  proxy = p;
  p.cut(); // a connection accepted now waits at the proxy: the component's connect is in flight
  const { h } = kit.start(def, { ...config, URI: `amqp://127.0.0.1:${p.port}` });
  await waitFor(() => p.heldBytes > 0, `${config.Name} connecting (its protocol header held at the proxy)`);
  await kit.stop(h);
  p.resume();
  await waitFor(() => p.relayed === 1, 'the held connection relayed to the broker');
  return p;
}

it('JMSReceiver closes a connection that comes up after it was stopped while connecting', async () => {
  const p = await stopWhileConnecting(JMS_RECEIVER, { Name: 'late-rcvr', QueueName: unique('xroute.late'), Mode: 'daemon' });
  await waitFor(() => p.open === 0, 'the connection opened after the stop to be closed');
  expect({ relayed: p.relayed, open: p.open }).toEqual({ relayed: 1, open: 0 });
});

it('JMSPersister closes a connection that comes up after it was stopped while connecting', async () => {
  const p = await stopWhileConnecting(JMS_PERSISTER, { Name: 'late-pstr', QueueName: unique('xroute.late') });
  await waitFor(() => p.open === 0, 'the connection opened after the stop to be closed');
  expect({ relayed: p.relayed, open: p.open }).toEqual({ relayed: 1, open: 0 });
});
