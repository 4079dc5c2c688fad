import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { buildTopology, loadTopology } from '../../../src/config/topology';
import { ConfigError, ConfigProblem, JsonSyntaxError } from '../../../src/config/errors';
import { fakeRegistry } from './fake-components';

const FILE = '/topologies/flow.json';

function problems(json: unknown): ConfigProblem[] {
  try {
    return [...buildTopology(json, FILE, fakeRegistry()).warnings];
  } catch (e) {
    if (e instanceof ConfigError) return [...e.problems];
    throw e;
  }
}

function errors(json: unknown): ConfigProblem[] {
  return problems(json).filter((p) => p.severity === 'error');
}

const valid = () => ({
  Name: 'flow',
  Capacity: '8',
  Receiver: ['rcvr'],
  Node: ['node'],
  Persister: ['pstr'],
  rcvr: { ClassName: 'org.qbroker.receiver.IdleReceiver', LinkName: 'root' },
  node: { ClassName: 'org.qbroker.node.ForwardNode', LinkName: 'root', Capacity: '4', OutLink: [{ Name: 'out', Capacity: '2' }] },
  pstr: { ClassName: 'org.qbroker.persister.UpperPersister', LinkName: 'out' },
});

describe('topology loader', () => {
  it('loads a valid flow with components in start order persisters, nodes, receivers', () => {
    const t = buildTopology(valid(), FILE, fakeRegistry());
    expect(t.components.map((c) => c.name)).toEqual(['pstr', 'node', 'rcvr']);
  });

  it('resolves ClassName by its last two parts whatever the root package', () => {
    const t = buildTopology(valid(), FILE, fakeRegistry());
    expect(t.components.find((c) => c.name === 'rcvr')!.definition.className).toBe('receiver.IdleReceiver');
  });

  it('accepts an alias class name', () => {
    const json = valid();
    json.rcvr.ClassName = 'com.example.receiver.OldIdleReceiver';
    expect(buildTopology(json, FILE, fakeRegistry()).components.find((c) => c.name === 'rcvr')!.definition.className).toBe('receiver.IdleReceiver');
  });

  it('sizes an outlink by its OutLink map Capacity', () => {
    expect(buildTopology(valid(), FILE, fakeRegistry()).links.get('out')!.capacity).toBe(2);
  });

  it('sizes a node input link by the reading node Capacity', () => {
    expect(buildTopology(valid(), FILE, fakeRegistry()).links.get('root')!.capacity).toBe(4);
  });

  it('sizes a link with no other Capacity by the flow Capacity', () => {
    const json = valid();
    delete (json.node as { Capacity?: string }).Capacity;
    expect(buildTopology(json, FILE, fakeRegistry()).links.get('root')!.capacity).toBe(8);
  });

  it('rejects an unknown ClassName and lists the known classes', () => {
    const json = valid();
    json.pstr.ClassName = 'org.qbroker.persister.NoSuchPersister';
    const [e] = errors(json);
    expect(e).toMatchObject({ component: 'pstr', property: 'ClassName' });
    expect(e.message).toContain('persister.UpperPersister');
  });

  it('rejects a component without LinkName', () => {
    const json = valid();
    delete (json.pstr as { LinkName?: string }).LinkName;
    expect(errors(json)).toEqual(expect.arrayContaining([expect.objectContaining({ component: 'pstr', property: 'LinkName' })]));
  });

  it('rejects an OutLink that no component reads', () => {
    const json = valid();
    json.node.OutLink = [{ Name: 'out', Capacity: '2' }, 'nowhere' as never];
    expect(errors(json)).toEqual([
      expect.objectContaining({ component: 'node', property: 'OutLink', message: expect.stringContaining('"nowhere" is read by no component') }),
    ]);
  });

  it('rejects a Capacity that is not a number, saying what was expected', () => {
    const json = valid();
    json.node.Capacity = 'lots';
    const [e] = errors(json);
    expect(e).toMatchObject({ component: 'node', property: 'Capacity' });
    expect(e.message).toBe('"lots": expected a positive integer, e.g. "256"');
  });

  it('rejects a component named twice in the lists', () => {
    const json = { ...valid(), Persister: ['pstr', 'pstr'] };
    expect(errors(json)).toEqual([expect.objectContaining({ component: 'pstr', message: expect.stringContaining('listed more than once') })]);
  });

  it('rejects a receiver listed under Node', () => {
    const json = { ...valid(), Receiver: [], Node: ['node', 'rcvr'] };
    expect(errors(json)).toEqual(
      expect.arrayContaining([expect.objectContaining({ component: 'rcvr', property: 'ClassName', message: expect.stringContaining('is a receiver') })]),
    );
  });

  it('suggests the closest property name for an unknown component property', () => {
    const json = valid();
    (json.rcvr as Record<string, string>).Extr = 'x';
    expect(errors(json)).toEqual([expect.objectContaining({ component: 'rcvr', property: 'Extr', message: 'unknown property; did you mean Extra?' })]);
  });

  it('suggests the closest flow property for an unknown flow key', () => {
    const json = { ...valid(), Capacty: '3' };
    expect(errors(json)).toEqual([
      expect.objectContaining({ component: '(flow)', property: 'Capacty', message: expect.stringContaining('did you mean Capacity?') }),
    ]);
  });

  it('reports every problem at once', () => {
    const json = valid();
    json.node.Capacity = 'x';
    json.pstr.ClassName = 'nope.Nope';
    expect(errors(json).length).toBeGreaterThanOrEqual(2);
  });

  it('reads a configuration missing inline from ConfigDir/<name>.json with its own base directory', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-topo-'));
    fs.mkdirSync(path.join(dir, 'conf'));
    const json = valid() as Record<string, unknown>;
    fs.writeFileSync(path.join(dir, 'conf', 'pstr.json'), JSON.stringify(json.pstr));
    delete json.pstr;
    fs.writeFileSync(path.join(dir, 'flow.json'), JSON.stringify({ ...json, ConfigDir: 'conf' }));
    const t = loadTopology(path.join(dir, 'flow.json'), fakeRegistry());
    const pstr = t.components.find((c) => c.name === 'pstr')!;
    expect(pstr.baseDir).toBe(path.join(dir, 'conf'));
    fs.rmSync(dir, { recursive: true });
  });

  it('reports invalid JSON with line and column', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-topo-'));
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, '{\n  "Name": "x",\n  "Receiver": ["a",]\n}\n');
    let error: unknown;
    try {
      loadTopology(file, fakeRegistry());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JsonSyntaxError);
    expect(error).toMatchObject({ line: 3, column: 20 });
    fs.rmSync(dir, { recursive: true });
  });

  it('merges a component Supervision map over the flow default', () => {
    const json = { ...valid(), Supervision: { Strategy: 'resume', MaxRetry: '9' } };
    (json.node as Record<string, unknown>).Supervision = { Strategy: 'stop' };
    const t = buildTopology(json, FILE, fakeRegistry());
    expect(t.components.find((c) => c.name === 'node')!.policy).toMatchObject({ strategy: 'stop', maxRetry: 9 });
    expect(t.components.find((c) => c.name === 'pstr')!.policy).toMatchObject({ strategy: 'resume', maxRetry: 9 });
  });

  it('rejects an unknown supervision strategy', () => {
    const json = { ...valid(), Supervision: { Strategy: 'reboot' } };
    expect(errors(json)).toEqual([
      expect.objectContaining({
        component: '(flow)',
        property: 'Supervision/Strategy',
        message: '"reboot": expected one of "restart", "resume", "stop", "escalate"',
      }),
    ]);
  });
});
