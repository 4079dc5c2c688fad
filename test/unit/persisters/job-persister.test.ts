/**
 * JobPersister with real child processes (short `node -e` scripts) and real XQueues.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JOB_PERSISTER } from '../../../actors/persisters/job-persister';
import { jobNodeComponent } from '../../../actors/nodes/job-node';
import { JobIdentity, queryEvent } from '../../../actors/nodes/job-node-events';
import { QueryOperation } from '../../../actors/nodes';
import { buildTopology } from '../../../src/config/topology';
import { validateComponentConfig } from '../../../src/config/validate-component';
import { AnyComponentDefinition, ComponentConfig, ComponentRegistry } from '../../../src/runtime/component';
import { Flow } from '../../../src/runtime/flow';
import { DEFAULT_POLICY, SupervisionPolicy } from '../../../src/runtime/supervision-policy';
import { Message } from '../../../src/message/message';
import { XQueue } from '../../../src/xqueue/xqueue';
import { Harness, runComponent, waitFor } from '../../support/component-harness';

const NODE = process.execPath;

/** A Script running `code` with node; `args` are further (template) arguments. */
function nodeScript(code: string, ...args: string[]): string[] {
  return [NODE, '-e', code, ...args];
}

/** Runs until killed, printing a line every 20 ms so it is clearly alive. */
const RUN_FOREVER = 'setInterval(() => {}, 1000)';

interface Rig {
  harness: Harness;
  input: XQueue<Message>;
  /** Puts a message in and resolves with it once the persister removed it. */
  send(msg: Message): Promise<Message>;
}

let rigs: Rig[] = [];

function start(config: ComponentConfig, policy: SupervisionPolicy = DEFAULT_POLICY): Rig {
  const input = new XQueue<Message>('worker', 8);
  const harness = runComponent(JOB_PERSISTER, { config: { Name: 'jobs', ...config }, input, policy });
  const rig: Rig = {
    harness,
    input,
    send: (msg) => new Promise((resolve) => void input.put(msg, (item) => resolve(item))),
  };
  rigs.push(rig);
  return rig;
}

afterEach(async () => {
  await Promise.all(rigs.map((r) => r.harness.stop()));
  rigs = [];
});

function job(body: string, properties: Record<string, string> = {}): Message {
  return Message.text(body, properties);
}

