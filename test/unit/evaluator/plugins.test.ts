import { join } from 'node:path';
import { FIXTURES, evaluateSync, makeEngine, message, rc } from './helpers';
import { RuleConfigError } from '../../../src/rules/errors';

describe('plugin formatters (ClassName, loaded only from PluginDir)', () => {
  it('passes FormatterArgument to the exported factory and runs its format method', () => {
    const { engine } = makeEngine({ up: { ClassName: 'upper', FormatterArgument: { Field: 'name' } } });
    const m = evaluateSync(engine, message({ RuleName: 'up', name: 'ann' }));
    expect(rc(m)).toBe('0');
    expect(m.getProperty('name')).toBe('ANN');
  });

  it('runs the plugin only after the filter matched', () => {
    const { engine } = makeEngine({ up: { ClassName: 'upper', JMSPropertyGroup: [{ go: 'y' }] } });
    const m = evaluateSync(engine, message({ RuleName: 'up' }, 'abc'));
    expect(rc(m)).toBe('1');
    expect(m.bodyText()).toBe('abc');
  });

  it('finds a Java-style dotted class name as a path and calls MethodName on a class instance', () => {
    const { engine } = makeEngine({ s: { ClassName: 'org.example.Stamp', MethodName: 'stamp', FormatterArgument: 'v1' } });
    expect(evaluateSync(engine, message({ RuleName: 's' })).getProperty('stamp')).toBe('v1');
  });

  it('loads a TypeScript plugin (types erased) and runs it like a JavaScript one', () => {
    const { engine } = makeEngine({ shout: { ClassName: 'shout', FormatterArgument: { Suffix: '?!' } } });
    const m = evaluateSync(engine, message({ RuleName: 'shout' }, 'ready'));
    expect([rc(m), m.bodyText()]).toEqual(['0', 'READY?!']);
  });

  it('rejects a TypeScript plugin with a syntax error at start-up, naming the ruleset, ClassName and the line', () => {
    expect(() => makeEngine({ bad: { ClassName: 'broken-ts' } })).toThrow(/bad.*ClassName.*broken-ts\.ts.*line 2/s);
  });

  it('gives EXCEPTION, never a crash, when the plugin throws', () => {
    const { engine, logged } = makeEngine({ t: { ClassName: 'thrower' } });
    expect(rc(evaluateSync(engine, message({ RuleName: 't' })))).toBe('-1');
    expect(logged.error.some((e) => /plugin exploded/.test(e))).toBe(true);
  });

  it('gives EXCEPTION when the plugin returns an error text', () => {
    const { engine, logged } = makeEngine({ t: { ClassName: 'thrower' } });
    expect(rc(evaluateSync(engine, message({ RuleName: 't', mode: 'text' })))).toBe('-1');
    expect(logged.error.some((e) => /refused by plugin/.test(e))).toBe(true);
  });

  it('shares an instance only between rulesets with an equal argument (quirk fixed: the original compared only part of it)', () => {
    const { engine } = makeEngine({
      a: { ClassName: 'upper', FormatterArgument: { Name: 'x', Field: 'p' } },
      b: { ClassName: 'upper', FormatterArgument: { Name: 'x', Field: 'q' } },
      c: { ClassName: 'upper', FormatterArgument: { Field: 'p', Name: 'x' } },
    });
    const mb = evaluateSync(engine, message({ RuleName: 'b', p: 'p', q: 'q' }));
    expect(mb.getProperty('q')).toBe('Q');
    const ma = evaluateSync(engine, message({ RuleName: 'a', p: 'p', q: 'q' }));
    const mc = evaluateSync(engine, message({ RuleName: 'c', p: 'p', q: 'q' }));
    expect(ma.getProperty('instances')).toBe(mc.getProperty('instances'));
  });

  it('calls close() once when the engine closes', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the very module instance the engine required, to read its close counter
    const closed = require(join(FIXTURES, 'plugins', 'upper.js')).closed as { count: number };
    const before = closed.count;
    const { engine } = makeEngine({ up: { ClassName: 'upper', FormatterArgument: { Field: 'only-close-test' } } });
    await engine.close();
    await engine.close();
    expect(closed.count).toBe(before + 1);
  });

  it('evaluates asynchronously when the plugin returns a Promise', async () => {
    const { engine } = makeEngine({ tag: { ClassName: 'async-tag', FormatterArgument: 'T' } });
    const m = message({ RuleName: 'tag' });
    const pending = engine.evaluate(m);
    expect(pending).toBeInstanceOf(Promise);
    await pending;
    expect(m.getProperty('tag')).toBe('T');
    expect(rc(m)).toBe('0');
  });

  it('rejects a plugin that is not inside a PluginDir', () => {
    expect(() => makeEngine({ e: { ClassName: '../outside/evil' } })).toThrow(RuleConfigError);
    expect(() => makeEngine({ e: { ClassName: join(FIXTURES, 'outside', 'evil.js') } })).toThrow(/not found in PluginDir/);
  });

  it('rejects any plugin when no PluginDir is configured', () => {
    expect(() => makeEngine({ up: { ClassName: 'upper' } }, {}, { pluginDirs: [] })).toThrow(/no PluginDir is configured/);
  });

  it('rejects a plugin without the method at start-up', () => {
    expect(() => makeEngine({ up: { ClassName: 'upper', MethodName: 'nothing' } })).toThrow(/has no method nothing/);
  });
});
