/**
 * The public surface of actors/nodes: the node components and the job-event protocol JobNode speaks
 * with its workers and escalation readers.
 * Other actor folders import only the names listed here, each from the module that defines it, never through this
 * index (eslint.config.mjs reads this list and enforces both); the registry, actors/index.ts, and tests import it.
 */
export { jobNodeComponent } from './job-node';
export { collectNodeComponent } from './collect-node';
export { JOB_EVENT_PROPERTY, isJobQuery } from './job-event-protocol';
export type { JobQuery, QueryOperation } from './job-event-protocol';
