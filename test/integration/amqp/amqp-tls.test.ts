/**
 * AmqpReceiver and AmqpPersister over amqps:// against the real RabbitMQ, through an in-process TLS proxy
 * (test/support/tls-proxy.ts) in front of its plain port: the shared broker's configuration is untouched.
 * The test certificate is for "localhost" only, so 127.0.0.1 does not match it.
 */
import { AMQP_PERSISTER } from '../../../actors/persisters/amqp-persister';
import { AMQP_RECEIVER } from '../../../actors/receivers/amqp-receiver';
import { ComponentConfig } from '../../../src/runtime/component';
import { Message } from '../../../src/message/message';
import { Outcome, XQueue } from '../../../src/xqueue/xqueue';
import { Harness, runComponent, waitFor } from '../../support/component-harness';
import { TestCertificates, TlsProxy, generateCertificates } from '../../support/tls-proxy';
import { Admin, TestConsumer, uniqueName } from './amqp-kit';
import { sleep } from '../../support/wait';

jest.setTimeout(60_000);

let admin: Admin;
let certs: TestCertificates;
let proxy: TlsProxy;
let clientCertProxy: TlsProxy;
const harnesses: Harness[] = [];

beforeAll(async () => {
  certs = generateCertificates();
  proxy = await TlsProxy.start(certs);
  clientCertProxy = await TlsProxy.start(certs, { requireClientCertificate: true });
  admin = await Admin.open();
});
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.stop()));
});
afterAll(async () => {
  await admin?.cleanup();
  await proxy?.close();
  await clientCertProxy?.close();
  certs?.cleanup();
});

const LOGIN = { Username: 'guest', Password: 'guest' };

/** CAFile is relative: it is resolved against the configuration's directory (baseDir = the certificates' dir). */
function receiver(config: Record<string, unknown>): { h: Harness; consumer: TestConsumer } {
  const out = new XQueue<Message>('root', 16);
  const h = runComponent(AMQP_RECEIVER, {
    config: { Name: 'rcvr_tls', ClassName: 'org.qbroker.receiver.RMQReceiver', ...LOGIN, ...config } as ComponentConfig,
    output: out,
    baseDir: certs.dir,
  });
  harnesses.push(h);
  return { h, consumer: new TestConsumer(out, 'done') };
}

function persister(config: Record<string, unknown>): { h: Harness; input: XQueue<Message>; outcomes: Outcome[] } {
  const input = new XQueue<Message>('root', 16);
  const h = runComponent(AMQP_PERSISTER, {
    config: { Name: 'pstr_tls', ClassName: 'org.qbroker.persister.RMQPersister', Operation: 'pub', ...LOGIN, ...config } as ComponentConfig,
    input,
    baseDir: certs.dir,
  });
  harnesses.push(h);
  return { h, input, outcomes: [] };
}

function send(p: { input: XQueue<Message>; outcomes: Outcome[] }, body: string): void {
  if (p.input.offer(Message.text(body), (_m, outcome) => p.outcomes.push(outcome)) < 0) throw new Error('input full');
}

/** Waits for FAILED and checks that no further attempt reaches the proxy (a configuration error is not retried). */
async function failedWithoutRetry(h: Harness, through: TlsProxy): Promise<{ status: string; detail: string; retried: boolean }> {
  await waitFor(() => h.status.get().status === 'FAILED', `FAILED (status ${JSON.stringify(h.status.get())})`, 15_000);
  const attempts = through.connections;
  await sleep(1000);
  return { status: h.status.get().status, detail: h.status.get().detail ?? '', retried: through.connections > attempts };
}

