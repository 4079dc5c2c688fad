/**
 * `xroute-broker/internal`: everything `xroute-broker` exports, plus the runtime internals that tools, tests and custom
 * components need but that are not a stable API (they may change in any release): the actor wrapper, the
 * component definitions and their contract, status reporting, the supervision and partition parsers.
 * docs/api.md says when to use it.
 */
export * from './index';
export { ActorRuntime } from './runtime/actor';
export type { Behaviour, ActorContext, ActorRef, HandedOver, HeldConsumer } from './runtime/actor';
export { componentFileReferences } from './runtime/referenced-files';
export type { FileReference } from './runtime/referenced-files';
export { fingerprintComponent, fingerprintTopology, planReload } from './runtime/reload-plan';
export type { ComponentFingerprint } from './runtime/reload-plan';
export { REAL_CLOCK } from './runtime/clock';
export type { Clock, ClockTimer, TimerOptions } from './runtime/clock';
export { COMPONENT_DEFINITIONS } from '../actors';
export { StatusReporter, ComponentTotals, COMPONENT_STATUS, createBehaviour, inputOf, outputOf } from './runtime/component';
export { ConfigReader, ComponentConfigError } from '../actors/support/config-values';
export { issueOf, settingsIssues } from './config/config-issues';
export type {
  ComponentDefinition,
  AnyComponentDefinition,
  ComponentEnv,
  ComponentConfig,
  ConfigValue,
  ConfigIssue,
  ValidationContext,
  JsonSchema,
  Role,
} from './runtime/component';
export { parseSupervision, DEFAULT_POLICY } from './runtime/supervision-policy';
export type { SupervisionPolicy, Strategy } from './runtime/supervision-policy';
export { parsePartition } from './xqueue/partition';
export { POOL_RC } from '../actors/pools/pool-request';
export type { PoolReturnCode } from '../actors/pools/pool-request';
