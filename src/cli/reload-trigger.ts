/**
 * The one path every reload trigger of `xroute run` takes (docs/operations.md#changing-a-running-flow): --watch,
 * SIGHUP and POST /reload (`xroute reload`). It re-reads the topology file and builds it completely; a file that
 * does not validate gives a `refused` receipt whose error is exactly what `xroute validate FILE` prints, and the
 * flow is not touched. Otherwise the flow reloads it (flow.reload). Reloads run one after another; each receipt
 * is logged and published (the admin endpoint pushes it on /events as an event named `reload`).
 */
import { randomUUID } from 'crypto';
import { readFileSync } from 'fs';
import * as path from 'path';
import { ComponentRegistry } from '../runtime/component';
import { ReloadOptions, ReloadReceipt, ReloadTrigger } from '../runtime/reload-receipt';
import { buildTopology, isTopologyJson, Topology } from '../config/topology';
import { parseJsonText } from '../config/json-file';
import { formatProblem } from '../config/errors';
import { Logger } from '../logging/logger';
import { redactText } from '../logging/redact';
import { validateFile } from './commands';

/** What the reload path needs of a running flow (Flow has it). */
export interface Reloadable {
  readonly name: string;
  reload(next: Topology, options?: ReloadOptions): Promise<ReloadReceipt>;
}

/**
 * The topology in `file`, built completely, or the error `xroute validate file` prints for it (every problem,
 * warnings included, one per line). `file` is named as given.
 */
export function readTopologyFile(file: string, registry: ComponentRegistry): { topology: Topology } | { error: string } {
  const abs = path.resolve(file);
  try {
    const json = parseJsonText(readFileSync(abs, 'utf8'), file);
    if (!isTopologyJson(json)) return { error: `${file}: a component configuration, not a topology (it has no Receiver, Node or Persister list)` };
    return { topology: buildTopology(json, abs, registry) };
  } catch (e) {
    const problems = validateFile(file, registry);
    if (problems.some((p) => p.severity === 'error')) return { error: problems.map(formatProblem).join('\n') };
    return { error: redactText(e instanceof Error ? e.message : String(e)) };
  }
}

/** The receipt of a reload refused before the flow saw it (the file did not validate). */
export function refusedReceipt(flow: string, trigger: ReloadTrigger, dryRun: boolean, error: string): ReloadReceipt {
  return { id: randomUUID(), flow, trigger, dryRun, outcome: 'refused', startedAt: Date.now(), swapMs: 0, redelivered: 0, components: [], links: [], error };
}

/** One log line per receipt: what changed, how long the swap took; a warning when it did not apply. */
export function logReceipt(logger: Logger, r: ReloadReceipt): void {
  const count = (action: string) => r.components.filter((c) => c.action === action).length;
  const fields = {
    reload: r.id,
    trigger: r.trigger,
    dryRun: r.dryRun,
    outcome: r.outcome,
    kept: count('kept'),
    replaced: count('replaced'),
    added: count('added'),
    removed: count('removed'),
    swapMs: r.swapMs,
    redelivered: r.redelivered,
    ...(r.error !== undefined ? { error: r.error } : {}),
  };
  const what = `${r.dryRun ? 'reload plan' : 'reload'} ${r.outcome}`;
  if (r.outcome === 'refused' || r.outcome === 'rolled-back') logger.warn(`${what}: ${r.error ?? ''}`, fields);
  else logger.info(what, fields);
}

export class TopologyReloader {
  private last: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly flow: Reloadable,
    /** The topology file as given to `xroute run` (errors name it so). */
    private readonly file: string,
    private readonly registry: ComponentRegistry,
    private readonly logger: Logger,
    /** Each receipt, after it is logged (the admin endpoint's /events). */
    private readonly publish: (receipt: ReloadReceipt) => void = () => undefined,
  ) {}

  /** Re-reads the file and reloads the flow; after the reloads asked for before. Never rejects. */
  reload(trigger: ReloadTrigger, options: { readonly dryRun?: boolean } = {}): Promise<ReloadReceipt> {
    const next = this.last.then(() => this.once(trigger, options.dryRun === true));
    this.last = next.catch(() => undefined);
    return next;
  }

  /** Waits for the reload under way; later ones are refused (the flow is stopping). */
  async close(): Promise<void> {
    this.closed = true;
    await this.last;
  }

  private async once(trigger: ReloadTrigger, dryRun: boolean): Promise<ReloadReceipt> {
    let receipt: ReloadReceipt;
    if (this.closed) receipt = refusedReceipt(this.flow.name, trigger, dryRun, 'the flow is stopping');
    else {
      const read = readTopologyFile(this.file, this.registry);
      try {
        receipt = 'error' in read ? refusedReceipt(this.flow.name, trigger, dryRun, read.error) : await this.flow.reload(read.topology, { trigger, dryRun });
      } catch (e) {
        receipt = refusedReceipt(this.flow.name, trigger, dryRun, redactText(e instanceof Error ? e.message : String(e)));
      }
    }
    logReceipt(this.logger, receipt);
    this.publish(receipt);
    return receipt;
  }
}
