import { PassThrough } from 'stream';
import { createLogger, memoryLogger } from '../../../src/logging/logger';
import { knownSecretCount, redact, redactText, registerConfigSecrets } from '../../../src/logging/redact';
import { displayFields } from '../../../src/logging/display';
import { Message } from '../../../src/message/message';
import { defaultRegistry } from '../../../actors';
import { topologySchema } from '../../../src/config/topology-schema';
import { secretPropertyNames } from '../../../src/foundation/secret-properties';
import { resolveReferences } from '../../../src/config/references';
import { resolveEndpoint } from '../../../src/transports/amqp10-endpoint';
import { mkdtempSync, readFileSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// The registered classes declare their secret properties (Credentials, EncryptedPassword, ...).
beforeAll(() => defaultRegistry());

function captureJsonLogs(fn: (log: ReturnType<typeof createLogger>) => void): Promise<string> {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (c) => chunks.push(String(c)));
  const log = createLogger({ json: true, stream, level: 'debug' });
  fn(log);
  return new Promise((resolve) => setImmediate(() => resolve(chunks.join(''))));
}

describe('log redaction', () => {
  it('masks the password in a URI', () => {
    expect(redactText('connect amqp://app:s3cret@broker:5672/vh failed')).toBe('connect amqp://app:***@broker:5672/vh failed');
  });

  it('masks values of secret-looking keys at any depth', () => {
    expect(redact({ config: { Username: 'app', Password: 's3cret', nested: [{ Credentials: 'k' }] } })).toEqual({
      config: { Username: 'app', Password: '***', nested: [{ Credentials: '***' }] },
    });
  });

  it('never writes a password to a JSON log line', async () => {
    const out = await captureJsonLogs((log) => {
      log.error('cannot connect to amqp://app:s3cret-pw@h/', { config: { Password: 's3cret-pw' }, error: new Error('auth amqp://app:s3cret-pw@h/') });
    });
    expect(out).toContain('cannot connect');
    expect(out).not.toContain('s3cret-pw');
  });

  it('masks a configured password wherever it appears once the configuration is registered (e.g. echoed by a peer)', () => {
    registerConfigSecrets({ Name: 'pstr', Password: 'Echo-Pw-1', DestinationProperty: { EncryptedPassword: 'Enc-Pw-2' }, URI: 'tcp://u:Uri-Pw-3@host:1/' });
    expect(redactText('login failed: server said "bad password Echo-Pw-1 / Enc-Pw-2 / Uri-Pw-3"')).toBe(
      'login failed: server said "bad password *** / *** / ***"',
    );
  });

  it('does not mask configured secrets shorter than 4 characters (they would mask ordinary text)', () => {
    registerConfigSecrets({ Password: 'ab' });
    expect(redactText('a tab')).toBe('a tab');
  });

  it('keeps at most 4096 configured secrets, forgetting the oldest, so a long-running pool cannot grow it without bound', () => {
    for (let i = 0; i < 5000; i++) registerConfigSecrets({ Password: `pool-child-pw-${i}` });
    expect(knownSecretCount()).toBe(4096);
    expect(redactText('pool-child-pw-4999')).toBe('***');
    expect(redactText('pool-child-pw-0 ')).toBe('pool-child-pw-0 ');
  });

  it('writes one JSON object per line', async () => {
    const out = await captureJsonLogs((log) => {
      log.info('one', { a: 1 });
      log.warn('two');
    });
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.level, l.message])).toEqual([
      ['info', 'one'],
      ['warn', 'two'],
    ]);
  });

  it('masks secrets in a memory logger used by tests too', () => {
    const log = memoryLogger();
    log.info('x', { Password: 'p' });
    expect(log.entries[0].meta).toEqual({ Password: '***' });
  });
});

