import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { PassThrough } from 'stream';
import { componentOf, testTopology } from '../../support/flow-harness';
import { ConfigError } from '../../../src/config/errors';
import { EXIT_GAVE_UP, Flow } from '../../../src/runtime/flow';
import { runCommand } from '../../../src/cli/commands';
import { Message } from '../../../src/message/message';
import { memoryLogger, LogEntry } from '../../../src/logging/logger';
import { flakyRegistry, flakyTopologyJson, startFlakyFlow, Switch } from './flaky-component';
import { waitFor } from './helpers';

const start = (sw: Switch, supervision: Record<string, string> = {}, logs: LogEntry[] = []) => startFlakyFlow(sw, supervision, { logger: memoryLogger(logs) });

const pstr = (flow: Flow) => componentOf(flow, 'pstr')!;

describe('flow supervisor', () => {
  it('restarts a component after its own MaxRetry is exhausted, and its backed-up link drains once it recovers, nothing lost', async () => {
    const sw: Switch = { broken: true, starts: 0 };
    const flow = start(sw);
    const sends = Array.from({ length: 20 }, (_, i) => flow.send('root', Message.text(`m${i}`)));
    await waitFor(() => pstr(flow).nextRestartAt !== undefined, 'the flow to schedule a restart');
    expect(flow.link('root').size).toBe(8);
    const healed = Date.now();
    sw.broken = false;
    const results = await Promise.all(sends);
    const recoveryMs = Date.now() - healed;
    expect(results.map((r) => r.outcome)).toEqual(Array(20).fill('done'));
    expect(pstr(flow)).toMatchObject({ status: 'RUNNING', ready: true, messages: { in: 20, done: 20, failed: 0 } });
    expect(pstr(flow).restarts).toBeGreaterThanOrEqual(2);
    expect(flow.link('root').size).toBe(0);
    expect(recoveryMs).toBeLessThan(2000);
    await flow.stop();
  });

  it('keeps restarting, forever, with growing delays while the fault lasts, and says so in the status', async () => {
    const sw: Switch = { broken: true, starts: 0 };
    const logs: LogEntry[] = [];
    const flow = start(sw, {}, logs);
    await waitFor(() => logs.filter((l) => l.message === 'component gave up; the flow supervisor restarts it').length >= 3, 'three give-ups', 5000);
    const delays = logs.filter((l) => l.message === 'component gave up; the flow supervisor restarts it').map((l) => l.meta.delayMs as number);
    expect(delays[1]).toBeGreaterThan(delays[0]);
    expect(pstr(flow)).toMatchObject({ status: 'FAILED', ready: false, detail: expect.stringMatching(/gave up: .*the flow restarts it in/) });
    expect(flow.status().ready).toBe(false);
    await flow.stop();
  });

  it('with OnGiveUp "exit", asks the process to exit with code 3 instead of restarting', async () => {
    const sw: Switch = { broken: true, starts: 0 };
    const flow = start(sw, { OnGiveUp: 'exit' });
    await expect(flow.exitRequested).resolves.toBe(EXIT_GAVE_UP);
    // The exit is requested instead of scheduling a restart: none is scheduled, and only the component's own ran.
    expect([pstr(flow).status, pstr(flow).nextRestartAt]).toEqual(['FAILED', undefined]);
    expect(sw.starts).toBe(2); // first start and its own one restart; the flow does not restart it
    await flow.stop();
  });

  it('lets a component override the flow-level OnGiveUp', () => {
    const json = flakyTopologyJson({ OnGiveUp: 'exit' });
    (json.pstr as Record<string, unknown>).Supervision = { OnGiveUp: 'restart' };
    const t = testTopology(json, flakyRegistry({ broken: false, starts: 0 }));
    expect(t.components.find((c) => c.name === 'pstr')!.policy.onGiveUp).toBe('restart');
  });

  it('xroute run exits 3 after draining when a component gives up under OnGiveUp "exit"', async () => {
    const sw: Switch = { broken: true, starts: 0 };
    const dir = mkdtempSync(path.join(tmpdir(), 'xroute-giveup-'));
    const file = path.join(dir, 'flow.json');
    writeFileSync(file, JSON.stringify(flakyTopologyJson({ OnGiveUp: 'exit' })));
    const logs: LogEntry[] = [];
    const io = { stdout: new PassThrough(), stderr: new PassThrough() };
    const code = await runCommand(file, flakyRegistry(sw), io, memoryLogger(logs), new Promise(() => undefined), { keepRunning: true });
    expect(code).toBe(EXIT_GAVE_UP);
    const messages = logs.map((l) => l.message);
    expect(messages.indexOf('component gave up; the flow drains and the process exits')).toBeLessThan(messages.indexOf('flow stopped'));
    expect(logs.filter((l) => l.message === 'component totals').map((l) => l.meta.component)).toEqual(['pstr', 'rcvr']);
  });
});

describe('Supervision configuration', () => {
  const problems = (supervision: unknown) => {
    try {
      testTopology({ ...flakyTopologyJson(), Supervision: supervision }, flakyRegistry({ broken: false, starts: 0 }));
      return [];
    } catch (e) {
      return (e as ConfigError).problems.map((p) => `${p.component} ${p.property}: ${p.message}`);
    }
  };

  it('rejects an unknown OnGiveUp naming the accepted values', () => {
    expect(problems({ OnGiveUp: 'explode' })).toEqual([expect.stringMatching(/^\(flow\) Supervision\/OnGiveUp: "explode": expected "restart" .* or "exit" /)]);
  });

  it('suggests the key meant for a misspelt one', () => {
    expect(problems({ FatalRetrySecond: '10' })[0]).toBe('(flow) Supervision/FatalRetrySecond: unknown property; did you mean FatalRetrySeconds?');
  });

  it('rejects a GiveUpBackoff whose maximum is below its minimum', () => {
    expect(problems({ GiveUpBackoff: '5000,100' })[0]).toMatch(/Supervision: GiveUpBackoff "5000,100": expected "minMs,maxMs" with min <= max/);
  });

  it('reads FatalRetrySeconds into the policy', () => {
    const t = testTopology({ ...flakyTopologyJson(), Supervision: { FatalRetrySeconds: '7' } }, flakyRegistry({ broken: false, starts: 0 }));
    expect(t.components[0].policy.fatalRetryMs).toBe(7000);
  });
});
