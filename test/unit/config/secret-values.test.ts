import { buildTopology } from '../../../src/config/topology';
import { ConfigError } from '../../../src/config/errors';
import { defaultRegistry } from '../../../actors';
import { redactText, registerConfigSecrets } from '../../../src/logging/redact';

function validateErrors(receiver: Record<string, unknown>): string {
  const topology = {
    Name: 'flow',
    Receiver: ['rcvr'],
    Persister: ['pstr'],
    rcvr: { ClassName: 'org.qbroker.receiver.RMQReceiver', LinkName: 'root', URI: 'amqp://broker/', QueueName: 'q', Username: 'app', ...receiver },
    pstr: { ClassName: 'org.qbroker.persister.RMQPersister', LinkName: 'root', URI: 'amqp://broker/', ExchangeName: 'x' },
  };
  try {
    buildTopology(topology, '/t/flow.json', defaultRegistry());
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  return '';
}

describe('secret values of the wrong JSON type', () => {
  it.each([
    ['a number', 73519284, 'a JSON number'],
    ['an object', { value: 'Object-Secret-9' }, 'a JSON map'],
    ['an array', ['Array-Secret-9'], 'a JSON list'],
    ['a boolean', true, 'a JSON boolean'],
  ])('masks a Password given as %s and says a string was expected', (_label, value, shownType) => {
    const message = validateErrors({ Password: value });
    expect(message).toContain(`Password: *** (${shownType}): expected `);
    expect(message).toMatch(/written as a JSON string$/m);
    expect(message).not.toMatch(/73519284|Object-Secret-9|Array-Secret-9|true/);
  });

  it('masks a KeyPassphrase given as a list', () => {
    const message = validateErrors({ KeyPassphrase: ['Phrase-Secret-9'] });
    expect(message).toMatch(/KeyPassphrase: \*\*\* \(a JSON list\): expected .*, written as a JSON string/);
    expect(message).not.toContain('Phrase-Secret-9');
  });

  it('remembers secrets given as numbers, lists or maps so that an echo of them is masked', () => {
    registerConfigSecrets({ Password: 88112233, Credentials: { inner: ['Nested-Secret-7'] } });
    expect(redactText('peer said 88112233 and Nested-Secret-7')).toBe('peer said *** and ***');
  });
});
