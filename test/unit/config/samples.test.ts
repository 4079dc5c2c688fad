/**
 * Every configuration published with the original (test/fixtures/samples, copied from its docs and tests,
 * some malformed as published) either validates or is rejected with problems that name the file, the
 * component, the property and what was expected.
 */
import * as path from 'path';
import { validateFile } from '../../../src/cli/validate-file';
import { ConfigProblem } from '../../../src/config/errors';
import { defaultRegistry } from '../../../actors';

const dir = path.resolve(__dirname, '../../fixtures/samples');
const registry = defaultRegistry();

function check(name: string): { errors: ConfigProblem[]; file: string } {
  const file = path.join(dir, name);
  return { errors: validateFile(file, registry).filter((p) => p.severity === 'error'), file };
}

type Expected = { component: string; property: string; message: RegExp };

// The wmq:// samples validate: the queue manager's host and port give the AMQP endpoint (README, JMS section).
const VALID = [
  'FilePersister.json',
  'PersisterPool.json',
  'ReceiverPool.json',
  'RMQPersister.json',
  'qflow-pstr_stream.json',
  'JMSPersister.json',
  'JMSPublisher.json',
  'JMSReceiver.json',
];

const REJECTED: Record<string, Expected[]> = {
  'RMQReceiver.json': [{ component: '', property: '', message: /invalid JSON at line 22, column 3/ }],
  'MessageEvaluator.json': [{ component: '', property: '', message: /invalid JSON at line 54, column 20/ }],
  'JobNode.json': [
    { component: 'node_job', property: 'Ruleset/0/KeyTemplat', message: /did you mean KeyTemplate\?/ },
    { component: 'node_job', property: 'Ruleset/1/KeyTemplat', message: /did you mean KeyTemplate\?/ },
  ],
  'JMSSubscriber.json': [{ component: 'rcvr_jboss_sub', property: 'URI', message: /scheme "jnp".*JBoss naming.*amqp:\/\/localhost:5672/ }],
  // the original's serial-port properties: one message that says why, not one "unknown property" per property
  'StreamPersister.json': [
    { component: 'pstr_serial', property: 'Device', message: /^serial ports are not supported .*expected a tcp:\/\/host:port or file:\/\/path URI/ },
  ],
  'StreamReceiver.json': [
    { component: 'rcvr_serial', property: 'Device', message: /^serial ports are not supported .*expected a tcp:\/\/host:port or file:\/\/path URI/ },
  ],
  'qflow-rcvr_server.json': [
    {
      component: 'rcvr_tcp',
      property: 'ClassName',
      message: /unknown class "org\.qbroker\.receiver\.ServerReceiver"; known classes: .*receiver\.AmqpReceiver/,
    },
  ],
  'qflow-flow_parser.json': [
    { component: 'rcvr_tcp', property: 'ClassName', message: /unknown class "org\.qbroker\.receiver\.ServerReceiver"/ },
    { component: 'node_parser', property: 'ClassName', message: /unknown class "org\.qbroker\.node\.ParserNode"/ },
    { component: 'node_format', property: 'ClassName', message: /unknown class "org\.qbroker\.node\.FormatNode"/ },
    { component: 'pstr_echo', property: 'Operation', message: /"echo": expected one of "request", "write"/ },
    { component: 'pstr_nohit', property: 'ClassName', message: /unknown class "org\.qbroker\.persister\.LogPersister"/ },
  ],
};

describe('the published samples', () => {
  it.each(VALID)('%s validates', (name) => {
    expect(check(name).errors).toEqual([]);
  });

  it.each(Object.entries(REJECTED))('%s is rejected with precise problems', (name, expected) => {
    const { errors, file } = check(name);
    expect(errors).toHaveLength(expected.length);
    for (const e of expected) {
      expect(errors).toContainEqual(expect.objectContaining({ file, component: e.component, property: e.property, message: expect.stringMatching(e.message) }));
    }
  });
});
