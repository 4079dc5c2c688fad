/**
 * What a new user meets at the command line, run as real `xroute` processes: clean messages for a missing
 * file, suggestions for a misspelt command or link, a refused Capacity, and an admin endpoint that tells the
 * truth about a --keep-running flow whose file receiver has ended. Needs the build (dist/).
 */
import { ChildProcess } from 'child_process';
import { runXroute, scratchDir, startXrouteRun, terminate, writeFlowFile } from '../../support/xroute-cli';
import { writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { waitFor } from '../../support/component-harness';

const xroute = (args: string[], cwd = tmpdir()) => runXroute(args, { cwd, timeout: 30_000 });

const scratch = (): string => scratchDir('xroute-first-');
const flowFile = (json: unknown, dir = scratch()): string => writeFlowFile(json, dir);

const evaluator = { ClassName: 'org.qbroker.persister.MessageEvaluator', URI: 'eval://', Ruleset: { r: {} } };

describe('xroute at first contact (process)', () => {
  it('says a missing eval configuration does not exist, as validate does, with exit 1', async () => {
    const dir = scratch();
    const evalRun = await xroute(['eval', 'missing.json'], dir);
    const validateRun = await xroute(['validate', 'missing.json'], dir);
    expect(evalRun).toEqual({ code: 1, stdout: '', stderr: 'error: missing.json: does not exist\n' });
    expect(validateRun.stderr).toBe(evalRun.stderr);
  }, 30_000);

  it('suggests the command meant by a misspelt one', async () => {
    const r = await xroute(['rn', 'flow.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^xroute: unknown command "rn"; did you mean "run"\?/);
  }, 30_000);

  it('refuses a receiver Capacity below 1, naming the component and the property', async () => {
    const r = await xroute([
      'validate',
      flowFile({
        Name: 'f',
        Receiver: ['rcvr'],
        Persister: ['pstr'],
        rcvr: { ClassName: 'org.qbroker.receiver.RMQReceiver', URI: 'amqp://127.0.0.1/', QueueName: 'q', LinkName: 'root', Capacity: '-3' },
        pstr: { ...evaluator, LinkName: 'root' },
      }),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('rcvr: Capacity: "-3": expected a positive integer');
  }, 30_000);

  it('suggests the link meant by a misspelt LinkName, on both halves of the broken link', async () => {
    const r = await xroute([
      'validate',
      flowFile({
        Name: 'f',
        Receiver: ['rcvr'],
        Persister: ['pstr'],
        rcvr: { ClassName: 'org.qbroker.receiver.RMQReceiver', URI: 'amqp://127.0.0.1/', QueueName: 'q', LinkName: 'incoming' },
        pstr: { ...evaluator, LinkName: 'incomming' },
      }),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('rcvr: LinkName: link "incoming" is read by no component (nothing would ever empty it); did you mean "incomming"?');
    expect(r.stderr).toContain(
      'pstr: LinkName: link "incomming" has no writer in this topology (only messages sent through the API arrive); did you mean "incoming"?',
    );
  }, 30_000);
});

describe('the admin endpoint of a --keep-running file flow (process)', () => {
  let child: ChildProcess | undefined;

  afterEach(async () => {
    await terminate(child);
  });

  async function keepRunningFileFlow(): Promise<string> {
    const dir = scratch();
    writeFileSync(path.join(dir, 'in.txt'), 'a\nb\n');
    const file = flowFile(
      {
        Name: 'files',
        Receiver: ['rcvr'],
        Persister: ['pstr'],
        rcvr: { ClassName: 'org.qbroker.receiver.StreamReceiver', URI: `file://${path.join(dir, 'in.txt')}`, LinkName: 'root' },
        pstr: { ClassName: 'org.qbroker.persister.StreamPersister', URI: `file://${path.join(dir, 'out.txt')}`, Operation: 'write', LinkName: 'root' },
      },
      dir,
    );
    const started = await startXrouteRun(file, ['--keep-running']);
    child = started.child;
    return started.url;
  }

  it('is ready once the file receiver has read its file to the end', async () => {
    const url = await keepRunningFileFlow();
    const receiver = async () =>
      ((await (await fetch(`${url}/status`)).json()) as { components: { name: string; status: string; detail?: string }[] }).components.find(
        (c) => c.name === 'rcvr',
      );
    await waitFor(async () => (await receiver())?.status === 'STOPPED', 'the file receiver at the end of its file', 20_000);
    expect(await receiver()).toMatchObject({ status: 'STOPPED', detail: 'end of stream' });
    const res = await fetch(`${url}/readyz`);
    expect([res.status, await res.json()]).toEqual([200, { ready: true, degraded: false, notReady: [], stuckLinks: [], parked: [] }]);
  }, 60_000);

  it('answers HEAD /events with the headers of the stream and ends', async () => {
    const url = await keepRunningFileFlow();
    const res = await fetch(`${url}/events`, { method: 'HEAD', signal: AbortSignal.timeout(5_000) });
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    expect(await res.text()).toBe('');
  }, 60_000);
});
