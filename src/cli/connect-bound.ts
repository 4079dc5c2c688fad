/**
 * The bound on how long `xroute run` waits for what a flow cannot reach (docs/cli.md, --connect-timeout): a
 * component that stays RETRYING or FAILED (cannot connect, a refused login, a crash loop) for that long ends
 * the run. It applies by default to a batch flow, whose receivers all read a file or stdin to its end: a
 * batch that cannot deliver must fail rather than retry for ever. A service retries until it is stopped,
 * unless --connect-timeout is given.
 */
import { Topology } from '../config/topology';
import { Flow } from '../runtime/flow';

/** --connect-timeout of a batch flow when none is given. */
export const DEFAULT_CONNECT_TIMEOUT_S = 30;

/** Exit code of `xroute run` when a component could not reach its broker (or peer, or file) within the bound. */
export const EXIT_UNREACHABLE = 4;

/** A batch: it has receivers, and every one reads a file or stdin to its end. */
export function isBatchFlow(topology: Topology): boolean {
  const receivers = topology.components.filter((c) => c.role === 'receiver');
  return receivers.length > 0 && receivers.every((c) => c.definition.readsToEnd?.(c.config, c.baseDir) === true);
}

/** The bound in ms: the given --connect-timeout (0 = none), else the default for a batch not kept running. */
export function connectBoundMs(topology: Topology, given: number | undefined, keepRunning: boolean): number | undefined {
  if (given !== undefined) return given > 0 ? given * 1000 : undefined;
  return !keepRunning && isBatchFlow(topology) ? DEFAULT_CONNECT_TIMEOUT_S * 1000 : undefined;
}

export interface Unreachable {
  readonly component: string;
  readonly status: string;
  /** Why, as the status shows it (masked). */
  readonly detail?: string;
  readonly forMs: number;
}

const UNREACHABLE_STATES = new Set(['RETRYING', 'FAILED']);

/** Resolves with the first component that has been RETRYING or FAILED without a break for `boundMs`. */
export function whenUnreachable(flow: Flow, boundMs: number, pollMs = 250): { unreachable: Promise<Unreachable>; cancel: () => void } {
  const since = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  const unreachable = new Promise<Unreachable>((resolve) => {
    timer = setInterval(() => {
      const now = Date.now();
      for (const c of flow.status().components) {
        if (!UNREACHABLE_STATES.has(c.status)) {
          since.delete(c.name);
          continue;
        }
        const from = since.get(c.name) ?? now;
        since.set(c.name, from);
        if (now - from >= boundMs) {
          clearInterval(timer);
          resolve({ component: c.name, status: c.status, detail: c.detail, forMs: now - from });
          return;
        }
      }
    }, pollMs);
  });
  return { unreachable, cancel: () => clearInterval(timer) };
}
