/**
 * The public surface of actors/nodes: the node components and the job-event protocol JobNode speaks
 * with its workers and escalation readers. Other actor folders import from here, never from a file
 * of this folder (the lint config enforces it).
 */
export { jobNodeComponent } from './job-node';
export { collectNodeComponent } from './collect-node';
export { JOB_EVENT_PROPERTY, isJobQuery } from './job-event-protocol';
export type { JobQuery, QueryOperation } from './job-event-protocol';
