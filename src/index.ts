/**
 * The public API of xroute, what `import ... from 'xroute-broker'` gives: the message model, links (XQueue), the flow and
 * its topology loader, configuration errors, the logger, the component registry and the pool client. Runtime
 * internals (the actor wrapper, the component definitions, supervision and partition parsers) are in
 * `xroute-broker/internal` (src/internal.ts). docs/api.md describes both.
 */
export { Message, MessageFieldError, HEADER_NAMES } from './message/message';
export type { MessageBody, MessageHeaders, HeaderName, MapValue } from './message/message';
export { messageFromJson, messageToJson, MessageJsonError } from './message/json-form';
export type { MessageJson } from './message/json-form';
export { XQueue } from './xqueue/xqueue';
export type { Outcome, DoneCallback, QueueState, Taken, CellSlot, XQueueStats } from './xqueue/xqueue';
export { XQueueStoppedError, PartitionError } from './xqueue/errors';
export { Flow, DEFAULT_MAX_WAITING_SENDS } from './runtime/flow';
export { UnknownLinkError, UnknownComponentError, FlowStoppingError, QueueFullError, UnknownComponentClassError } from './runtime/errors';
export { DEFAULT_DRAIN_TIMEOUT_MS, ON_STOP_MODES } from './runtime/drain';
export type { OnStop, DrainReport } from './runtime/drain';
export type { FlowStatus, ComponentView, ComponentStatusView, LinkStatusView, StopOptions } from './runtime/flow';
export { formatReceipt } from './runtime/reload-receipt-text';
export { referencedFiles } from './runtime/referenced-files';
export { DEFAULT_RELOAD_READY_TIMEOUT_MS } from './runtime/flow-reload';
export type {
  ReloadReceipt,
  ReloadPlan,
  ReloadOptions,
  ReloadOutcome,
  ReloadTrigger,
  ComponentChange,
  ComponentAction,
  LinkChange,
  LinkAction,
} from './runtime/reload-receipt';
export { ComponentRegistry } from './runtime/component';
export type { ComponentStatus, StatusSnapshot } from './runtime/component';
export { loadTopology, buildTopology } from './config/topology';
export type { Topology, ComponentSpec, LinkSpec } from './runtime/topology-types';
export { ConfigError, JsonSyntaxError, formatProblem } from './config/errors';
export { ConfigValueError } from './errors/config-value-error';
export { XrouteError } from './foundation/xroute-error';
export type { ConfigProblem } from './errors/config-problem';
export { createLogger } from './logging/logger';
export type { Logger } from './logging/logger';
export { defaultRegistry } from '../actors';
export { PoolClient } from '../actors/pools/pool-client';
export type { PoolRequest, PoolClientOptions } from '../actors/pools/pool-client';
export { PoolHandle } from '../actors/pools/pool-handle';
export type { HandleState, HandleStatus } from '../actors/pools/pool-handle';
export { PoolRequestError } from '../actors/pools/pool-request';
