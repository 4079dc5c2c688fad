/**
 * Tells when a running flow has finished by itself: every receiver has come to the end of its input
 * (a file read to the end, a peer that closed: the receiver reports STOPPED on its own) and nothing is
 * left anywhere downstream (every link empty, nothing in flight or reserved). A receiver that never ends
 * (a broker queue, a daemon-mode stream) keeps the flow running until a signal, and so does a pool (its
 * children work on transmit queues of their own, outside the flow's links).
 *
 * Links are sampled; the flow counts as finished only when two samples `pollMs` apart agree and no link
 * counted any traffic in between, so a component that is about to write (JobNode's notice after a job
 * ends, a worker's reply) is not cut off in the instant between one removal and the next put.
 */
import { Flow } from '../runtime/flow';
import { Clock, ClockTimer, REAL_CLOCK } from '../runtime/clock';

/** A pool's children work on transmit queues of their own, outside the flow's links: their work is not visible here. */
const POOL_CLASSES = new Set(['persister.PersisterPool', 'persister.ReceiverPool']);

function receiversAllEnded(flow: Flow): boolean {
  if (flow.topology.components.some((c) => POOL_CLASSES.has(c.definition.className))) return false;
  const receivers = flow.topology.components.filter((c) => c.role === 'receiver');
  return receivers.length > 0 && receivers.every((c) => flow.component(c.name)?.status.status === 'STOPPED');
}

/** A fingerprint of the links' traffic, or undefined while any link holds or expects a message. */
function quietLinks(flow: Flow): string | undefined {
  const links = flow.status().links;
  if (links.some((l) => l.size > 0 || l.reserved > 0 || l.waitingProducers > 0)) return undefined;
  return links.map((l) => `${l.totalAdded}/${l.totalRemoved}/${l.totalFailed}/${l.totalPutback}`).join(',');
}

/**
 * Resolves once the flow has finished by itself (see above); never resolves for a flow with a receiver
 * that does not end, or with no receiver at all. `cancel()` stops watching.
 */
export function whenFlowFinished(flow: Flow, pollMs = 250, clock: Clock = REAL_CLOCK): { finished: Promise<void>; cancel: () => void } {
  let timer: ClockTimer | undefined;
  let cancelled = false;
  let previous: string | undefined;
  const finished = new Promise<void>((resolve) => {
    const sample = (): void => {
      timer = undefined;
      if (cancelled) return;
      const now = receiversAllEnded(flow) ? quietLinks(flow) : undefined;
      if (now !== undefined && now === previous) return resolve();
      previous = now;
      timer = clock.set(sample, pollMs);
    };
    timer = clock.set(sample, pollMs);
  });
  const cancel = (): void => {
    cancelled = true;
    clock.clear(timer);
  };
  return { finished, cancel };
}
