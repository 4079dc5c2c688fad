/**
 * JobNode across a reload that replaces it (docs/components/job-node.md#at-a-reload): what the old incarnation hands
 * to the new one (Behaviour.handOver, ComponentEnv.inherited), the inbox through which workers' answers reach
 * whichever incarnation runs, and the refusal of a replacement that would orphan running jobs.
 */
import { Message } from '../../src/message/message';
import { Outcome, Taken, XQueue } from '../../src/xqueue/xqueue';
import { JobView } from './job-node-scheduler';
import { JobIdentity } from './job-node-events';
import { FIRST_WORKER_OUTLINK, JobNodeSettings, SharedStateSettings } from './job-node-config';
import { SharedHandover } from './job-node-shared-limits';
import { Inbox } from './inbox';

export type Request = Taken<Message>;

/** An answer from a worker or the bypass consumer about a job or request JobNode placed there. */
export type JobEvent =
  | { readonly type: 'job-returned'; readonly job: JobView<Request>; readonly dispatch: number; readonly workerLink: string; readonly outcome: Outcome }
  | {
      readonly type: 'query-returned';
      readonly job: JobView<Request>;
      readonly dispatch: number;
      readonly workerLink: string;
      readonly event: Message;
      readonly who: JobIdentity;
    }
  | { readonly type: 'bypass-returned'; readonly request: Request; readonly outcome: Outcome };

/**
 * Where the completion callbacks JobNode attaches to what it places in its outlinks deliver: the incarnation that
 * runs now. Events wait here, not in an actor's mailbox, so none is lost while a reload swaps the incarnation
 * (the old one's mailbox ends with it): the new one attaches and takes what arrived meanwhile.
 */
export class JobInbox extends Inbox<JobEvent> {}

/** An active job as handed over: it keeps running on its worker outlink. */
interface HandedJob {
  readonly job: JobView<Request>;
  readonly ruleset: string;
  readonly workerLink: string;
  /** The request's cell in the worker outlink, while the worker has not taken it (for a TimeToLive withdrawal). */
  readonly cell: number | undefined;
}

const HANDOVER = Symbol('JobNodeHandover');

/**
 * The state a replaced JobNode hands to its successor. Pending jobs are not in it: they were put back into the
 * input in their order, and the successor takes them again under its own rulesets. The requests of the active
 * jobs stay taken; the runtime moves them to the successor's consumer of `input`.
 */
export interface JobNodeHandover {
  readonly [HANDOVER]: true;
  readonly node: string;
  readonly input: XQueue<Message>;
  readonly inbox: JobInbox;
  readonly active: readonly HandedJob[];
  /** The requests put back into the input (pending, deferred, waiting for a cell or a key): counted once already. */
  readonly requeued: WeakSet<Message>;
  readonly shared: { readonly settings: SharedStateSettings; readonly limits: SharedHandover } | undefined;
}

/** Whether a handover was adopted already: an incarnation's restart must not adopt it a second time. */
const adopted = new WeakSet<JobNodeHandover>();

export function makeHandover(parts: Omit<JobNodeHandover, typeof HANDOVER>): JobNodeHandover {
  return { [HANDOVER]: true, ...parts };
}

/**
 * The handover in `inherited` for a JobNode reading `input`, once: undefined when there is none, it belongs to
 * another link, or an earlier start (before a restart) adopted it.
 */
export function claimHandover(inherited: unknown, input: XQueue<Message>): JobNodeHandover | undefined {
  if (typeof inherited !== 'object' || inherited === null || !(HANDOVER in inherited)) return undefined;
  const handover = inherited as JobNodeHandover;
  if (handover.input !== input || adopted.has(handover)) return undefined;
  adopted.add(handover);
  return handover;
}

/** The same shared state (Redis URL, namespace and lease): its leases can be kept. */
export function sameSharedState(a: SharedStateSettings, b: SharedStateSettings): boolean {
  return a.url === b.url && a.namespace === b.namespace && a.leaseMs === b.leaseMs;
}

function isJobNodeSettings(value: unknown): value is JobNodeSettings {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<JobNodeSettings>;
  return Array.isArray(v.rulesets) && Array.isArray(v.outlinkNames);
}

/**
 * Why `next` cannot replace a JobNode running `active` (Behaviour.refuseReplace), or undefined. A running job must
 * keep a scheduled ruleset of its name and a worker outlink of its name; a reload that drops either is refused,
 * not carried out by finishing the jobs first: jobs run for minutes, a reload must answer now.
 */
export function replaceRefusal(node: string, active: readonly { readonly ruleset: string; readonly workerLink: string }[], next: unknown): string | undefined {
  if (!isJobNodeSettings(next) || active.length === 0) return undefined;
  const reasons: string[] = [];
  const count = (key: (j: { ruleset: string; workerLink: string }) => string): Map<string, number> => {
    const byName = new Map<string, number>();
    for (const j of active) byName.set(key(j), (byName.get(key(j)) ?? 0) + 1);
    return byName;
  };
  for (const [ruleset, n] of count((j) => j.ruleset)) {
    const kept = next.rulesets.find((r) => r.name === ruleset);
    if (kept === undefined) reasons.push(`ruleset "${ruleset}" has ${jobs(n)} and the new configuration removes it`);
    else if (kept.bypass) reasons.push(`ruleset "${ruleset}" has ${jobs(n)} and the new configuration makes it a bypass ruleset`);
  }
  const workerLinks = next.outlinkNames.slice(FIRST_WORKER_OUTLINK);
  for (const [link, n] of count((j) => j.workerLink)) {
    if (!workerLinks.includes(link)) reasons.push(`worker outlink "${link}" runs ${jobs(n)} and is no worker outlink in the new configuration`);
  }
  if (reasons.length === 0) return undefined;
  return `JobNode ${node} cannot be replaced now: ${reasons.join('; ')}. Reload again once they have finished, or keep them.`;
}

/**
 * Why a JobNode running `active` cannot be removed by a reload (Behaviour.refuseRemove), or undefined. Removed, it
 * drains as at a stop: its running jobs would be given back at the drain deadline and run a second time, so the
 * reload is refused while any runs (docs/components/job-node.md#at-a-reload). Names at most MAX_NAMED of them.
 */
export function removeRefusal(node: string, active: readonly { readonly ruleset: string; readonly name: string }[]): string | undefined {
  if (active.length === 0) return undefined;
  const named = active.slice(0, MAX_NAMED).map((j) => `"${j.name}" (ruleset "${j.ruleset}")`);
  const more = active.length > MAX_NAMED ? ` and ${active.length - MAX_NAMED} more` : '';
  return `JobNode ${node} has ${jobs(active.length)} and the new topology removes it: ${named.join(', ')}${more}. Reload again once they have finished, or keep the node.`;
}

/** The most running jobs a refusal names (the status query lists them all). */
const MAX_NAMED = 5;

function jobs(n: number): string {
  return n === 1 ? '1 active job' : `${n} active jobs`;
}