describe('amqps:// with the test CA', () => {
  it('carries a message from AmqpPersister to AmqpReceiver through TLS', async () => {
    const q = await admin.queue(uniqueName('tls'));
    const uri = `amqps://localhost:${proxy.port}/`;
    const before = proxy.accepted;
    const p = persister({ URI: uri, CAFile: 'ca.pem', RoutingKey: q });
    const r = receiver({ URI: uri, CAFile: 'ca.pem', QueueName: q });
    send(p, 'over tls');
    // the receiver may see the message before the persister hears the broker's confirm
    await waitFor(() => r.consumer.seen.length === 1 && p.outcomes.length === 1, 'the message through TLS and its confirm');
    expect({
      body: r.consumer.seen[0].bodyText(),
      outcomes: p.outcomes,
      statuses: [p.h.status.get().status, r.h.status.get().status],
      tlsConnections: proxy.accepted - before,
    }).toEqual({ body: 'over tls', outcomes: ['done'], statuses: ['RUNNING', 'RUNNING'], tlsConnections: 2 });
  });

  it('connects to 127.0.0.1 with ServerName "localhost" (the name in the certificate)', async () => {
    const q = await admin.queue(uniqueName('tls-sni'));
    await admin.publish('', q, ['by ip']);
    const r = receiver({ URI: `amqps://127.0.0.1:${proxy.port}/`, CAFile: 'ca.pem', ServerName: 'localhost', QueueName: q });
    await waitFor(() => r.consumer.seen.length === 1, 'the message');
    expect(r.consumer.seen[0].bodyText()).toBe('by ip');
  });

  it('presents a client certificate whose key is protected by KeyPassphrase, without logging the passphrase', async () => {
    const q = await admin.queue(uniqueName('tls-client'));
    const uri = `amqps://localhost:${clientCertProxy.port}/`;
    const tls = { URI: uri, CAFile: 'ca.pem', CertFile: 'client.pem', KeyFile: 'client.key', KeyPassphrase: certs.clientKeyPassphrase };
    const p = persister({ ...tls, RoutingKey: q });
    const r = receiver({ ...tls, QueueName: q });
    send(p, 'mutual tls');
    await waitFor(() => r.consumer.seen.length === 1, 'the message through mutual TLS');
    const logged = JSON.stringify([p.h.logs, r.h.logs]);
    expect({ body: r.consumer.seen[0].bodyText(), passphraseLogged: logged.includes(certs.clientKeyPassphrase) }).toEqual({
      body: 'mutual tls',
      passphraseLogged: false,
    });
  });
});

describe('amqps:// that cannot work: FAILED with the reason, not retried as an outage', () => {
  it.each([
    ['AmqpReceiver', 'rcvr_tls', () => receiver({ URI: `amqps://localhost:${proxy.port}/`, QueueName: 'never-reached' }).h],
    ['AmqpPersister', 'pstr_tls', () => persister({ URI: `amqps://localhost:${proxy.port}/`, RoutingKey: 'never-reached' }).h],
  ])('%s without CAFile reports that the broker certificate is not trusted', async (_kind, name, start) => {
    const r = await failedWithoutRetry(start(), proxy);
    expect(r).toEqual({ status: 'FAILED', detail: expect.stringContaining(`${name}: connection to amqps://localhost:${proxy.port}/`), retried: false });
    expect(r.detail).toMatch(
      /TLS certificate is not trusted: unable to verify the first certificate \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\); name the CA that signed it in CAFile/,
    );
  });

  it('reports that the certificate does not match 127.0.0.1 when no ServerName is given', async () => {
    const { h } = receiver({ URI: `amqps://127.0.0.1:${proxy.port}/`, CAFile: 'ca.pem', QueueName: 'never-reached' });
    const r = await failedWithoutRetry(h, proxy);
    expect(r).toEqual({ status: 'FAILED', detail: expect.stringContaining('rcvr_tls: connection to amqps://127.0.0.1'), retried: false });
    expect(r.detail).toMatch(
      /TLS certificate does not match the host name: .*IP: 127\.0\.0\.1 is not in the cert's list.*\(ERR_TLS_CERT_ALTNAME_INVALID\); .*set ServerName/,
    );
  });

  it('reports a broker that asks for a client certificate when none is configured', async () => {
    const { h } = persister({ URI: `amqps://localhost:${clientCertProxy.port}/`, CAFile: 'ca.pem', RoutingKey: 'never-reached' });
    const r = await failedWithoutRetry(h, clientCertProxy);
    expect(r).toEqual({ status: 'FAILED', detail: expect.stringContaining('pstr_tls: connection to amqps://localhost'), retried: false });
    expect(r.detail).toMatch(/broker refused the TLS handshake: tlsv13 alert certificate required .*check CertFile\/KeyFile/);
  });

  it('reports amqps:// to the plain AMQP port as a port that does not speak TLS', async () => {
    const { h } = receiver({ URI: 'amqps://localhost:5672/', CAFile: 'ca.pem', QueueName: 'never-reached' });
    await waitFor(() => h.status.get().status === 'FAILED', 'FAILED', 15_000);
    expect(h.status.get().detail).toMatch(/rcvr_tls: .*the port does not speak TLS/);
  });

  it('still connects without the CA when RejectUnauthorized is false (the check is skipped)', async () => {
    const q = await admin.queue(uniqueName('tls-noverify'));
    await admin.publish('', q, ['unverified']);
    const r = receiver({ URI: `amqps://localhost:${proxy.port}/`, RejectUnauthorized: 'false', QueueName: q });
    await waitFor(() => r.consumer.seen.length === 1, 'the message');
    expect(r.consumer.seen[0].bodyText()).toBe('unverified');
  });
});
