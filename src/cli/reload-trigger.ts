/**
 * The one path every reload trigger of `xroute run` takes (docs/operations.md#changing-a-running-flow): --watch,
 * SIGHUP and POST /reload (`xroute reload`). It re-reads the topology file and builds it completely; a file that
 * does not validate gives a `refused` receipt whose error is exactly what `xroute validate FILE` prints, and the
 * flow is not touched. Otherwise the flow reloads it (flow.reload). Reloads run one after another; each receipt
 * is logged and published (the admin endpoint pushes it on /events as an event named `reload`): the flow's own
 * receipts by the flow (flow.onReload), those of a file refused here by this path.
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
import { validateFile } from './validate-file';

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
function refusedReceipt(flow: string, trigger: ReloadTrigger, dryRun: boolean, error: string): ReloadReceipt {
  return { id: randomUUID(), flow, trigger, dryRun, outcome: 'refused', startedAt: Date.now(), swapMs: 0, redelivered: 0, components: [], links: [], error };
}

/** Logs a refusal as the flow logs its own receipts (flow-reload.ts): one structured warning with the receipt. */
function logRefusal(logger: Logger, receipt: ReloadReceipt): void {
  logger.warn(`reload ${receipt.outcome}`, { flow: receipt.flow, receipt });
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
    /**
     * Each receipt of a reload refused here, before the flow saw it, once logged (the admin endpoint's /events).
     * The flow logs its own receipts and hands them to its onReload listeners.
     */
    private readonly publish: (receipt: ReloadReceipt) => void = () => undefined,
    /** Each topology read without a problem, before the flow reloads it (--watch follows the files it references). */
    private readonly onRead: (topology: Topology) => void = () => undefined,
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
    const read = this.closed ? { error: 'the flow is stopping' } : readTopologyFile(this.file, this.registry);
    if ('topology' in read) {
      this.onRead(read.topology);
      return this.flow.reload(read.topology, { trigger, dryRun });
    }
    const receipt = refusedReceipt(this.flow.name, trigger, dryRun, read.error);
    logRefusal(this.logger, receipt);
    this.publish(receipt);
    return receipt;
  }
}
