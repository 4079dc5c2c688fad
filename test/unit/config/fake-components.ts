/** Minimal component definitions for loader and flow tests (real components are tested on their own). */
import { AnyComponentDefinition, ComponentRegistry } from '../../../src/runtime/component';
import { intStr, str } from '../../../src/foundation/schema-helpers';
import { Message } from '../../../src/message/message';

/** Receiver that does nothing (the tests put messages into its link themselves). */
export const idleReceiver: AnyComponentDefinition = {
  className: 'receiver.IdleReceiver',
  aliases: ['receiver.OldIdleReceiver'],
  role: 'receiver',
  operations: ['get'],
  description: 'test receiver',
  schema: { properties: { Extra: str() } },
  create: () => ({}),
};

/** Node that forwards every message to its first outlink and completes it upstream when done there. */
export const forwardNode: AnyComponentDefinition = {
  className: 'node.ForwardNode',
  role: 'node',
  operations: ['forward'],
  description: 'test node',
  schema: { properties: { OutLink: { type: 'array' }, Threshold: intStr() } },
  create: (env) => ({
    start(ctx) {
      ctx.consume(env.input!, async (taken, q) => {
        await env.outlinks[0].put(taken.item, () => q.remove(taken));
      });
    },
  }),
};

/** Persister that uppercases text bodies and removes each message at once. */
export const upperPersister: AnyComponentDefinition = {
  className: 'persister.UpperPersister',
  role: 'persister',
  operations: ['store'],
  description: 'test persister',
  schema: { properties: {} },
  create: (env) => ({
    start(ctx) {
      ctx.consume(env.input!, (taken, q) => {
        const m: Message = taken.item;
        m.setText((m.bodyText() ?? '').toUpperCase());
        q.remove(taken);
      });
    },
  }),
};

export function fakeRegistry(): ComponentRegistry {
  return new ComponentRegistry([idleReceiver, forwardNode, upperPersister]);
}
