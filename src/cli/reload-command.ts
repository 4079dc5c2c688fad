/**
 * `xroute reload [--admin URL] [--dry-run] [--json]`: asks a running `xroute run --admin` to re-read its topology
 * file and reload it (POST /reload), and prints the receipt (formatReceipt; --json: as is). The admin token is read
 * as `xroute run` reads it (--admin-token-file, else XROUTE_ADMIN_TOKEN). Exit codes (docs/cli.md): 0 applied or
 * unchanged (a dry run: the plan would apply), 1 refused (nothing changed), 2 could not ask (usage, unreachable,
 * 401, no receipt in the answer), 3 rolled back.
 */
import { CliIo } from './commands';
import { adminBaseUrl, AdminAnswerError, adminRequestHeaders, DEFAULT_ADMIN, networkReason } from './status-command';
import type { ReloadReceipt } from '../runtime/reload-receipt';
import { formatReceipt } from '../runtime/reload-receipt-text';

/** A reload drains what it replaces (up to the drain timeout, 60 s by default): wait well past that. */
const TIMEOUT_MS = 300_000;

const EXIT_RELOAD_REFUSED = 1;
const EXIT_RELOAD_UNASKED = 2;
const EXIT_RELOAD_ROLLED_BACK = 3;

export interface ReloadCommandOptions {
  readonly admin?: string;
  readonly tokenFile?: string;
  readonly dryRun: boolean;
  readonly json: boolean;
}

function isReceipt(v: unknown): v is ReloadReceipt {
  return typeof v === 'object' && v !== null && typeof (v as ReloadReceipt).outcome === 'string' && Array.isArray((v as ReloadReceipt).components);
}

function reloadExitCode(receipt: ReloadReceipt): number {
  if (receipt.outcome === 'refused') return EXIT_RELOAD_REFUSED;
  if (receipt.outcome === 'rolled-back') return EXIT_RELOAD_ROLLED_BACK;
  return 0;
}

export async function reloadCommand(options: ReloadCommandOptions, io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const base = adminBaseUrl(options.admin ?? (env.XROUTE_ADMIN || DEFAULT_ADMIN));
  const url = `${base}/reload${options.dryRun ? '?dryRun=1' : ''}`;
  let receipt: ReloadReceipt;
  let text: string;
  try {
    const res = await fetch(url, { method: 'POST', headers: adminRequestHeaders(options.tokenFile, env), signal: AbortSignal.timeout(TIMEOUT_MS) });
    text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!isReceipt(body)) throw new AdminAnswerError(res.status, text);
    receipt = body;
  } catch (e) {
    io.stderr.write(`xroute reload: cannot reload through ${base}/reload: ${networkReason(e)}\n`);
    return EXIT_RELOAD_UNASKED;
  }
  io.stdout.write(options.json ? text : formatReceipt(receipt) + '\n');
  return reloadExitCode(receipt);
}
