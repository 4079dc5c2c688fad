/** A test-only persister the pool can spawn: records every configuration it is built from and crashes on demand. */
import { ComponentConfig, ComponentDefinition } from '../../../src/runtime/component';

export interface FlakyLog {
  /** The config of every behaviour created (the first, then one per restart). */
  built: ComponentConfig[];
  crashedOnce: boolean;
}

/**
 * persister.FlakyPersister: removes each message; a message with property crash=once crashes it the
 * first time; config CrashOnStart=true crashes every start (before it consumes anything).
 */
export function flakyPersister(log: FlakyLog): ComponentDefinition<never> {
  return {
    className: 'persister.FlakyPersister',
    role: 'persister',
    operations: ['write'],
    description: 'test persister',
    schema: { type: 'object' },
    create(env) {
      log.built.push(env.config);
      return {
        start(ctx) {
          if (env.config.CrashOnStart === 'true') throw new Error('cannot start');
          env.status.set('RUNNING');
          ctx.consume(env.input!, (taken, q) => {
            if (taken.item.getProperty('crash') === 'once' && !log.crashedOnce) {
              log.crashedOnce = true;
              throw new Error('crash on demand');
            }
            q.remove(taken);
          });
        },
      };
    },
  };
}
