/**
 * "Drain then stop" (docs/operations.md#stopping): what a component is asked when the flow, or one component,
 * stops. A receiver stops taking deliveries but keeps its connection until everything it handed downstream is
 * done and settled, or the deadline passes; a node stops starting work. Only what is still unfinished at the
 * deadline is given back to the broker.
 */

/** Running work at a stop: let it finish until the deadline ("wait"), or end it now and give it back ("kill"). */
export type OnStop = 'wait' | 'kill';
export const ON_STOP_MODES: readonly OnStop[] = ['wait', 'kill'];

/**
 * Default drain deadline. 60 s: long enough for a typical job (a short script, a file transfer) to finish and be
 * acknowledged, and within what process managers allow by default after SIGTERM (systemd 90 s; Kubernetes'
 * terminationGracePeriodSeconds is 30 s, so raise it or pass --drain-timeout there).
 */
export const DEFAULT_DRAIN_TIMEOUT_MS = 60_000;

export interface DrainRequest {
  /** Epoch ms: what is not done by then is given back to the broker. */
  readonly deadline: number;
  readonly onStop: OnStop;
  /**
   * A reload replaces the component (docs/operations.md#changing-a-running-flow): Behaviour.handOver follows the
   * drain, so work that can go on in the next incarnation is handed over rather than given back.
   */
  readonly forReplace?: boolean;
}

/** What a receiver settled during its drain. */
export interface DrainReport {
  /** Deliveries handed downstream before the stop and acknowledged during the drain. */
  readonly acknowledged: number;
  /** Deliveries given back to the broker unacknowledged (not taken downstream, or unfinished at the deadline). */
  readonly returned: number;
}

export function addReports(reports: readonly (DrainReport | undefined)[]): DrainReport | undefined {
  const given = reports.filter((r): r is DrainReport => r !== undefined);
  if (given.length === 0) return undefined;
  return { acknowledged: given.reduce((n, r) => n + r.acknowledged, 0), returned: given.reduce((n, r) => n + r.returned, 0) };
}

/**
 * How often a reload's swap looks whether a drained component is done and a new one ready, and a replaced receiver
 * whether what it handed downstream is settled: the pause of a swap grows with it (20 ms cost a receiver's swap
 * up to 20 ms more, 10 ms on average).
 */
export const SWAP_POLL_MS = 5;

/** Resolves once `done()` is true, or at the deadline; polls every `everyMs`. `step` runs before each check. */
export async function untilDoneOrDeadline(deadline: number, done: () => boolean, step: () => void = () => undefined, everyMs = 20): Promise<boolean> {
  for (;;) {
    step();
    if (done()) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await new Promise((r) => setTimeout(r, Math.min(everyMs, left)));
  }
}
