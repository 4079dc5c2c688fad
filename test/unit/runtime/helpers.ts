/** Test support for runtime tests: policies with short timings and a poison-message workload. */
import { Behaviour, BehaviourFactory } from '../../../src/runtime/actor';
import { DEFAULT_POLICY, Strategy, SupervisionPolicy } from '../../../src/runtime/supervision-policy';
import { Outcome, XQueue } from '../../../src/xqueue/xqueue';
import { waitFor } from '../../support/component-harness';

export { waitFor };

export function policy(strategy: Strategy, overrides: Partial<SupervisionPolicy> = {}): SupervisionPolicy {
  return { ...DEFAULT_POLICY, strategy, maxRetry: 10_000, withinMs: 60_000, backoff: { minMs: 1, maxMs: 2 }, maxMessageAttempts: 3, ...overrides };
}

export interface Job {
  readonly id: number;
  readonly poison: boolean;
}

/** Counts, per job, how often a consumer started it and how it completed. */
export class Ledger {
  readonly attempts = new Map<number, number>();
  readonly completions = new Map<number, Outcome[]>();

  attempt(job: Job): void {
    this.attempts.set(job.id, (this.attempts.get(job.id) ?? 0) + 1);
  }

  complete(job: Job, outcome: Outcome): void {
    const list = this.completions.get(job.id) ?? [];
    list.push(outcome);
    this.completions.set(job.id, list);
  }

  completedTwice(): number[] {
    return [...this.completions].filter(([, o]) => o.length > 1).map(([id]) => id);
  }
}

/** 1 % poison: jobs whose id ends in 42 make their consumer throw every time. */
export function makeJobs(n: number): Job[] {
  return Array.from({ length: n }, (_, id) => ({ id, poison: id % 100 === 42 }));
}

/** A consumer of `queue` that throws on poison jobs and removes every other job at once. */
export function poisonConsumer(queue: XQueue<Job>, ledger: Ledger): BehaviourFactory<never> {
  return (): Behaviour<never> => ({
    start(ctx) {
      ctx.consume(queue, (taken, q) => {
        ledger.attempt(taken.item);
        if (taken.item.poison) throw new Error(`poison job ${taken.item.id}`);
        q.remove(taken);
      });
    },
  });
}

/** Puts every job (waiting for cells when full); resolves when all are in the queue. */
export async function produce(queue: XQueue<Job>, jobs: Job[], ledger: Ledger): Promise<void> {
  for (const job of jobs) await queue.put(job, (item, outcome) => ledger.complete(item, outcome));
}
