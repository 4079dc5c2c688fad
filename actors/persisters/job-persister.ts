/**
 * JobPersister (operation `execute`): the worker JobNode was made for. Each job request in its input
 * XQueue (a JobNode worker outlink) runs a child process built from the `Script` template; when the
 * process ends, RCField gets its exit code, OutputField its captured output, and the request is REMOVED
 * from the input, which is how JobNode learns the job is done (FINISHED for "0", FAILED otherwise).
 *
 * Query and abort events (JobEvent=query|abort, actors/nodes/job-event-protocol.ts) on the same input are answered at once:
 * a query gets status (RUNNING, or NOTFOUND when no such job runs here), progress, duration, pid and
 * actionCount; an abort kills the job's process (SIGTERM, SIGKILL after KillGrace) and
 * gets status ABORTED. The event is removed right away; JobNode escalates what was set on it. The job is
 * matched by the request message the event's body carries, so one JobPersister should read each worker
 * outlink (a second consumer would answer NOTFOUND for jobs the first one runs).
 *
 * Up to MaxJobs processes run at once. The consumer holds at most MaxJobs + 1 messages: with every slot
 * busy, the one free place takes the next message; a query or abort is answered and removed at once, so
 * events keep flowing, while a further job request waits here for a slot and, until it starts, nothing
 * more is taken (the rest waits in the queue and pushes back on the producer). JobNode never gives a
 * worker outlink a second job before the first request is removed, so behind a JobNode events always get
 * through; a producer that queues more requests than MaxJobs delays the events behind them.
 *
 * Crash safety: on a restart or stop every running process is killed (its process group, SIGTERM then
 * SIGKILL) and stop() returns only when they are gone; the runtime has already put the requests back in
 * the queue, so a restarted JobPersister runs them again: at-least-once, like JobNode's redispatch. When
 * the whole xroute process dies (kill -9 too), each job's supervisor kills its group (job-supervisor.js).
 */
import { ActorContext, Behaviour, QueueConsumer } from '../../src/runtime/actor';
import { DrainRequest } from '../../src/runtime/drain';
import { ComponentDefinition, ComponentEnv, inputOf } from '../../src/runtime/component';
import { displayMessage } from '../../src/logging/display';
import { Message } from '../../src/message/message';
import { Taken, XQueue } from '../../src/xqueue/xqueue';
import { JOB_EVENT_PROPERTY, JobQuery } from '../nodes/job-event-protocol';
import { JobExit, JobProcess, RC_EXCEPTION } from './job-persister-process';
import { JOB_PERSISTER_OPERATIONS, JOB_PERSISTER_SCHEMA, JobPersisterSettings, readJobPersisterSettings } from './job-persister-settings';

type Request = Taken<Message>;

/** Status values set on query and abort events (as the original JobPersister's). */
type JobEventStatus = 'RUNNING' | 'ABORTED' | 'NOTFOUND';

interface RunningJob {
  readonly request: Request;
  readonly process: JobProcess;
}

class JobPersisterBehaviour implements Behaviour<never> {
  private ctx!: ActorContext<never>;
  private input!: XQueue<Message>;
  private consumer!: QueueConsumer;
  /** Running jobs by their request message (what a query event's body points at). */
  private readonly running = new Map<Message, RunningJob>();
  /** Requests taken while every slot was busy, oldest first. */
  private readonly waiting: Request[] = [];
  private stopping = false;

  constructor(
    private readonly env: ComponentEnv,
    private readonly s: JobPersisterSettings,
  ) {}

  start(ctx: ActorContext<never>): void {
    this.ctx = ctx;
    this.input = inputOf(this.env);
    this.consumer = ctx.consume(this.input, (taken) => this.onMessage(taken), { maxInFlight: this.s.maxJobs + 1 });
  }

  /**
   * Drain before a stop (docs/operations.md#stopping): takes no new request and puts back those waiting for a
   * slot; running jobs finish (OnStop "wait") or are killed now and their requests put back ("kill").
   */
  async drain(_ctx: ActorContext<never>, request: DrainRequest): Promise<void> {
    this.consumer.stopTaking();
    for (const taken of this.waiting.splice(0)) this.input.putback(taken);
    if (request.onStop !== 'kill') return;
    this.stopping = true;
    const jobs = [...this.running.values()];
    this.running.clear();
    if (jobs.length === 0) return;
    this.env.logger.warn('draining with OnStop kill: killing running jobs; their requests go back and run again', { pids: jobs.map((j) => j.process.pid) });
    await Promise.all(jobs.map((j) => j.process.terminate('stop')));
    for (const j of jobs) this.input.putback(j.request);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const jobs = [...this.running.values()];
    this.running.clear();
    this.waiting.length = 0;
    if (jobs.length > 0) {
      this.env.logger.warn('stopping: killing running jobs; their requests go back to the queue and run again', { pids: jobs.map((j) => j.process.pid) });
      const gone = await Promise.all(jobs.map((j) => j.process.terminate('stop')));
      const left = jobs.filter((_, i) => !gone[i]).map((j) => j.process.pid);
      if (left.length > 0) this.env.logger.error('processes of killed jobs are still alive after SIGKILL', { pids: left });
    }
  }

  // ------------------------------------------------------------------ input

  private onMessage(taken: Request): void {
    const op = taken.item.getProperty(JOB_EVENT_PROPERTY);
    if (op === 'query' || op === 'abort') {
      this.onJobEvent(taken, op);
      return;
    }
    if (this.running.size < this.s.maxJobs) this.startJob(taken);
    else this.waiting.push(taken);
  }

