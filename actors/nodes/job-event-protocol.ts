/**
 * The job-event protocol (docs/components/job-node.md): the messages JobNode generates - escalations
 * on its notice outlink and query/abort events on a worker outlink. Both are ordinary Messages with
 * string properties, so any downstream component (a persister, a MessageEvaluator) can read them;
 * components outside actors/nodes import this protocol through actors/nodes/index.ts.
 *
 * Escalation properties (every one a string):
 *   node       the JobNode name            category   the ruleset name
 *   name       the job key ("job-<id>" when the ruleset has no KeyTemplate)
 *   id         the job's sequence number (one meaning everywhere)
 *   operation  notice | query | abort      status     SCHEDULED | FINISHED | FAILED | EXPIRED |
 *                                                     REDISPATCHED | DUPLICATE | what the worker set
 *   worker     worker index (0 = third outlink)          workerLink  that outlink's name
 *   attempt    dispatch number (1 for the first)         progress    0, 100, or the worker's value
 *   duration   ms since the job was dispatched           reason      why (FAILED, EXPIRED, REDISPATCHED, DUPLICATE)
 *   priority   INFO | WARNING | ERR        <RCField>  the worker's return code (FINISHED, FAILED)
 *   plus the ruleset's StringProperty names copied from the request (non-empty values only) and, for
 *   query results, every property the worker set on the query event.
 * The body is a one-line text summary; JMSTimestamp is the time of the event.
 *
 * Query/abort events carry `JobEvent` = "query" or "abort" (how a worker tells them from job requests),
 * name, category, id, worker, attempt, node and the copied properties; the body is an object
 * { operation, jobId, key, ruleset, worker, request } giving the worker the request message itself.
 */
import { Message } from '../../src/message/message';

export type EscalationStatus = 'SCHEDULED' | 'FINISHED' | 'FAILED' | 'EXPIRED' | 'REDISPATCHED' | 'DUPLICATE';
export type EventPriority = 'INFO' | 'WARNING' | 'ERR';
export type QueryOperation = 'query' | 'abort';

/** Property a query or abort event carries; its value is the operation. */
export const JOB_EVENT_PROPERTY = 'JobEvent';

/** The object body of a query or abort event. */
export interface JobQuery {
  readonly operation: QueryOperation;
  readonly jobId: number;
  readonly key: string | undefined;
  readonly ruleset: string;
  readonly worker: number;
  /** The job request as the worker received it (read it, do not remove it through this reference). */
  readonly request: Message;
}

/** True when a message on a worker outlink is a query or abort event rather than a job request. */
export function isJobQuery(msg: Message): boolean {
  const op = msg.getProperty(JOB_EVENT_PROPERTY);
  return op === 'query' || op === 'abort';
}