describe('what is a secret', () => {
  it('is what the schemas declare: Password, KeyPassphrase, Credentials and the login EncryptedPassword', () => {
    expect([...secretPropertyNames(topologySchema(defaultRegistry()))].sort()).toEqual(['Credentials', 'EncryptedPassword', 'KeyPassphrase', 'Password']);
  });

  it('is not IsPassive: its values stay visible in text and in logged objects', () => {
    registerConfigSecrets({ IsPassive: 'false', QueueName: 'q' });
    const hint = 'IsPassive is true: it must exist already, or set IsPassive "false" to declare it';
    expect(redactText(hint)).toBe(hint);
    expect(redact({ IsPassive: 'true' })).toEqual({ IsPassive: 'true' });
  });

  it('masks a collected password where it stands as a word, not inside a longer name', () => {
    registerConfigSecrets({ Password: 'wrong' });
    expect(redactText('flow wrong-pass: server said "password wrong refused"; wrong_name, wrongly, wrong.')).toBe(
      'flow wrong-pass: server said "password *** refused"; wrong_name, wrongly, ***.',
    );
  });

  it('masks a password of JSON number type in text and as a logged number', () => {
    registerConfigSecrets({ Password: 88112233 });
    expect(redactText('peer said 88112233')).toBe('peer said ***');
    expect(redact({ echoed: 88112233, other: 88112234 })).toEqual({ echoed: '***', other: 88112234 });
  });

  it('masks a password with a quote or a backslash also where an error text quotes it as JSON', () => {
    registerConfigSecrets({ Password: 'pa"ss\\word-9' });
    expect(redactText(`answer: ${JSON.stringify('LOGIN admin pa"ss\\word-9')}`)).toBe('answer: "LOGIN admin ***"');
  });

  it('masks a short password under its own property only', () => {
    registerConfigSecrets({ Password: 'x7' });
    expect(redact({ Password: 'x7', note: 'x7 in text' })).toEqual({ Password: '***', note: 'x7 in text' });
  });

  it('is every value substituted from the environment or a file, whatever the property, and not a default written in the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'xroute-refs-'));
    writeFileSync(join(dir, 'pw.txt'), 'File-Secret-41\n');
    resolveReferences({ ConnectionRequest: ['LOGIN a ${LOGIN_PW}', 'KEY ${file:pw.txt}'], Site: '${SITE:-Default-Site-9}' }, join(dir, 'c.json'), false, {
      env: { LOGIN_PW: 'Env-Secret-41' },
      readFile: (f) => readFileSync(f, 'utf8'),
    });
    expect(redactText('Env-Secret-41 File-Secret-41 Default-Site-9')).toBe('*** *** Default-Site-9');
  });

  it('is the credentials of a jndi.properties file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'xroute-jndi-'));
    writeFileSync(
      join(dir, 'jndi.properties'),
      'java.naming.security.credentials = Jndi-Secret-41\nconnectionfactory.f = amqp://u:Jndi-Uri-Pw-41@broker:5672\ntopic.t = T\n',
    );
    resolveEndpoint('c', { URI: 'jndi.properties', TopicName: 't' }, dir, 'topic');
    expect(redactText('refused Jndi-Secret-41, Jndi-Uri-Pw-41')).toBe('refused ***, ***');
  });
});

describe('DisplayMask', () => {
  const msg = new Message({
    body: { kind: 'text', text: 'hi' },
    properties: { a: '1', b: '2' },
    headers: { JMSMessageID: 'id1', JMSType: 't', JMSPriority: 4 },
  });

  it('shows nothing for mask 0', () => {
    expect(displayFields(msg, 0)).toEqual({});
  });

  it('shows body and message id for bits 1 and 16', () => {
    expect(displayFields(msg, 1 | 16)).toEqual({ body: 'hi', messageId: 'id1' });
  });

  it('shows the named StringProperty properties', () => {
    expect(displayFields(msg, 16, ['b'])).toEqual({ messageId: 'id1', properties: { b: '2' } });
  });

  it('shows every property with bit 64', () => {
    expect(displayFields(msg, 64)).toEqual({ properties: { a: '1', b: '2' } });
  });

  it('turns every bit on for -1', () => {
    expect(displayFields(msg, -1)).toMatchObject({ body: 'hi', messageId: 'id1', type: 't', priority: 4, size: 2 });
  });
});
