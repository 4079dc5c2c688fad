/**
 * `validate` says "valid" only for a topology that can run, and says what is wrong in the user's terms:
 * link cycles, missing input files, values of the wrong JSON type, unknown classes, the original's serial
 * ports, unreadable files and broken JSON, each with the component, the property and what was expected.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { buildTopology } from '../../../src/config/topology';
import { ConfigError, ConfigProblem } from '../../../src/config/errors';
import { validateFile } from '../../../src/cli/validate-file';
import { defaultRegistry } from '../../../actors/index';
import { fakeRegistry } from './fake-components';

const FILE = '/topologies/flow.json';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-validate-'));
const input = path.join(dir, 'in.txt');
fs.writeFileSync(input, 'a\n');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function problemsOf(json: unknown, registry = fakeRegistry()): ConfigProblem[] {
  try {
    return [...buildTopology(json, FILE, registry).warnings];
  } catch (e) {
    if (e instanceof ConfigError) return [...e.problems];
    throw e;
  }
}
const errorsOf = (json: unknown, registry = fakeRegistry()) => problemsOf(json, registry).filter((p) => p.severity === 'error');
const brief = (ps: ConfigProblem[]) => ps.map((p) => ({ component: p.component, property: p.property, message: p.message }));

/** A topology of the real components: a file receiver and a file persister. */
function fileFlow(): Record<string, Record<string, unknown> | unknown> {
  return {
    Name: 'files',
    Receiver: ['rcvr'],
    Persister: ['pstr'],
    rcvr: { ClassName: 'org.qbroker.receiver.StreamReceiver', URI: `file://${input}`, LinkName: 'root' },
    pstr: { ClassName: 'org.qbroker.persister.StreamPersister', URI: `file://${path.join(dir, 'out.txt')}`, Operation: 'write', LinkName: 'root' },
  };
}
const component = (json: Record<string, unknown>, name: string) => json[name] as Record<string, unknown>;

function nodes(outA: string[], outB: string[]) {
  return {
    Name: 'loop',
    Receiver: ['rcvr'],
    Node: ['node_a', 'node_b'],
    Persister: ['pstr'],
    rcvr: { ClassName: 'org.qbroker.receiver.IdleReceiver', LinkName: 'a_in' },
    node_a: { ClassName: 'org.qbroker.node.ForwardNode', LinkName: 'a_in', OutLink: outA },
    node_b: { ClassName: 'org.qbroker.node.ForwardNode', LinkName: 'b_in', OutLink: outB },
    pstr: { ClassName: 'org.qbroker.persister.UpperPersister', LinkName: 'out' },
  };
}

describe('link cycles', () => {
  it('rejects two nodes that feed each other, naming the links and components on the cycle', () => {
    expect(brief(errorsOf(nodes(['out', 'b_in'], ['out', 'a_in'])))).toEqual([
      {
        component: 'node_a',
        property: 'OutLink',
        message:
          'links form a cycle: node_a -> b_in -> node_b -> a_in -> node_a. A message could circle for ever and the full links would wait on each other; expected links that lead away to a persister',
      },
    ]);
  });

  it('rejects a node whose outlink is its own input', () => {
    const json = nodes(['out', 'b_in'], ['out', 'b_in']);
    expect(brief(errorsOf(json))).toEqual([
      expect.objectContaining({ component: 'node_b', property: 'OutLink', message: expect.stringMatching(/^links form a cycle: node_b -> b_in -> node_b\./) }),
    ]);
  });

  it('accepts nodes in a chain', () => {
    expect(errorsOf(nodes(['b_in'], ['out']))).toEqual([]);
  });
});

describe('StreamReceiver file input', () => {
  it('validates a file that exists', () => {
    expect(errorsOf(fileFlow(), defaultRegistry())).toEqual([]);
  });

  it('rejects a file that does not exist, naming its path', () => {
    const json = fileFlow();
    const missing = path.join(dir, 'no-such-input.txt');
    component(json, 'rcvr').URI = `file://${missing}`;
    expect(brief(errorsOf(json, defaultRegistry()))).toEqual([
      { component: 'rcvr', property: 'URI', message: `"file://${missing}": expected an existing file to read, but file ${missing} does not exist` },
    ]);
  });

  it('rejects a directory', () => {
    const json = fileFlow();
    component(json, 'rcvr').URI = `file://${dir}`;
    expect(brief(errorsOf(json, defaultRegistry()))).toEqual([
      { component: 'rcvr', property: 'URI', message: `"file://${dir}": expected a file to read, but ${dir} is a directory` },
    ]);
  });
});

