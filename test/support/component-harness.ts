/**
 * Runs one component as an actor with real XQueues, without a topology file: what unit and integration
 * tests of a single component use. `stop()` stops the actor runtime (and so every timer of the component).
 */
import { ActorRef, ActorRuntime, HeldConsumer } from '../../src/runtime/actor';
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
  /** The running incarnation's actor (a new one after replace()). */
  actor: ActorRef<never>;
  env: ComponentEnv;
  status: StatusReporter;
  logs: LogEntry[];
  /**
   * Replaces the component by one on `config`, as flow.reload does to one component (src/runtime/flow-reload.ts):
   * asks refuseReplace with the new settings (a refusal changes nothing and is returned), drains it for a
   * replacement, takes its handOver, stops it, and starts the new one with the handed-over state as env.inherited
   * and the messages it held to adopt. `between` runs after the old incarnation stopped and before the new one
   * starts (what happens while a reload swaps them).
   */
  replace(config: ComponentConfig, options?: { drainMs?: number; between?: () => void }): Promise<{ refused?: string }>;
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
  const spawn = (on: ComponentEnv, adopt?: readonly HeldConsumer[]): ActorRef<never> =>
    runtime.spawn<never>(name, () => createBehaviour(def, on), {
      policy: options.policy ?? DEFAULT_POLICY,
      logger: on.logger,
      ...(adopt !== undefined ? { adopt } : {}),
    });
  const harness: Harness = {
    runtime,
    actor: spawn(env),
    env,
    status,
    logs,
    async replace(config, { drainMs = 5_000, between } = {}) {
      const old = harness.actor;
      const settings = def.settings?.(name, config, harness.env.baseDir, { pluginDirs: harness.env.pluginDirs, registry: harness.env.registry });
      const refused = await old.refuseReplace(settings);
      if (refused !== undefined) return { refused };
      await old.drain({ deadline: Date.now() + drainMs, onStop: 'wait', forReplace: true });
      old.stopTaking();
      const handed = await old.handOver();
      await old.stop();
      await old.terminated();
      between?.();
      harness.env = { ...harness.env, config, inherited: handed?.state };
      harness.actor = spawn(harness.env, handed?.consumers);
      return {};
    },
    stop: () => runtime.stop(),
  };
  return harness;
}

/** The harnesses a test file starts, each stopped after the test that started it (registers a jest afterEach hook). */
export function harnessesStoppedAfterEach(): Harness[] {
  const harnesses: Harness[] = [];
  afterEach(async () => {
    await Promise.all(harnesses.splice(0).map((h) => h.stop()));
  });
  return harnesses;
}