  private onJobEvent(event: Request, op: 'query' | 'abort'): void {
    const msg = event.item;
    const body = msg.object<Partial<JobQuery>>();
    const request = body !== undefined && body !== null && body.request instanceof Message ? body.request : undefined;
    const job = request !== undefined ? this.running.get(request) : undefined;
    let status: JobEventStatus = 'NOTFOUND';
    if (job !== undefined) {
      status = op === 'abort' ? 'ABORTED' : 'RUNNING';
      this.describeJob(msg, job);
      if (op === 'abort') {
        this.env.logger.warn('aborting job on request', { pid: job.process.pid, id: msg.getProperty('id'), name: msg.getProperty('name') });
        job.process.kill('abort');
      }
    }
    msg.setProperty('status', status);
    this.env.status.count(op === 'abort' ? 'aborts' : 'queries');
    this.removeFromInput(event);
  }

  private describeJob(event: Message, job: RunningJob): void {
    const p = job.process;
    event.setProperty('duration', String(p.durationMs()));
    if (p.pid !== undefined) event.setProperty('pid', String(p.pid));
    event.setProperty('actionCount', String(p.lines));
    if (p.progress !== undefined) event.setProperty('progress', p.progress);
  }

  // ------------------------------------------------------------------ jobs

  private startJob(taken: Request): void {
    const msg = taken.item;
    let child: JobProcess;
    try {
      const command = this.s.command.render(msg);
      const env: NodeJS.ProcessEnv = { ...process.env };
      for (const [name, template] of this.s.environment) env[name] = template.format(msg);
      const job = { request: taken } as { request: Request; process: JobProcess };
      child = new JobProcess({
        command,
        cwd: this.s.workingDir,
        env,
        maxOutput: this.s.maxOutput,
        killGraceMs: this.s.killGraceMs,
        timeoutMs: this.s.timeoutMs,
        progressPattern: this.s.progressPattern,
        onClose: this.ctx.guard((exit: JobExit) => this.onJobClosed(job, exit)),
      });
      job.process = child;
      this.running.set(msg, job);
    } catch (e) {
      // A request whose command cannot even be built fails alone; the persister goes on.
      const reason = e instanceof Error ? e.message : String(e);
      this.env.logger.error('job not started', { error: reason });
      this.complete(taken, { rc: RC_EXCEPTION, output: reason, truncated: false });
      return;
    }
    this.env.status.count('started');
    displayMessage(this.env.logger, `job started (pid ${child.pid ?? '-'})`, msg, this.s.displayMask, this.s.stringProperty);
  }

  private onJobClosed(job: RunningJob, exit: JobExit): void {
    if (this.stopping || this.running.get(job.request.item) !== job) return; // killed by stop(): the runtime has put the request back
    this.running.delete(job.request.item);
    const fields = { pid: job.process.pid, rc: exit.rc, durationMs: exit.durationMs, lines: exit.lines };
    if (exit.startError !== undefined) this.env.logger.error('job could not start', { ...fields, error: exit.startError });
    else if (exit.killReason === 'timeout') this.env.logger.warn('job killed: Timeout reached', { ...fields, timeoutMs: this.s.timeoutMs });
    else if (exit.killReason === 'abort') this.env.logger.info('job aborted', fields);
    else this.env.logger.debug('job ended', fields); // every job's end: JobNode's FINISHED escalation reports it at info
    this.complete(job.request, exit);
    while (this.running.size < this.s.maxJobs && this.waiting.length > 0) this.startJob(this.waiting.shift() as Request);
  }

  /** Sets the result on the request and removes it: JobNode (or whoever put it there) now knows it is done. */
  private complete(taken: Request, result: Pick<JobExit, 'rc' | 'output' | 'truncated'>): void {
    const msg = taken.item;
    this.setField(msg, this.s.rcField, result.rc);
    this.setField(msg, this.s.outputField, result.output);
    if (result.truncated) msg.setProperty('OutputTruncated', 'true');
    this.env.status.count(result.rc === '0' ? 'succeeded' : 'failed');
    displayMessage(this.env.logger, `job done (${this.s.rcField}=${result.rc})`, msg, this.s.displayMask, this.s.stringProperty);
    this.removeFromInput(taken);
  }

  /** A header that cannot hold the value (e.g. OutputField JMSPriority) must not crash the persister. */
  private setField(msg: Message, field: string, value: string): void {
    try {
      msg.setField(field, value);
    } catch (e) {
      this.env.logger.error('cannot store the job result in its field; stored as a property instead', {
        field,
        error: e instanceof Error ? e.message : String(e),
      });
      msg.setProperty(field, value);
    }
  }

  private removeFromInput(taken: Request): void {
    this.input.remove(taken, 'done');
    this.consumer.poke();
  }
}

export const JOB_PERSISTER: ComponentDefinition<never, JobPersisterSettings> = {
  className: 'persister.JobPersister',
  role: 'persister',
  needsInput: true,
  runsOnStart: true,
  operations: JOB_PERSISTER_OPERATIONS,
  description:
    'Runs a child process per job request (Script template, no shell unless Shell is "true"), stores its exit code in RCField and its output in OutputField, and removes the request when the process ends; answers JobNode query events (status, progress, duration, pid, actionCount) and kills the job on an abort event or after Timeout.',
  schema: JOB_PERSISTER_SCHEMA,
  settings: readJobPersisterSettings,
  create: (env, settings) => new JobPersisterBehaviour(env, settings),
};
