/**
 * Supervision policy as configuration (design.md "Actors and supervision"): a flow-level default
 * and a per-component override, e.g.
 *   "Supervision": {"Strategy": "restart", "MaxRetry": "5", "WithinSeconds": "60", "Backoff": "200,30000"}
 */
import { BackoffOptions, parseBackoff } from './backoff';

export type Strategy = 'restart' | 'resume' | 'stop' | 'escalate';
export const STRATEGIES: readonly Strategy[] = ['restart', 'resume', 'stop', 'escalate'];

export interface SupervisionPolicy {
  readonly strategy: Strategy;
  /** Crashes tolerated within `withinMs`; one more escalates to the parent. */
  readonly maxRetry: number;
  readonly withinMs: number;
  /** Delay before each restart. */
  readonly backoff: BackoffOptions;
  /**
   * How many times one message may crash its consumer before it is removed with outcome "failed"
   * (the producer then decides: a receiver nacks it back to the broker). Prevents a poison message
   * from crashing a component forever.
   */
  readonly maxMessageAttempts: number;
}

export const DEFAULT_POLICY: SupervisionPolicy = Object.freeze({
  strategy: 'restart',
  maxRetry: 5,
  withinMs: 60_000,
  backoff: Object.freeze({ minMs: 200, maxMs: 30_000 }),
  maxMessageAttempts: 3,
});

export class SupervisionConfigError extends Error {
  constructor(
    readonly property: string,
    readonly value: unknown,
    readonly expected: string,
  ) {
    super(`Supervision.${property} ${JSON.stringify(value)}: expected ${expected}`);
    this.name = 'SupervisionConfigError';
  }
}

export type SupervisionConfig = Partial<Record<'Strategy' | 'MaxRetry' | 'WithinSeconds' | 'Backoff' | 'MaxMessageAttempts', string>>;

function positiveInt(name: string, v: string | undefined, fallback: number, allowZero = false): number {
  if (v === undefined) return fallback;
  if (!/^\s*\d+\s*$/.test(v) || (!allowZero && Number(v) === 0)) throw new SupervisionConfigError(name, v, allowZero ? 'an integer >= 0' : 'an integer > 0');
  return Number(v);
}

/** Merges a configuration map over a base policy (the flow default over DEFAULT_POLICY, a component's over the flow's). */
export function parseSupervision(config: SupervisionConfig | undefined, base: SupervisionPolicy = DEFAULT_POLICY): SupervisionPolicy {
  if (config === undefined) return base;
  const strategy = config.Strategy === undefined ? base.strategy : (config.Strategy.trim().toLowerCase() as Strategy);
  if (!STRATEGIES.includes(strategy)) throw new SupervisionConfigError('Strategy', config.Strategy, STRATEGIES.join(', '));
  let backoff: BackoffOptions;
  try {
    backoff = parseBackoff(config.Backoff, base.backoff);
  } catch (e) {
    throw new SupervisionConfigError('Backoff', config.Backoff, '"minMs,maxMs" with min <= max');
  }
  return {
    strategy,
    maxRetry: positiveInt('MaxRetry', config.MaxRetry, base.maxRetry, true),
    withinMs: positiveInt('WithinSeconds', config.WithinSeconds, base.withinMs / 1000) * 1000,
    backoff,
    maxMessageAttempts: positiveInt('MaxMessageAttempts', config.MaxMessageAttempts, base.maxMessageAttempts),
  };
}
