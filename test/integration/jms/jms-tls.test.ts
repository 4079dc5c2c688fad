/**
 * The JMS components over amqps:// (AMQP 1.0) against the real RabbitMQ, through an in-process TLS proxy
 * (test/support/tls-proxy.ts) in front of the private RabbitMQ node with the AMQP 1.0 plugin (see amqp10-test-client.ts). The test certificate
 * is for "localhost" only, so 127.0.0.1 does not match it.
 */
import { JMS_PERSISTER } from '../../../actors/persisters/jms-persister';
import { JMS_PUBLISHER } from '../../../actors/persisters/jms-publisher';
import { JMS_RECEIVER } from '../../../actors/receivers/jms-receiver';
import { JMS_SUBSCRIBER } from '../../../actors/receivers/jms-subscriber';
import { Message } from '../../../src/message/message';
import { AnyComponentDefinition, ComponentConfig } from '../../../src/runtime/component';
import { DEFAULT_POLICY } from '../../../src/runtime/supervision-policy';
import { XQueue } from '../../../src/xqueue/xqueue';
import { Drain, RABBIT, deleteQueue, drain } from '../../support/amqp10-test-client';
import { Harness, runComponent, waitFor } from '../../support/component-harness';
import { TestCertificates, TlsProxy, generateCertificates } from '../../support/tls-proxy';
import { attached, feed, unique } from './jms-queue-kit';

jest.setTimeout(60_000);

let certs: TestCertificates;
let proxy: TlsProxy;
let clientCertProxy: TlsProxy;
const running: Harness[] = [];
const drains: Drain[] = [];
const queues: string[] = [];

beforeAll(async () => {
  certs = generateCertificates();
  // In front of the private node with the AMQP 1.0 plugin (the system broker on 5672 has no AMQP 1.0).
  const target = { host: RABBIT.host, port: RABBIT.port };
  proxy = await TlsProxy.start(certs, { target });
  clientCertProxy = await TlsProxy.start(certs, { requireClientCertificate: true, target });
});
afterEach(async () => {
  for (const d of drains.splice(0)) d.detach();
  await Promise.all(running.splice(0).map((h) => h.stop()));
  for (const q of queues.splice(0)) await deleteQueue(q);
});
afterAll(async () => {
  await proxy?.close();
  await clientCertProxy?.close();
  certs?.cleanup();
});

/** Starts a component with the certificates' directory as baseDir, so CAFile "ca.pem" is relative. A failure stops it (no restart loop). */
function start(def: AnyComponentDefinition, config: ComponentConfig): { h: Harness; q: XQueue<Message> } {
  const q = new XQueue<Message>(`q-${String(config.Name)}`, 16);
  const role = def.role === 'receiver' ? { output: q } : { input: q };
  const h = runComponent(def, {
    config: { Username: 'guest', Password: 'guest', ...config },
    ...role,
    baseDir: certs.dir,
    policy: { ...DEFAULT_POLICY, strategy: 'stop' },
  });
  running.push(h);
  return { h, q };
}

function collect(out: XQueue<Message>): Drain {
  const d = drain(out);
  drains.push(d);
  return d;
}

function queueName(prefix: string): string {
  const q = unique(prefix);
  queues.push(q);
  return q;
}

async function failed(h: Harness): Promise<{ detail: string; gaveUp: string[] }> {
  await waitFor(() => h.status.status === 'FAILED', `${h.env.name} FAILED (status ${JSON.stringify(h.status.get())})`, 15_000);
  const gaveUp = h.logs
    .filter((l) => l.message === 'cannot connect: fast retrying cannot cure this; trying again on the slow schedule')
    .map((l) => String(l.meta?.component));
  return { detail: h.status.get().detail ?? '', gaveUp };
}

