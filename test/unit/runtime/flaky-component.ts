/** A test-only persister that crashes on purpose while its switch is on, for the flow supervisor tests. */
import { AnyComponentDefinition, ComponentRegistry } from '../../../src/runtime/component';
import { Flow, FlowOptions } from '../../../src/runtime/flow';
import { startTestFlow } from '../../support/flow-harness';
import { forwardNode, idleReceiver, upperPersister } from '../config/fake-components';

export interface Switch {
  broken: boolean;
  starts: number;
}

/** Crashes at start while `sw.broken`; otherwise RUNNING, removing every message as done. */
export function flakyPersister(sw: Switch): AnyComponentDefinition {
  return {
    className: 'persister.FlakyPersister',
    role: 'persister',
    operations: ['store'],
    description: 'test persister that fails while broken',
    schema: { properties: {} },
    create: (env) => ({
      start(ctx) {
        sw.starts++;
        if (sw.broken) throw new Error('injected fault: disk on fire');
        env.status.set('RUNNING');
        ctx.consume(env.input!, (taken, q) => {
          q.remove(taken);
        });
      },
      // Any message told to it is a crash whose text quotes a configured password, as a broker error might.
      receive() {
        throw new Error(`injected fault: login amqp://xroute:${String(env.config.Password ?? 'Sup3rSecretPw')}@broker.example/ refused`);
      },
    }),
  };
}

export function flakyRegistry(sw: Switch): ComponentRegistry {
  return new ComponentRegistry([idleReceiver, forwardNode, upperPersister, flakyPersister(sw)]);
}

/** receiver -> root -> flaky persister; the component's own policy gives up after one restart. */
export function flakyTopologyJson(supervision: Record<string, string> = {}): Record<string, unknown> {
  return {
    Name: 'flaky',
    Supervision: { MaxRetry: '1', WithinSeconds: '60', Backoff: '10,20', GiveUpBackoff: '100,400', ...supervision },
    Receiver: ['rcvr'],
    Persister: ['pstr'],
    rcvr: { ClassName: 'receiver.IdleReceiver', LinkName: 'root' },
    pstr: { ClassName: 'persister.FlakyPersister', LinkName: 'root', Capacity: '8' },
  };
}

/** The flow of flakyTopologyJson(supervision), started over flakyRegistry(sw). */
export function startFlakyFlow(sw: Switch, supervision: Record<string, string> = {}, options: Omit<FlowOptions, 'registry'> = {}): Flow {
  return startTestFlow(flakyTopologyJson(supervision), flakyRegistry(sw), options);
}