/** A query or abort event as JobNode makes it, for the given request. */
function jobEvent(request: Message, operation: QueryOperation): Message {
  const who: JobIdentity = {
    node: 'node',
    ruleset: 'r',
    job: { id: 7, key: 'k', dispatches: 1, dispatchedAt: Date.now() },
    worker: 0,
    workerLink: 'worker',
    request,
    copy: [],
  };
  return queryEvent(who, operation, Date.now());
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid a running job reports through a query. */
async function runningPid(rig: Rig, request: Message): Promise<number> {
  const answer = await rig.send(jobEvent(request, 'query'));
  expect(answer.getProperty('status')).toBe('RUNNING');
  return Number(answer.getProperty('pid'));
}

/** Waits until a query for `request` is answered RUNNING and its output has at least `lines` lines. */
async function untilRunning(rig: Rig, request: Message, lines = 0): Promise<Message> {
  let answer: Message | undefined;
  const running = async (): Promise<boolean> => {
    answer = await rig.send(jobEvent(request, 'query'));
    return answer.getProperty('status') === 'RUNNING' && Number(answer.getProperty('actionCount')) >= lines;
  };
  await waitFor(running, () => `job running with ${lines} lines: ${JSON.stringify(Object.fromEntries(answer?.properties ?? []))}`);
  return answer!;
}

describe('JobPersister', () => {
  it('sets RCField to the exit code of the process and removes the request', async () => {
    const rig = start({ Script: nodeScript('process.exit(3)'), RCField: 'RC' });
    const done = await rig.send(job('j'));
    expect(done.getProperty('RC')).toBe('3');
    expect(rig.input.size).toBe(0);
  });

  it('reports "0" and stores stdout and stderr in Output for a successful job', async () => {
    const rig = start({ Script: nodeScript('console.log("out"); console.error("err")') });
    const done = await rig.send(job('j'));
    expect(done.getProperty('ReturnCode')).toBe('0');
    expect(done.getProperty('Output')?.split('\n').sort()).toEqual(['', 'err', 'out']);
  });

  it('puts the output in the body when OutputField is body', async () => {
    const rig = start({ Script: nodeScript('process.stdout.write("result")'), OutputField: 'body' });
    const done = await rig.send(job('request text'));
    expect(done.bodyText()).toBe('result');
  });

  it('keeps at most MaxOutput bytes of output and marks it truncated', async () => {
    const rig = start({ Script: nodeScript('process.stdout.write("x".repeat(100000))'), MaxOutput: '1000' });
    const done = await rig.send(job('j'));
    expect(done.getProperty('Output')).toBe('x'.repeat(1000));
    expect(done.getProperty('OutputTruncated')).toBe('true');
  });

  it('fills ##field## placeholders from the request, one argument each', async () => {
    const rig = start({ Script: nodeScript('process.stdout.write(JSON.stringify(process.argv.slice(1)))', '##body##', 'tag=##Tag##') });
    const done = await rig.send(job('two words', { Tag: 'a b' }));
    expect(JSON.parse(done.getProperty('Output') as string)).toEqual(['two words', 'tag=a b']);
  });

  it('passes shell syntax in a placeholder value as one plain argument when Shell is not set', async () => {
    const marker = path.join(os.tmpdir(), `xroute-injection-${process.pid}-${Date.now()}`);
    const rig = start({ Script: `${NODE} -e process.stdout.write(JSON.stringify(process.argv.slice(1))) ##body##` });
    const value = `; touch ${marker}`;
    const done = await rig.send(job(value));
    expect(JSON.parse(done.getProperty('Output') as string)).toEqual([value]);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('runs the Script through /bin/sh -c when Shell is "true"', async () => {
    const rig = start({ Script: 'echo ##body## && echo second', Shell: 'true' });
    const done = await rig.send(job('first'));
    expect(done.getProperty('Output')).toBe('first\nsecond\n');
  });

  it('adds Environment variables with templated values', async () => {
    const rig = start({ Script: nodeScript('process.stdout.write(process.env.JOB_NAME)'), Environment: { JOB_NAME: 'job-##body##' } });
    const done = await rig.send(job('42'));
    expect(done.getProperty('Output')).toBe('job-42');
  });

  it('runs the job in WorkingDir', async () => {
    const dir = fs.realpathSync(os.tmpdir());
    const rig = start({ Script: nodeScript('process.stdout.write(process.cwd())'), WorkingDir: dir });
    const done = await rig.send(job('j'));
    expect(done.getProperty('Output')).toBe(dir);
  });

  it('reports RC "-1" with the reason when the program cannot be started', async () => {
    const rig = start({ Script: '/nonexistent/program-xroute ##body##' });
    const done = await rig.send(job('j'));
    expect(done.getProperty('ReturnCode')).toBe('-1');
    expect(done.getProperty('Output')).toContain('ENOENT');
  });

  it('answers a query for a running job with RUNNING, duration, pid, actionCount and the progress its output reported', async () => {
    const rig = start({
      Script: nodeScript('console.log("starting"); console.log("PROGRESS 40"); setInterval(() => {}, 1000)'),
      ProgressPattern: '^PROGRESS (\\d+)',
    });
    const request = job('j');
    void rig.send(request);
    const answer = await untilRunning(rig, request, 2);
    expect(answer.getProperty('progress')).toBe('40');
    expect(answer.getProperty('actionCount')).toBe('2');
    expect(Number(answer.getProperty('duration'))).toBeGreaterThanOrEqual(0);
    expect(isAlive(Number(answer.getProperty('pid')))).toBe(true);
  });

  it('answers NOTFOUND to a query for a job it is not running', async () => {
    const rig = start({ Script: nodeScript(RUN_FOREVER) });
    const answer = await rig.send(jobEvent(job('never sent'), 'query'));
    expect(answer.getProperty('status')).toBe('NOTFOUND');
  });

  it('kills the job on an abort event, answers ABORTED and removes the request with the signal as RC', async () => {
    const rig = start({ Script: nodeScript(RUN_FOREVER) });
    const request = job('j');
    const finished = rig.send(request);
    const pid = await runningPid(rig, request);
    const answer = await rig.send(jobEvent(request, 'abort'));
    expect(answer.getProperty('status')).toBe('ABORTED');
    expect((await finished).getProperty('ReturnCode')).toBe('-15');
    expect(isAlive(pid)).toBe(false);
  });

  it('kills a job that runs longer than Timeout', async () => {
    const rig = start({ Script: nodeScript(RUN_FOREVER), Timeout: '300' });
    const started = Date.now();
    const done = await rig.send(job('j'));
    expect(done.getProperty('ReturnCode')).toBe('-15');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('sends SIGKILL after KillGrace to a job that ignores SIGTERM', async () => {
    const rig = start({
      Script: nodeScript('process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000)'),
      Timeout: '1000',
      KillGrace: '200',
    });
    const done = await rig.send(job('j'));
    expect(done.getProperty('ReturnCode')).toBe('-9');
  });

  it('runs up to MaxJobs jobs at once', async () => {
    const rig = start({ Script: nodeScript(RUN_FOREVER), MaxJobs: '2' });
    const a = job('a');
    const b = job('b');
    void rig.send(a);
    void rig.send(b);
    const pids = [await runningPid(rig, a), await runningPid(rig, b)];
    expect(pids.every(isAlive)).toBe(true);
    expect(new Set(pids).size).toBe(2);
  });

  it('starts a request beyond MaxJobs when a running job ends', async () => {
    const rig = start({ Script: nodeScript('setTimeout(() => console.log(Date.now()), Number(process.argv[1]))', '##body##'), MaxJobs: '1' });
    const [first, second] = await Promise.all([rig.send(job('400')), rig.send(job('0'))]);
    expect([first.getProperty('ReturnCode'), second.getProperty('ReturnCode')]).toEqual(['0', '0']);
    expect(Number(second.getProperty('Output'))).toBeGreaterThanOrEqual(Number(first.getProperty('Output')));
  });

  it('kills every running process when it stops, leaving no process behind', async () => {
    const rig = start({ Script: nodeScript(RUN_FOREVER), MaxJobs: '2', KillGrace: '500' });
    const a = job('a');
    const b = job('b');
    void rig.send(a);
    void rig.send(b);
    const pids = [await runningPid(rig, a), await runningPid(rig, b)];
    await rig.harness.stop();
    expect(pids.filter(isAlive)).toEqual([]);
    expect(rig.input.size).toBe(2); // the requests went back to the queue, not reported done
  });

  it('kills its running job when it crashes and runs the request again after the restart (at-least-once)', async () => {
    const policy: SupervisionPolicy = { ...DEFAULT_POLICY, backoff: { minMs: 20, maxMs: 50 }, maxMessageAttempts: 1 };
    const rig = start({ Script: nodeScript(RUN_FOREVER), KillGrace: '500' }, policy);
    const request = job('j');
    void rig.send(request);
    const firstPid = await runningPid(rig, request);
    const poison = { notAMessage: true } as unknown as Message; // makes the persister throw: a real crash
    const poisonOutcome = new Promise((resolve) => void rig.input.put(poison, (_item, outcome) => resolve(outcome)));
    expect(await poisonOutcome).toBe('failed');
    await waitFor(() => rig.harness.actor.restarts() === 1 && rig.harness.actor.status() === 'running', 'the restart');
    const secondPid = Number((await untilRunning(rig, request)).getProperty('pid'));
    expect(secondPid).not.toBe(firstPid);
    expect(isAlive(firstPid)).toBe(false);
  });

  it('kills the processes a shell job started too (the whole process group)', async () => {
    const pidFile = path.join(os.tmpdir(), `xroute-grandchild-${process.pid}-${Date.now()}`);
    const code = 'require("fs").writeFileSync(process.env.PID_FILE, String(process.pid)); setInterval(() => {}, 1000)';
    const rig = start({ Script: `'${NODE}' -e '${code}' & wait`, Shell: 'true', Environment: { PID_FILE: pidFile } });
    const request = job('j');
    void rig.send(request);
    const shellPid = await runningPid(rig, request);
    await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') !== '', 'the background process to start');
    const grandchild = Number(fs.readFileSync(pidFile, 'utf8'));
    fs.unlinkSync(pidFile);
    await rig.harness.stop();
    expect([isAlive(shellPid), isAlive(grandchild)]).toEqual([false, false]);
  });

  it('reports a Script that is missing or a ProgressPattern that does not compile at load time', () => {
    expect(validateComponentConfig(JOB_PERSISTER, { ClassName: 'persister.JobPersister' }, '/t').map((p) => p.property)).toEqual(['Script']);
    expect(
      validateComponentConfig(JOB_PERSISTER, { ClassName: 'persister.JobPersister', Script: 'true', ProgressPattern: '(' }, '/t').map((p) => p.property),
    ).toEqual(['ProgressPattern']);
  });
});

/** A persister that records what it reads (here: JobNode's escalations) and removes it. */
function collector(seen: Message[]): AnyComponentDefinition {
  return {
    className: 'persister.Collector',
    role: 'persister',
    operations: ['collect'],
    description: 'test: records messages',
    schema: { type: 'object', properties: {} },
    create: (env) => ({
      start: (ctx) => {
        ctx.consume(env.input as XQueue<Message>, (taken, q) => {
          seen.push(taken.item);
          q.remove(taken);
        });
      },
    }),
  };
}

describe('JobPersister behind a JobNode', () => {
  it('escalates SCHEDULED, a RUNNING query result with progress, then FINISHED', async () => {
    const escalations: Message[] = [];
    const registry = new ComponentRegistry([jobNodeComponent, JOB_PERSISTER, collector(escalations)]);
    const topology = buildTopology(
      {
        Name: 'jobs',
        Node: ['node'],
        Persister: ['worker', 'notice', 'bypass'],
        node: {
          ClassName: 'node.JobNode',
          LinkName: 'in',
          Heartbeat: '0.2',
          OutLink: ['notice', 'bypass', 'w1'],
          Ruleset: [{ Name: 'all', PatternGroup: [{ Pattern: ['.'] }] }],
        },
        worker: {
          ClassName: 'persister.JobPersister',
          LinkName: 'w1',
          Script: nodeScript('console.log("PROGRESS 50"); setTimeout(() => {}, 900)'),
          ProgressPattern: '^PROGRESS (\\d+)',
        },
        notice: { ClassName: 'persister.Collector', LinkName: 'notice' },
        bypass: { ClassName: 'persister.Collector', LinkName: 'bypass' },
      },
      '/t/jobs.json',
      registry,
    );
    const flow = Flow.start(topology, { registry });
    try {
      const { message } = await flow.send('in', Message.text('build'));
      expect(message.getProperty('ReturnCode')).toBe('0');
      await waitFor(() => escalations.some((e) => e.getProperty('status') === 'FINISHED'), 'FINISHED');
      const steps = escalations.map((e) => `${e.getProperty('operation')} ${e.getProperty('status')}`);
      expect(steps[0]).toBe('notice SCHEDULED');
      expect(steps[steps.length - 1]).toBe('notice FINISHED');
      const queries = escalations.filter((e) => e.getProperty('operation') === 'query');
      expect(queries.length).toBeGreaterThan(0);
      expect(queries.every((q) => q.getProperty('status') === 'RUNNING')).toBe(true);
      // the first heartbeat may come before the script printed anything; a later one sees its progress
      expect(queries.map((q) => q.getProperty('progress'))).toContain('50');
    } finally {
      await flow.stop({ drainMs: 0 });
    }
  });
});
