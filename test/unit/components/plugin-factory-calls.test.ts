/**
 * Plugins are user code: checking a configuration (`xroute validate`, buildTopology, a settings reader) never
 * runs it, and each start of a MessageEvaluator runs each plugin factory exactly once (docs/configuration-errors.md).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildTopology } from '../../../src/config/topology';
import { Flow } from '../../../src/runtime/flow';
import { Message } from '../../../src/message/message';
import { defaultRegistry } from '../../../actors';
import { STREAM_PERSISTER } from '../../../actors/persisters';
import { validateComponentConfig } from '../../../src/config/validate-component';

const MAIN = resolve(__dirname, '../../../dist/src/cli/main.js');
const PLUGINS = resolve(__dirname, '../../fixtures/evaluator/counting');

/** A topology file whose MessageEvaluator has one counting plugin, and the file its factory calls are counted in. */
function countingTopology(): { file: string; json: Record<string, unknown>; countFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'xroute-counting-'));
  const countFile = join(dir, 'factory-calls');
  const json = {
    Name: 'counting-flow',
    PluginDir: PLUGINS,
    Persister: ['pstr_eval'],
    pstr_eval: {
      ClassName: 'persister.MessageEvaluator',
      URI: 'eval://',
      LinkName: 'eval',
      Capacity: '4',
      Ruleset: { count: { ClassName: 'counting', FormatterArgument: { CountFile: countFile } } },
    },
  };
  const file = join(dir, 'flow.json');
  writeFileSync(file, JSON.stringify(json));
  return { file, json, countFile };
}

function factoryCalls(countFile: string): number {
  return existsSync(countFile)
    ? readFileSync(countFile, 'utf8')
        .split('\n')
        .filter((l) => l !== '').length
    : 0;
}

describe('a MessageEvaluator plugin factory', () => {
  const registry = defaultRegistry();

  it('runs 0 times in xroute validate', () => {
    const { file, countFile } = countingTopology();
    const run = spawnSync(process.execPath, [MAIN, 'validate', file], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(factoryCalls(countFile)).toBe(0);
  });

  it('runs 0 times in buildTopology', () => {
    const { file, json, countFile } = countingTopology();
    buildTopology(json, file, registry);
    expect(factoryCalls(countFile)).toBe(0);
  });

  it('runs once per start and once more per restart', async () => {
    const { file, json, countFile } = countingTopology();
    const topology = buildTopology(json, file, registry);
    const first = Flow.start(topology, { registry });
    const { message } = await first.send('eval', Message.text('x', { RuleName: 'count' }));
    expect(message.getProperty('ReturnCode')).toBe('0');
    expect(factoryCalls(countFile)).toBe(1);
    await first.stop();
    const second = Flow.start(topology, { registry });
    await second.send('eval', Message.text('y', { RuleName: 'count' }));
    expect(factoryCalls(countFile)).toBe(2);
    await second.stop();
  });
});

describe('a StreamPersister parser plugin factory', () => {
  it('runs 0 times when the configuration is validated', () => {
    const { countFile } = countingTopology();
    const config = { URI: 'tcp://127.0.0.1:1', Operation: 'request', Parser: { ClassName: 'counting', ParserArgument: { CountFile: countFile } } };
    expect(validateComponentConfig(STREAM_PERSISTER, config, PLUGINS, { pluginDirs: [PLUGINS] }).filter((p) => p.severity === 'error')).toEqual([]);
    expect(factoryCalls(countFile)).toBe(0);
  });
});
