/**
 * TLS without a broker: which handshake failures are configuration errors (FAILED, not retried) on both
 * AMQP sides, the socket options built from the settings, and reading the TLS properties (files against
 * baseDir, key/passphrase checks that never show the passphrase, schema and ineffective-property reports).
 */
import { createPrivateKey } from 'crypto';
import { readFileSync } from 'fs';
import { join } from 'path';
import { ConfigReader, ComponentConfigError } from '../../../actors/support/config-values';
import { readTlsSettings } from '../../../actors/support/tls-config';
import { readJmsConnection } from '../../../actors/support/jms-config';
import { JMS_PERSISTER } from '../../../actors/persisters/jms-persister';
import { JMS_SUBSCRIBER } from '../../../actors/receivers/jms-subscriber';
import { AMQP_RECEIVER } from '../../../actors/receivers/amqp-receiver';
import { validateComponentConfig } from '../../../src/config/validate-component';
import { memoryLogger } from '../../../src/logging/logger';
import { StatusReporter } from '../../../src/runtime/component';
import { DEFAULT_FATAL_RETRY_MS, Reconnector } from '../../../src/runtime/reconnector';
import { isFatalAmqpError } from '../../../src/transports/amqp091-connection';
import { Amqp10TlsError, connectFailure, isFatalAmqp10Error } from '../../../src/transports/amqp10-errors';
import { describeTlsFailure, tlsSocketOptions } from '../../../src/transports/tls';
import { TestCertificates, generateCertificates } from '../../support/tls-proxy';
import { VirtualClock } from '../../support/virtual-clock';
import { waitFor } from '../../support/wait';
import { AmqpStepError } from '../../../src/transports/amqp091-errors';

/** An error as Node's tls module raises it. */
function nodeError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

const UNTRUSTED = nodeError('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate');
const REFUSED = nodeError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5671');