describe('JMS components over amqps:// with the test CA', () => {
  it('moves a message from JMSPersister through a queue to JMSReceiver through TLS', async () => {
    const queue = queueName('tls');
    const uri = `amqps://localhost:${proxy.port}`;
    const before = proxy.accepted;
    const p = start(JMS_PERSISTER, { Name: 'put-tls', URI: uri, CAFile: 'ca.pem', QueueName: queue });
    const r = start(JMS_RECEIVER, { Name: 'get-tls', URI: uri, CAFile: 'ca.pem', QueueName: queue, Mode: 'daemon' });
    const got = collect(r.q);
    const f = feed(p.q, [Message.text('jms over tls', { colour: 'red' })]);
    await waitFor(() => got.received.length === 1, 'the message through TLS');
    await f.settled;
    expect({
      body: got.received[0].bodyText(),
      colour: got.received[0].properties.get('colour'),
      outcomes: f.outcomes,
      // each component's AMQP 1.0 connection, plus the RabbitMQ dialect's AMQP 0-9-1 queue declaration
      bothThroughTls: proxy.accepted - before >= 2,
    }).toEqual({ body: 'jms over tls', colour: 'red', outcomes: ['done'], bothThroughTls: true });
  });

  it('delivers what JMSPublisher publishes to a topic to JMSSubscriber, both through TLS', async () => {
    const topic = unique('tls-topic');
    const uri = `amqps://localhost:${proxy.port}`;
    const sub = start(JMS_SUBSCRIBER, { Name: 'sub-tls', URI: uri, CAFile: 'ca.pem', TopicName: topic, Mode: 'daemon' });
    const got = collect(sub.q);
    await attached(sub.h, 'subscribed');
    const pub = start(JMS_PUBLISHER, { Name: 'pub-tls', URI: uri, CAFile: 'ca.pem', TopicName: topic });
    await feed(pub.q, [Message.text('t1'), Message.text('t2')]).done;
    await waitFor(() => got.received.length === 2, 'both messages');
    expect(got.received.map((m) => m.bodyText())).toEqual(['t1', 't2']);
  });

  it('connects to 127.0.0.1 with ServerName "localhost" (the name in the certificate)', async () => {
    const queue = queueName('tls-sni');
    const uri = `amqps://127.0.0.1:${proxy.port}`;
    const p = start(JMS_PERSISTER, { Name: 'put-sni', URI: uri, CAFile: 'ca.pem', ServerName: 'localhost', QueueName: queue });
    const r = start(JMS_RECEIVER, { Name: 'get-sni', URI: uri, CAFile: 'ca.pem', ServerName: 'localhost', QueueName: queue, Mode: 'daemon' });
    const got = collect(r.q);
    await feed(p.q, [Message.text('by ip')]).done;
    await waitFor(() => got.received.length === 1, 'the message');
    expect(got.received[0].bodyText()).toBe('by ip');
  });

  it('presents a client certificate whose key is protected by KeyPassphrase, without logging the passphrase', async () => {
    const queue = queueName('tls-client');
    const tls = {
      URI: `amqps://localhost:${clientCertProxy.port}`,
      CAFile: 'ca.pem',
      CertFile: 'client.pem',
      KeyFile: 'client.key',
      KeyPassphrase: certs.clientKeyPassphrase,
    };
    const p = start(JMS_PERSISTER, { Name: 'put-mtls', ...tls, QueueName: queue });
    const r = start(JMS_RECEIVER, { Name: 'get-mtls', ...tls, QueueName: queue, Mode: 'daemon' });
    const got = collect(r.q);
    await feed(p.q, [Message.text('mutual tls')]).done;
    await waitFor(() => got.received.length === 1, 'the message');
    const logged = JSON.stringify([p.h.logs, r.h.logs]);
    expect({ body: got.received[0].bodyText(), passphraseLogged: logged.includes(certs.clientKeyPassphrase) }).toEqual({
      body: 'mutual tls',
      passphraseLogged: false,
    });
  });
});

describe('JMS over amqps:// that cannot work: FAILED with the reason, not retried', () => {
  it.each([
    ['JMSSubscriber', JMS_SUBSCRIBER, { TopicName: 'never-reached', Mode: 'daemon' }],
    ['JMSPersister', JMS_PERSISTER, { QueueName: 'never-reached' }],
  ] as const)('%s without CAFile reports that the broker certificate is not trusted', async (kind, def, extra) => {
    const { h } = start(def, { Name: `${kind}-untrusted`, URI: `amqps://localhost:${proxy.port}`, ...extra });
    const r = await failed(h);
    expect(r).toEqual({
      detail: expect.stringMatching(
        /^cannot connect to amqps:\/\/localhost:\d+: the broker's TLS certificate is not trusted: unable to verify the first certificate \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\); name the CA that signed it in CAFile/,
      ),
      gaveUp: [`${kind}-untrusted`],
    });
  });

  it('reports that the certificate does not match 127.0.0.1 when no ServerName is given', async () => {
    const { h } = start(JMS_PERSISTER, { Name: 'put-mismatch', URI: `amqps://127.0.0.1:${proxy.port}`, CAFile: 'ca.pem', QueueName: 'never-reached' });
    const r = await failed(h);
    expect(r).toEqual({
      detail: expect.stringMatching(/TLS certificate does not match the host name: .*IP: 127\.0\.0\.1 is not in the cert's list.*; .*set ServerName/),
      gaveUp: ['put-mismatch'],
    });
  });

  it('reports a broker that asks for a client certificate when none is configured', async () => {
    const { h } = start(JMS_SUBSCRIBER, {
      Name: 'sub-nocert',
      URI: `amqps://localhost:${clientCertProxy.port}`,
      CAFile: 'ca.pem',
      TopicName: 'never-reached',
      Mode: 'daemon',
    });
    const r = await failed(h);
    expect(r.detail).toMatch(/broker refused the TLS handshake: tlsv13 alert certificate required .*check CertFile\/KeyFile/);
  });
});
