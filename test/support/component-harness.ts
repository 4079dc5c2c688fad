/**
 * Runs one component as an actor with real XQueues, without a topology file: what unit and integration
 * tests of a single component use. `stop()` stops the actor runtime (and so every timer of the component).
 */
import { ActorRef, ActorRuntime } from '../../src/runtime/actor';
import { Clock } from '../../src/runtime/clock';
import { AnyComponentDefinition, ComponentConfig, ComponentEnv, ComponentRegistry, StatusReporter, createBehaviour } from '../../src/runtime/component';
import { DEFAULT_POLICY, SupervisionPolicy } from '../../src/runtime/supervision-policy';
import { Logger, memoryLogger, LogEntry } from '../../src/logging/logger';
import { Message } from '../../src/message/message';
import { XQueue } from '../../src/xqueue/xqueue';

export { waitFor } from './wait';

export interface HarnessOptions {
  config: ComponentConfig;
  input?: XQueue<Message>;
  output?: XQueue<Message>;
  outlinks?: XQueue<Message>[];
  baseDir?: string;
  pluginDirs?: string[];
  policy?: SupervisionPolicy;
  registry?: ComponentRegistry;
  logger?: Logger;
  /** The actor runtime's clock: a VirtualClock for a test in virtual time (default: the real clock). */
  clock?: Clock;
}

export interface Harness {
  runtime: ActorRuntime;
  actor: ActorRef<never>;
  env: ComponentEnv;
  status: StatusReporter;
  logs: LogEntry[];
  stop(): Promise<void>;
}

export function runComponent(def: AnyComponentDefinition, options: HarnessOptions): Harness {
  const logs: LogEntry[] = [];
  const logger = options.logger ?? memoryLogger(logs);
  const runtime = new ActorRuntime('test', logger, options.clock);
  const status = new StatusReporter();
  const name = typeof options.config.Name === 'string' ? options.config.Name : def.className;
  const env: ComponentEnv = {
    name,
    className: def.className,
    config: options.config,
    input: options.input,
    output: options.output,
    outlinks: options.outlinks ?? [],
    baseDir: options.baseDir ?? process.cwd(),
    pluginDirs: options.pluginDirs ?? [],
    logger: logger.child({ component: name }),
    status,
    registry: options.registry ?? new ComponentRegistry([def]),
  };
  const actor = runtime.spawn<never>(name, () => createBehaviour(def, env), { policy: options.policy ?? DEFAULT_POLICY, logger: env.logger });
  return { runtime, actor, env, status, logs, stop: () => runtime.stop() };
}
