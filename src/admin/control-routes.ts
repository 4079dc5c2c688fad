/**
 * The admin routes that change a running flow (admin-server.ts calls them once admin-auth.ts let the request in):
 *   POST /reload[?dryRun=1]                     re-read the topology file and reload it; the receipt as JSON
 *   POST /components/NAME/pause|resume|restart  QBroker's admin disable/enable/restart of one component
 * Every answer is JSON; the caller masks it.
 */
import { Flow } from '../runtime/flow';
import { ReloadReceipt } from '../runtime/reload-receipt';
import { Logger } from '../logging/logger';
import { redactText } from '../logging/redact';
import { UnknownComponentError, FlowStoppingError } from '../runtime/errors';

/** The one reload path of the process (it re-reads the topology file); given by whoever started the flow. */
export interface ReloadControl {
  reload(options: { readonly dryRun: boolean }): Promise<ReloadReceipt>;
}

export interface ControlAnswer {
  readonly code: number;
  readonly body: unknown;
}

const ACTIONS = ['pause', 'resume', 'restart'] as const;
type ComponentAction = (typeof ACTIONS)[number];

/** HTTP status of a reload's receipt: the body is the receipt in every case. */
function reloadCode(receipt: ReloadReceipt): number {
  if (receipt.outcome === 'refused') return 422;
  if (receipt.outcome === 'rolled-back') return 500;
  return 200;
}

/** `?dryRun=1` (or true, yes); anything else that is given is a mistake worth naming. */
function dryRunOf(params: URLSearchParams): boolean | string {
  const v = params.get('dryRun');
  if (v === null) return false;
  if (['1', 'true', 'yes', ''].includes(v.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(v.toLowerCase())) return false;
  return `dryRun=${v}: expected 1 or 0`;
}

/** Answers one POST route; never rejects. */
export async function controlRoute(
  flow: Flow,
  control: ReloadControl | undefined,
  route: string,
  params: URLSearchParams,
  logger: Logger,
): Promise<ControlAnswer> {
  try {
    if (route === '/reload') {
      if (control === undefined) return { code: 501, body: { error: 'this flow was not started from a topology file: reload it with flow.reload(topology)' } };
      const dryRun = dryRunOf(params);
      if (typeof dryRun === 'string') return { code: 400, body: { error: dryRun } };
      const receipt = await control.reload({ dryRun });
      return { code: reloadCode(receipt), body: receipt };
    }
    const m = /^\/components\/([^/]+)\/([^/]+)$/.exec(route);
    if (m === null)
      return { code: 404, body: { error: `no route POST ${route}; routes: POST /reload[?dryRun=1], POST /components/NAME/pause|resume|restart` } };
    let name: string;
    try {
      name = decodeURIComponent(m[1]);
    } catch {
      return { code: 400, body: { error: `component name ${JSON.stringify(m[1])}: not valid percent-encoding` } };
    }
    const action = m[2] as ComponentAction;
    if (!(ACTIONS as readonly string[]).includes(action))
      return { code: 404, body: { error: `no action ${JSON.stringify(action)} on a component; actions: ${ACTIONS.join(', ')}` } };
    logger.info(`admin: ${action} ${name}`, { component: name, action });
    const drained = action === 'pause' ? await flow.pause(name) : action === 'restart' ? await flow.restart(name) : await flow.resume(name);
    const status = flow.status().components.find((c) => c.name === name);
    return { code: 200, body: { component: name, action, status: status?.status, ...(drained !== undefined ? { drained } : {}) } };
  } catch (e) {
    if (e instanceof UnknownComponentError) return { code: 404, body: { error: e.message } };
    if (e instanceof FlowStoppingError) return { code: 409, body: { error: e.message } };
    const error = redactText(e instanceof Error ? e.message : String(e));
    logger.error('admin route failed', { route, error });
    return { code: 500, body: { error } };
  }
}