describe('which TLS failures are configuration errors', () => {
  it.each([
    [
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'unable to verify the first certificate',
      /certificate is not trusted: unable to verify the first certificate \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\); name the CA that signed it in CAFile/,
    ],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain', /not trusted/],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate', /not trusted/],
    ['CERT_HAS_EXPIRED', 'certificate has expired', /not valid now: certificate has expired/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames", /does not match the host name: .*set ServerName/],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number', /port does not speak TLS/],
    [
      'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
      '80FC:error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required:rec_layer_s3.c:1601:SSL alert number 116',
      /refused the TLS handshake: tlsv13 alert certificate required \(ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED\); check CertFile\/KeyFile/,
    ],
  ])('%s is explained', (code, message, expected) => {
    expect(describeTlsFailure(nodeError(code, message))).toMatch(expected);
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND'])('%s is an outage, not a TLS configuration error', (code) => {
    expect(describeTlsFailure(nodeError(code, 'x'))).toBeUndefined();
  });

  it('recognises an error from another realm (no instanceof Error), as jest and vm contexts produce', () => {
    expect(describeTlsFailure({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', message: 'unable to verify the first certificate' })).toMatch(/not trusted/);
  });

  it('makes an untrusted certificate a fatal AMQP 0-9-1 step error naming the component, and a refused connection not', () => {
    const tlsStep = new AmqpStepError('rcvr', 'connection to amqps://h:5671/ as user "guest"', UNTRUSTED);
    expect({
      message: tlsStep.message,
      fatal: isFatalAmqpError(tlsStep),
      refusedFatal: isFatalAmqpError(new AmqpStepError('rcvr', 'connection', REFUSED)),
    }).toEqual({
      message: expect.stringMatching(/^rcvr: connection to amqps:\/\/h:5671\/ as user "guest" failed: the broker's TLS certificate is not trusted/),
      fatal: true,
      refusedFatal: false,
    });
  });

  it('makes an untrusted certificate a fatal Amqp10TlsError, and a refused connection a retried Amqp10ConnectError', () => {
    const tls = connectFailure('amqps://h:5671', UNTRUSTED);
    const refused = connectFailure('amqps://h:5671', REFUSED);
    expect({ tls: [tls.name, tls instanceof Amqp10TlsError, isFatalAmqp10Error(tls)], refused: [refused.name, isFatalAmqp10Error(refused)] }).toEqual({
      tls: ['Amqp10TlsError', true, true],
      refused: ['Amqp10ConnectError', false],
    });
  });

  it('leaves the Reconnector FAILED after one attempt with the TLS reason (not RETRYING as for an outage)', async () => {
    const status = new StatusReporter();
    const clock = new VirtualClock();
    let attempts = 0;
    const r = new Reconnector<never>({
      name: 'rcvr',
      connect: async () => {
        attempts++;
        throw new AmqpStepError('rcvr', 'connection to amqps://h:5671/', UNTRUSTED);
      },
      discard: () => undefined,
      isFatal: isFatalAmqpError,
      backoff: { minMs: 1, maxMs: 1 },
      logger: memoryLogger([]),
      status,
      clock,
    });
    r.start();
    await waitFor(() => status.get().status === 'FAILED', 'FAILED');
    clock.advance(DEFAULT_FATAL_RETRY_MS - 1); // an outage would have been retried every 1 ms by now
    r.stop();
    expect({ attempts, status: status.get().status, detail: status.get().detail }).toEqual({
      attempts: 1,
      status: 'FAILED',
      detail: expect.stringContaining('TLS certificate is not trusted'),
    });
  });
});

describe('TLS socket options', () => {
  const ca = Buffer.from('ca');

  it('checks the certificate against a host name, sent as SNI', () => {
    expect(tlsSocketOptions({ ca, rejectUnauthorized: true }, 'broker.example')).toEqual({ ca, servername: 'broker.example', rejectUnauthorized: true });
  });

  it('sends no SNI for an IP address (RFC 6066); Node checks the IP against the certificate', () => {
    expect(tlsSocketOptions({ rejectUnauthorized: true }, '127.0.0.1')).toEqual({ rejectUnauthorized: true });
  });

  it('uses ServerName for SNI and the certificate check when given', () => {
    expect(tlsSocketOptions({ servername: 'localhost', rejectUnauthorized: false }, '127.0.0.1')).toEqual({
      servername: 'localhost',
      rejectUnauthorized: false,
    });
  });
});

describe('reading the TLS properties', () => {
  let certs: TestCertificates;
  beforeAll(() => {
    certs = generateCertificates();
  });
  afterAll(() => certs.cleanup());

  const read = (config: Record<string, string>) => readTlsSettings(new ConfigReader('c', config), certs.dir);
  const problem = (config: Record<string, string>): ComponentConfigError => {
    try {
      read(config);
    } catch (e) {
      return e as ComponentConfigError;
    }
    throw new Error('expected a configuration error');
  };

  it('reads CAFile, CertFile and KeyFile relative to the configuration directory, with the passphrase and ServerName', () => {
    const s = read({ CAFile: 'ca.pem', CertFile: 'client.pem', KeyFile: 'client.key', KeyPassphrase: certs.clientKeyPassphrase, ServerName: 'localhost' });
    expect({
      ca: s.ca?.toString().includes('BEGIN CERTIFICATE'),
      cert: s.cert !== undefined,
      key: s.key !== undefined,
      servername: s.servername,
      verify: s.rejectUnauthorized,
    }).toEqual({ ca: true, cert: true, key: true, servername: 'localhost', verify: true });
  });

  it('verifies the broker certificate unless RejectUnauthorized is "false"', () => {
    expect([read({}).rejectUnauthorized, read({ RejectUnauthorized: 'FALSE' }).rejectUnauthorized]).toEqual([true, false]);
  });

  it('names KeyPassphrase when it does not decrypt KeyFile, without showing it', () => {
    const e = problem({ CertFile: 'client.pem', KeyFile: 'client.key', KeyPassphrase: 'the-wrong-one' });
    expect({ property: e.property, mentionsKey: e.message.includes('"client.key"'), leaks: e.message.includes('the-wrong-one') }).toEqual({
      property: 'KeyPassphrase',
      mentionsKey: true,
      leaks: false,
    });
  });

  it('names KeyPassphrase for a wrong passphrase that decrypts KeyFile to undecodable bytes rather than failing as bad decrypt', () => {
    // About one wrong passphrase in 256 leaves valid-looking CBC padding; search for one (bounded) for this run's key.
    const keyPem = readFileSync(join(certs.dir, 'client.key'));
    let wrong: string | undefined;
    for (let i = 0; i < 5_000 && wrong === undefined; i++) {
      try {
        createPrivateKey({ key: keyPem, format: 'pem', passphrase: `wrong-${i}` });
      } catch (e) {
        if ((e as { code?: string }).code !== 'ERR_OSSL_BAD_DECRYPT') wrong = `wrong-${i}`;
      }
    }
    if (wrong === undefined) throw new Error('no wrong passphrase among 5 000 decrypted client.key to undecodable bytes');
    const e = problem({ CertFile: 'client.pem', KeyFile: 'client.key', KeyPassphrase: wrong });
    expect({ property: e.property, leaks: e.message.includes(wrong) }).toEqual({ property: 'KeyPassphrase', leaks: false });
  });

  it('names KeyPassphrase as missing for an encrypted key without one', () => {
    expect(problem({ CertFile: 'client.pem', KeyFile: 'client.key' }).message).toMatch(
      /^c: KeyPassphrase is missing: expected the passphrase that decrypts KeyFile "client.key"/,
    );
  });

  it('names KeyFile when it does not belong to CertFile', () => {
    const e = problem({ CertFile: 'server.pem', KeyFile: 'client.key', KeyPassphrase: certs.clientKeyPassphrase });
    expect({ property: e.property, message: e.message }).toEqual({ property: 'KeyFile', message: expect.stringContaining('they do not match') });
  });

  it.each([
    [{ CertFile: 'client.pem' }, 'KeyFile'],
    [{ KeyFile: 'server.key' }, 'CertFile'],
    [{ CAFile: 'server.key' }, 'CAFile'],
    [{ CAFile: 'no-such.pem' }, 'CAFile'],
  ])('rejects %j on %s', (config, property) => {
    expect(problem(config).property).toBe(property);
  });

  it('gives an amqps:// JMS endpoint the TLS settings, files resolved against baseDir', () => {
    const c = readJmsConnection(
      new ConfigReader('sub', { URI: 'amqps://localhost:5671', TopicName: 't', CAFile: 'ca.pem', ServerName: 'localhost' }),
      certs.dir,
      'topic',
    );
    expect({
      tls: c.resolved.endpoint.tls,
      ca: c.resolved.endpoint.tlsSettings?.ca !== undefined,
      servername: c.resolved.endpoint.tlsSettings?.servername,
    }).toEqual({ tls: true, ca: true, servername: 'localhost' });
  });

  it('reports TLS properties on a plain amqp:// JMS endpoint as having no effect', () => {
    const c = readJmsConnection(new ConfigReader('sub', { URI: 'amqp://localhost:5672', TopicName: 't', CAFile: 'ca.pem' }), certs.dir, 'topic');
    expect({ tlsSettings: c.resolved.endpoint.tlsSettings, ineffective: c.resolved.ineffective }).toEqual({ tlsSettings: undefined, ineffective: ['CAFile'] });
  });

  it.each([
    ['JMSSubscriber', JMS_SUBSCRIBER, { TopicName: 't' }],
    ['JMSPersister', JMS_PERSISTER, { QueueName: 'q' }],
    ['AmqpReceiver', AMQP_RECEIVER, { QueueName: 'q' }],
  ] as const)('%s accepts every TLS property in its schema and reports a wrong passphrase on KeyPassphrase', (_name, def, extra) => {
    const config = {
      Name: 'c',
      URI: 'amqps://localhost:5671/',
      ...extra,
      CAFile: 'ca.pem',
      CertFile: 'client.pem',
      KeyFile: 'client.key',
      RejectUnauthorized: 'true',
      ServerName: 'localhost',
    };
    expect({
      valid: validateComponentConfig(def, { ...config, KeyPassphrase: certs.clientKeyPassphrase }, certs.dir),
      wrong: validateComponentConfig(def, { ...config, KeyPassphrase: 'nope' }, certs.dir).map((p) => p.property),
    }).toEqual({ valid: [], wrong: ['KeyPassphrase'] });
  });
});