describe('messages that say what was expected', () => {
  it('says a Capacity of "-5" must be a positive integer (it is a string already)', () => {
    expect(brief(errorsOf({ ...nodes(['b_in'], ['out']), Capacity: '-5' }))).toEqual([
      { component: '(flow)', property: 'Capacity', message: '"-5": expected a positive integer (the default link capacity, e.g. "256")' },
    ]);
  });

  it('refuses a Capacity of "0"', () => {
    const json = nodes(['b_in'], ['out']);
    (json.node_b as Record<string, unknown>).Capacity = '0';
    expect(brief(errorsOf(json))).toEqual([{ component: 'node_b', property: 'Capacity', message: '"0": expected a positive integer, e.g. "256"' }]);
  });

  it('says a JSON boolean must be the string "true" or "false"', () => {
    const json = {
      Name: 'amqp',
      Receiver: ['rcvr'],
      Persister: ['pstr'],
      rcvr: { ClassName: 'org.qbroker.receiver.RMQReceiver', URI: 'amqp://127.0.0.1/', QueueName: 'q', LinkName: 'root', IsDurable: false },
      pstr: component(fileFlow(), 'pstr'),
    };
    expect(brief(errorsOf(json, defaultRegistry()))).toEqual([
      {
        component: 'rcvr',
        property: 'IsDurable',
        message: 'false (a JSON boolean): expected the string "true" or "false" (durable when declared (default false))',
      },
    ]);
  });

  it('says a JSON number must be written as a string', () => {
    const json = nodes(['b_in'], ['out']);
    (json.node_b as Record<string, unknown>).Capacity = 8;
    expect(brief(errorsOf(json))).toEqual([
      { component: 'node_b', property: 'Capacity', message: '8 (a JSON number): expected a positive integer, e.g. "256", written as a JSON string ("8")' },
    ]);
  });

  it('says that {} is neither a topology nor a component configuration', () => {
    const file = path.join(dir, 'empty.json');
    fs.writeFileSync(file, '{}');
    expect(brief(validateFile(file, defaultRegistry()))).toEqual([
      {
        component: '',
        property: '',
        message: 'is neither a topology (it has no Receiver, Node or Persister list of component names) nor a component configuration (it has no ClassName)',
      },
    ]);
  });

  it('suggests the closest class for an unknown one', () => {
    const json = fileFlow();
    component(json, 'pstr').ClassName = 'org.qbroker.persister.RMQPersistor';
    const [e] = errorsOf(json, defaultRegistry());
    expect(e).toMatchObject({ component: 'pstr', property: 'ClassName' });
    expect(e.message).toMatch(/^unknown class "org\.qbroker\.persister\.RMQPersistor"; did you mean org\.qbroker\.persister\.RMQPersister\?; known classes: /);
  });

  it('says once that serial ports are not supported instead of one "unknown property" per serial setting', () => {
    const json = fileFlow();
    Object.assign(component(json, 'pstr'), { BaudRate: '9600', DataBits: '8', StopBits: '1', Parity: 'None' });
    expect(brief(errorsOf(json, defaultRegistry()))).toEqual([
      {
        component: 'pstr',
        property: 'BaudRate',
        message: expect.stringMatching(/^serial ports are not supported .*expected a tcp:\/\/host:port or file:\/\/path URI/),
      },
    ]);
  });

  it('says a path that is a directory is not a file, without EISDIR', () => {
    expect(brief(validateFile(dir, defaultRegistry()))).toEqual([{ component: '', property: '', message: 'is a directory, not a file' }]);
  });

  it('says a missing file does not exist, without ENOENT or the system call', () => {
    expect(brief(validateFile(path.join(dir, 'nope.json'), defaultRegistry()))).toEqual([{ component: '', property: '', message: 'does not exist' }]);
  });

  it('says a component file in ConfigDir that is a directory is not a file', () => {
    const flowDir = fs.mkdtempSync(path.join(dir, 'flow-'));
    fs.mkdirSync(path.join(flowDir, 'pstr.json'));
    const json = fileFlow();
    delete json.pstr;
    const file = path.join(flowDir, 'flow.json');
    fs.writeFileSync(file, JSON.stringify(json));
    expect(brief(validateFile(file, defaultRegistry()))).toContainEqual({ component: 'pstr', property: '', message: 'is a directory, not a file' });
  });

  it.each([
    ['{\n  "Receiver": ["a",]\n}', 'a comma before ]: JSON allows no trailing comma'],
    ["{'Name': 'x'}", 'a single quote: JSON names and strings need double quotes'],
    ['{"Name": "x" "Node": []}', 'a comma is missing before this'],
    ['{"Name": "x"', 'the text ends before the JSON does: a closing }, ] or " is missing'],
    ['{"Name": "x"} trailing', 'more text after the end of the JSON value'],
    ['', 'the file is empty: expected a JSON object'],
    ['['.repeat(100_000), 'maps and lists nested thousands of levels deep: expected a configuration of at most 64 levels'],
  ])("explains broken JSON %# in words, not in the JavaScript parser's", (text, reason) => {
    const file = path.join(dir, 'broken.json');
    fs.writeFileSync(file, text);
    const [p] = validateFile(file, defaultRegistry());
    expect(p.message).toMatch(new RegExp(`^invalid JSON at line \\d+, column \\d+: ${reason.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  });
});
