/**
 * Supervision policy as configuration (docs/topology.md, docs/operations.md): a flow-level default
 * and a per-component override, e.g.
 *   "Supervision": {"Strategy": "restart", "MaxRetry": "5", "WithinSeconds": "60", "Backoff": "200,30000",
 *                   "OnGiveUp": "restart", "GiveUpBackoff": "1000,300000", "FatalRetrySeconds": "30"}
 * Strategy/MaxRetry/WithinSeconds/Backoff are the component's own policy; OnGiveUp/GiveUpBackoff say what
 * the flow supervisor does once that policy is exhausted; FatalRetrySeconds paces connection retries after
 * an error fast retrying cannot cure (wrong credentials, a failed passive check, a TLS error).
 */
import { BackoffOptions, DEFAULT_JITTER, parseBackoff } from '../foundation/backoff';
import { closest } from '../foundation/did-you-mean';
import { integerAtLeast } from '../foundation/integer-text';
import { SupervisionConfigError } from './errors';

export type Strategy = 'restart' | 'resume' | 'stop' | 'escalate';
const STRATEGIES: readonly Strategy[] = ['restart', 'resume', 'stop', 'escalate'];

/** What the flow supervisor does with a component that exhausted its own policy. */
type GiveUpAction = 'restart' | 'exit';
const GIVE_UP_ACTIONS: readonly GiveUpAction[] = ['restart', 'exit'];

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
  /** restart: the flow starts the component again after `giveUpBackoff`, forever; exit: drain and exit non-zero. */
  readonly onGiveUp: GiveUpAction;
  readonly giveUpBackoff: BackoffOptions;
  /** Delay between connection attempts after a fatal connect error. */
  readonly fatalRetryMs: number;
}

export const DEFAULT_POLICY: SupervisionPolicy = Object.freeze({
  strategy: 'restart',
  maxRetry: 5,
  withinMs: 60_000,
  backoff: Object.freeze({ minMs: 200, maxMs: 30_000 }),
  maxMessageAttempts: 3,
  onGiveUp: 'restart',
  giveUpBackoff: Object.freeze({ minMs: 1000, maxMs: 300_000, jitter: DEFAULT_JITTER }),
  fatalRetryMs: 30_000,
});

const SUPERVISION_KEYS = ['Strategy', 'MaxRetry', 'WithinSeconds', 'Backoff', 'MaxMessageAttempts', 'OnGiveUp', 'GiveUpBackoff', 'FatalRetrySeconds'] as const;
export type SupervisionConfig = Partial<Record<(typeof SUPERVISION_KEYS)[number], string>>;

function positiveInt(name: string, v: string | undefined, fallback: number, allowZero = false): number {
  if (v === undefined) return fallback;
  const n = integerAtLeast(v, allowZero ? 0 : 1);
  if (n === undefined) throw new SupervisionConfigError(name, v, allowZero ? 'an integer >= 0' : 'an integer > 0');
  return n;
}

/** Merges a configuration map over a base policy (the flow default over DEFAULT_POLICY, a component's over the flow's). */
export function parseSupervision(config: SupervisionConfig | undefined, base: SupervisionPolicy = DEFAULT_POLICY): SupervisionPolicy {
  if (config === undefined) return base;
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    throw new SupervisionConfigError('', config, `a map with ${SUPERVISION_KEYS.join(', ')}`);
  for (const [key, value] of Object.entries(config)) {
    if (!(SUPERVISION_KEYS as readonly string[]).includes(key)) {
      const guess = closest(key, SUPERVISION_KEYS);
      throw new SupervisionConfigError(key, value, `one of the keys ${SUPERVISION_KEYS.join(', ')}${guess ? ` (did you mean ${guess}?)` : ''}`);
    }
    if (typeof value !== 'string') throw new SupervisionConfigError(key, value, 'a string, as every value of a topology');
  }
  const strategy = config.Strategy === undefined ? base.strategy : (config.Strategy.trim().toLowerCase() as Strategy);
  if (!STRATEGIES.includes(strategy)) throw new SupervisionConfigError('Strategy', config.Strategy, STRATEGIES.join(', '));
  const onGiveUp = config.OnGiveUp === undefined ? base.onGiveUp : (config.OnGiveUp.trim().toLowerCase() as GiveUpAction);
  if (!GIVE_UP_ACTIONS.includes(onGiveUp)) throw new SupervisionConfigError('OnGiveUp', config.OnGiveUp, GIVE_UP_ACTIONS.map((a) => `"${a}"`).join(' or '));
  return {
    strategy,
    maxRetry: positiveInt('MaxRetry', config.MaxRetry, base.maxRetry, true),
    withinMs: positiveInt('WithinSeconds', config.WithinSeconds, base.withinMs / 1000) * 1000,
    backoff: backoffSetting('Backoff', config.Backoff, base.backoff),
    maxMessageAttempts: positiveInt('MaxMessageAttempts', config.MaxMessageAttempts, base.maxMessageAttempts),
    onGiveUp,
    giveUpBackoff: backoffSetting('GiveUpBackoff', config.GiveUpBackoff, base.giveUpBackoff),
    fatalRetryMs: positiveInt('FatalRetrySeconds', config.FatalRetrySeconds, base.fatalRetryMs / 1000) * 1000,
  };
}

function backoffSetting(name: string, text: string | undefined, base: BackoffOptions): BackoffOptions {
  try {
    return parseBackoff(text, base);
  } catch (e) {
    throw new SupervisionConfigError(name, text, '"minMs,maxMs" with min <= max, e.g. "1000,300000"', e);
  }
}
