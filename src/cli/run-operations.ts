/**
 * The operational side of `xroute run`: the admin endpoint (--admin HOST:PORT or XROUTE_ADMIN), the
 * periodic totals (--stats-interval SECONDS) and the connect bound (--connect-timeout SECONDS, connect-bound.ts). Kept apart from the argument parsing so it does not depend
 * on how the options were read.
 */
import { AdminAddress, AdminServer, parseAdminAddress, startAdminServer } from '../admin/admin-server';
import { Flow } from '../runtime/flow';
import { Logger } from '../logging/logger';

export interface RunOperationsOptions {
  readonly admin?: AdminAddress;
  /** Seconds between totals lines; undefined = only at stop. */
  readonly statsIntervalSeconds?: number;
  /** --connect-timeout: seconds a component may stay unable to connect (0 = no bound); undefined = the default (connect-bound.ts). */
  readonly connectTimeoutSeconds?: number;
}

export class RunOptionError extends Error {
  constructor(
    readonly option: string,
    readonly value: unknown,
    readonly expected: string,
  ) {
    super(`${option} ${JSON.stringify(value)}: expected ${expected}`);
    this.name = 'RunOptionError';
  }
}

/** Reads --admin (else XROUTE_ADMIN), --stats-interval and --connect-timeout; throws RunOptionError or AdminAddressError. */
export function readRunOperations(options: Readonly<Record<string, string | boolean | undefined>>, env: NodeJS.ProcessEnv): RunOperationsOptions {
  const admin = options.admin;
  if (typeof admin === 'boolean') throw new RunOptionError('--admin', '', 'HOST:PORT, e.g. 127.0.0.1:9090');
  const adminText = admin ?? (env.XROUTE_ADMIN !== undefined && env.XROUTE_ADMIN !== '' ? env.XROUTE_ADMIN : undefined);
  const stats = options['stats-interval'];
  let statsIntervalSeconds: number | undefined;
  if (stats !== undefined) {
    statsIntervalSeconds = typeof stats === 'boolean' ? NaN : Number(stats);
    if (!Number.isFinite(statsIntervalSeconds) || statsIntervalSeconds <= 0) throw new RunOptionError('--stats-interval', typeof stats === 'boolean' ? '' : stats, 'a number of seconds > 0');
  }
  const connect = options['connect-timeout'];
  let connectTimeoutSeconds: number | undefined;
  if (connect !== undefined) {
    connectTimeoutSeconds = typeof connect === 'boolean' ? NaN : Number(connect);
    if (!Number.isFinite(connectTimeoutSeconds) || connectTimeoutSeconds < 0) throw new RunOptionError('--connect-timeout', typeof connect === 'boolean' ? '' : connect, 'a number of seconds >= 0 (0: no bound)');
  }
  return {
    ...(adminText !== undefined ? { admin: parseAdminAddress(adminText, admin !== undefined ? '--admin' : 'XROUTE_ADMIN') } : {}),
    ...(statsIntervalSeconds !== undefined ? { statsIntervalSeconds } : {}),
    ...(connectTimeoutSeconds !== undefined ? { connectTimeoutSeconds } : {}),
  };
}

export interface RunningOperations {
  readonly admin?: AdminServer;
  close(): Promise<void>;
}

export async function startRunOperations(flow: Flow, options: RunOperationsOptions, logger: Logger): Promise<RunningOperations> {
  const admin = options.admin ? await startAdminServer(flow, options.admin, logger) : undefined;
  const timer = options.statsIntervalSeconds ? setInterval(() => flow.logTotals('component totals (periodic)'), options.statsIntervalSeconds * 1000) : undefined;
  timer?.unref();
  return {
    admin,
    close: async () => {
      if (timer) clearInterval(timer);
      await admin?.close();
    },
  };
}
