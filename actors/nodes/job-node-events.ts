/**
 * How JobNode builds the messages of its job-event protocol (job-event-protocol.ts describes the
 * properties and bodies; other components read them through actors/nodes/index.ts).
 */
import { Message } from '../../src/message/message';
import { JobView } from './job-node-scheduler';
import { EscalationStatus, EventPriority, JOB_EVENT_PROPERTY, JobQuery, QueryOperation } from './job-event-protocol';

export interface JobIdentity {
  readonly node: string;
  readonly ruleset: string;
  readonly job: Pick<JobView<unknown>, 'id' | 'key' | 'dispatches' | 'dispatchedAt'>;
  readonly worker: number;
  readonly workerLink: string;
  readonly request: Message;
  /** Ruleset StringProperty names to copy from the request. */
  readonly copy: readonly string[];
}

export function jobName(job: Pick<JobView<unknown>, 'id' | 'key'>): string {
  return job.key ?? `job-${job.id}`;
}

function copyProperties(target: Message, request: Message, names: readonly string[]): void {
  for (const n of names) {
    const v = request.getField(n);
    if (v !== undefined && v !== '') target.setProperty(n, v);
  }
}

function baseProperties(target: Message, who: JobIdentity, now: number): void {
  copyProperties(target, who.request, who.copy);
  target.setProperty('node', who.node);
  target.setProperty('name', jobName(who.job));
  target.setProperty('category', who.ruleset);
  target.setProperty('id', String(who.job.id));
  if (who.worker >= 0) {
    target.setProperty('worker', String(who.worker));
    target.setProperty('workerLink', who.workerLink);
  }
  target.setProperty('attempt', String(who.job.dispatches));
  if (who.job.dispatchedAt > 0 && who.worker >= 0) target.setProperty('duration', String(Math.max(0, now - who.job.dispatchedAt)));
}

export interface NoticeDetails {
  readonly status: EscalationStatus;
  readonly priority: EventPriority;
  readonly progress?: string;
  readonly reason?: string;
  readonly rcField?: string;
  readonly rc?: string;
}

/** An escalation made by JobNode itself (operation "notice"). */
export function noticeEvent(who: JobIdentity, details: NoticeDetails, now: number): Message {
  const m = new Message({ headers: { JMSTimestamp: now } });
  baseProperties(m, who, now);
  m.setProperty('operation', 'notice');
  m.setProperty('status', details.status);
  m.setProperty('priority', details.priority);
  if (details.progress !== undefined) m.setProperty('progress', details.progress);
  if (details.reason !== undefined) m.setProperty('reason', details.reason);
  if (details.rcField !== undefined && details.rc !== undefined) m.setProperty(details.rcField, details.rc);
  const on = who.worker >= 0 ? ` on ${who.workerLink}` : '';
  const rc = details.rcField !== undefined && details.rc !== undefined ? ` ${details.rcField}=${details.rc}` : '';
  const why = details.reason !== undefined ? `: ${details.reason}` : '';
  m.body = { kind: 'text', text: `${who.node}: job ${jobName(who.job)} (${who.ruleset}, id ${who.job.id}) ${details.status}${on}${rc}${why}` };
  return m;
}

/** A query or abort event for the worker of an active job. */
export function queryEvent(who: JobIdentity, operation: QueryOperation, now: number): Message {
  const body: JobQuery = { operation, jobId: who.job.id, key: who.job.key, ruleset: who.ruleset, worker: who.worker, request: who.request };
  const m = Message.object(body, {}, { JMSTimestamp: now });
  baseProperties(m, who, now);
  m.deleteProperty('duration');
  m.setProperty(JOB_EVENT_PROPERTY, operation);
  return m;
}

/**
 * The escalation of a returned query or abort event: every property the worker left on it, with
 * `operation` set to the event's operation and a fresh duration; priority INFO unless the worker set one.
 */
export function queryResultEvent(returned: Message, who: JobIdentity, now: number): Message {
  const m = new Message({ properties: returned.properties, headers: { JMSTimestamp: now } });
  const operation = returned.getProperty(JOB_EVENT_PROPERTY) ?? 'query';
  m.deleteProperty(JOB_EVENT_PROPERTY);
  m.setProperty('operation', operation);
  if (who.job.dispatchedAt > 0) m.setProperty('duration', String(Math.max(0, now - who.job.dispatchedAt)));
  if (!m.properties.has('priority')) m.setProperty('priority', 'INFO');
  const status = m.getProperty('status');
  const progress = m.getProperty('progress');
  m.body = {
    kind: 'text',
    text: `${who.node}: job ${jobName(who.job)} (${who.ruleset}, id ${who.job.id}) ${operation} result${status ? ` status=${status}` : ''}${progress ? ` progress=${progress}` : ''}`,
  };
  return m;
}
