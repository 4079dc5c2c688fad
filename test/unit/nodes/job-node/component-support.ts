/**
 * Support for JobNode component tests: real XQueues for input, notice, bypass and workers, a producer
 * that records upstream completions, hand-driven workers and a notice reader.
 */
import { Message } from '../../../../src/message/message';
import { ConsumerHandle, Outcome, Taken, XQueue } from '../../../../src/xqueue/xqueue';
import { ComponentConfig } from '../../../../src/runtime/component';
import { SupervisionPolicy } from '../../../../src/runtime/supervision-policy';
import { Logger } from '../../../../src/logging/logger';
import { Harness, runComponent, waitFor } from '../../../support/component-harness';
import { Clock } from '../../../../src/runtime/clock';
import { jobNodeComponent } from '../../../../actors/nodes/job-node';

export { waitFor };

/** A consumer driven by the test: it takes and removes only when told. */
export class HandWorker {
  readonly handle: ConsumerHandle;

  constructor(readonly queue: XQueue<Message>) {
    this.handle = queue.attach(`test-${queue.name}`, () => undefined);
  }

  /** Waits for the next message in the outlink and takes it. */
  async take(what = `a message on ${this.queue.name}`): Promise<Taken<Message>> {
    let taken: Taken<Message> | undefined;
    await waitFor(() => (taken = this.queue.take(this.handle)) !== undefined, what, 5_000);
    return taken as Taken<Message>;
  }

  /** Finishes a job request with a return code. */
  finish(taken: Taken<Message>, rc: string | undefined = '0', outcome: Outcome = 'done'): void {
    if (rc !== undefined) taken.item.setProperty('ReturnCode', rc);
    this.queue.remove(taken, outcome);
  }
}

/** Reads every escalation on the notice link as a map of its properties. */
class NoticeReader {
  readonly events: Record<string, string>[] = [];
  private readonly handle: ConsumerHandle;

  constructor(private readonly queue: XQueue<Message>) {
    this.handle = queue.attach('test-notice', () => queueMicrotask(() => this.drain()));
  }

  drain(): void {
    for (let t = this.queue.take(this.handle); t !== undefined; t = this.queue.take(this.handle)) {
      this.events.push(Object.fromEntries(t.item.properties));
      this.queue.remove(t);
    }
  }

  statuses(): string[] {
    this.drain();
    return this.events.map((e) => `${e.name}:${e.status}`);
  }

  async waitFor(predicate: (e: Record<string, string>) => boolean, what: string): Promise<Record<string, string>> {
    let found: Record<string, string> | undefined;
    await waitFor(
      () => {
        this.drain();
        return (found = this.events.find(predicate)) !== undefined;
      },
      what,
      5_000,
    );
    return found as Record<string, string>;
  }
}

export interface Rig {
  harness: Harness;
  input: XQueue<Message>;
  notice: XQueue<Message>;
  bypass: XQueue<Message>;
  workers: XQueue<Message>[];
  noticeReader: NoticeReader;
  /** Upstream completions by request name (the JobID property). */
  upstream: Map<string, Outcome[]>;
  /** Puts a request (properties) into the input; resolves once it is in the queue. */
  send(props: Record<string, string>): Promise<number>;
  /** Replaces the node by one on `config` (same name and outlinks unless given), as a reload does (Harness.replace). */
  reload(config: Record<string, unknown>, between?: () => void): Promise<{ refused?: string }>;
  stop(): Promise<void>;
}

export function rig(
  config: Record<string, unknown>,
  options: { inputCapacity?: number; workers?: number; workerCapacity?: number; policy?: SupervisionPolicy; logger?: Logger; clock?: Clock } = {},
): Rig {
  const workerCount = options.workers ?? 2;
  const input = new XQueue<Message>('job_in', options.inputCapacity ?? 16);
  const notice = new XQueue<Message>('notice', 256);
  const bypass = new XQueue<Message>('bypass', 8);
  const workers = Array.from({ length: workerCount }, (_, i) => new XQueue<Message>(`w${i}`, options.workerCapacity ?? 4));
  const complete = (c: Record<string, unknown>): ComponentConfig =>
    ({ Name: 'jobs', ClassName: 'org.qbroker.node.JobNode', OutLink: ['notice', 'bypass', ...workers.map((w) => w.name)], ...c }) as ComponentConfig;
  const full = complete(config);
  const harness = runComponent(jobNodeComponent as never, {
    config: full,
    input,
    outlinks: [notice, bypass, ...workers],
    policy: options.policy,
    logger: options.logger,
    clock: options.clock,
  });
  const upstream = new Map<string, Outcome[]>();
  return {
    harness,
    input,
    notice,
    bypass,
    workers,
    noticeReader: new NoticeReader(notice),
    upstream,
    send: (props) =>
      input.put(Message.text('job', props), (item, outcome) => {
        const name = item.getProperty('JobID') ?? '?';
        upstream.set(name, [...(upstream.get(name) ?? []), outcome]);
      }),
    reload: (next, between) => harness.replace(complete(next), { between }),
    stop: () => harness.stop(),
  };
}
