/**
 * `xroute validate` checks a pool's DefaultProperty entries like the configuration of the class each names:
 * a bad value or a misspelt key is reported at load time (with "did you mean"), instead of making every
 * request of that class fail with code 4. Properties a request supplies (URI, ...) may be missing.
 */
import { buildTopology } from '../../../src/config/topology';
import { ConfigError } from '../../../src/config/errors';
import { defaultRegistry } from '../../../actors';

function problems(defaults: Record<string, string>[]): { property: string; message: string; severity: string }[] {
  const json = {
    Name: 'f',
    Persister: ['pool'],
    pool: { ClassName: 'org.qbroker.persister.PersisterPool', LinkName: 'requests', DefaultProperty: defaults },
  };
  try {
    const t = buildTopology(json, '/tmp/f.json', defaultRegistry());
    return t.warnings.filter((w) => w.severity === 'error').map((w) => ({ property: w.property, message: w.message, severity: w.severity }));
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return e.problems.filter((p) => p.severity === 'error').map((p) => ({ property: p.property, message: p.message, severity: p.severity }));
  }
}

describe('pool DefaultProperty validation', () => {
  it('accepts a well-formed entry that leaves out what requests supply', () => {
    expect(problems([{ ClassName: 'org.qbroker.persister.StreamPersister', SOTimeout: '5', PoolSize: '4' }]).filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('reports a bad value with the entry and the property', () => {
    expect(problems([{ ClassName: 'org.qbroker.persister.StreamPersister', SOTimeout: 'soon' }])).toEqual([
      expect.objectContaining({ property: 'DefaultProperty/0/SOTimeout', severity: 'error' }),
    ]);
  });

  it('reports a misspelt key with a did-you-mean', () => {
    expect(problems([{ ClassName: 'org.qbroker.persister.StreamPersister', SOTimeot: '5' }])).toEqual([
      expect.objectContaining({ property: 'DefaultProperty/0/SOTimeot', message: expect.stringContaining('did you mean SOTimeout?'), severity: 'error' }),
    ]);
  });
});
