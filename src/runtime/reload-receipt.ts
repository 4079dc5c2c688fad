/**
 * What a reload of a running flow did (docs/operations.md#changing-a-running-flow): the plan, per component and
 * per link, and what applying it cost. One shape for every trigger (the API's flow.reload, `xroute run --watch`,
 * SIGHUP, `xroute reload` through the admin endpoint): returned, printed, logged and pushed on /events.
 */

/**
 * The StatusReporter counter in which receivers count deliveries their broker flagged redelivered: a reload's
 * receipt reports how many arrived during its swap (ReloadReceipt.redelivered).
 */
export const REDELIVERED_COUNTER = 'redelivered';

/** What a reload does to one component, compared by name on its normalised configuration and referenced files. */
export type ComponentAction = 'kept' | 'replaced' | 'added' | 'removed';

/** What a reload does to one link. A resized link keeps what it holds. */
export type LinkAction = 'kept' | 'resized' | 'added' | 'removed';

/** Which way a reload was asked for. */
export type ReloadTrigger = 'api' | 'watch' | 'signal' | 'admin';

/**
 * applied: the plan ran to its end. unchanged: nothing differed. refused: the new topology was invalid (or the
 * plan is not allowed) and nothing was touched. rolled-back: a step failed midway and what had changed was put
 * back to its previous definition.
 */
export type ReloadOutcome = 'applied' | 'unchanged' | 'refused' | 'rolled-back';

export interface ComponentChange {
  readonly name: string;
  readonly className: string;
  readonly action: ComponentAction;
  /** For replaced: what differs, e.g. "Ruleset/0/Threshold" or "TemplateFile content". */
  readonly changed?: readonly string[];
  /** Messages the old incarnation finished (acknowledged) while it drained, and gave back. */
  readonly drained?: { readonly acknowledged: number; readonly returned: number };
  /** Milliseconds from the drain's start to the new incarnation being ready. */
  readonly swapMs?: number;
}

export interface LinkChange {
  readonly name: string;
  readonly action: LinkAction;
  readonly capacity: { readonly from?: number; readonly to?: number };
  /** Messages the link held when it changed (kept, never cleared). */
  readonly held?: number;
}

export interface ReloadPlan {
  readonly flow: string;
  readonly components: readonly ComponentChange[];
  readonly links: readonly LinkChange[];
}

export interface ReloadReceipt extends ReloadPlan {
  /** Unique per reload, for logs and /events. */
  readonly id: string;
  readonly trigger: ReloadTrigger;
  readonly dryRun: boolean;
  readonly outcome: ReloadOutcome;
  /** Epoch ms. */
  readonly startedAt: number;
  /** Milliseconds from the first drain to the last new incarnation ready (0 for a dry run). */
  readonly swapMs: number;
  /** Deliveries a broker redelivered to xroute during the swap (expected 0). */
  readonly redelivered: number;
  /** Why it was refused or rolled back: file, component, property and what was expected. */
  readonly error?: string;
}

export interface ReloadOptions {
  /** Print the plan, change nothing. */
  readonly dryRun?: boolean;
  readonly trigger?: ReloadTrigger;
  /** Deadline for each drained component (default the stop's drain timeout). */
  readonly drainMs?: number;
  /** A new incarnation that does not become ready by then rolls the reload back. */
  readonly readyTimeoutMs?: number;
}
