/**
 * The operational side of `xroute run`: the admin endpoint (--admin HOST:PORT or XROUTE_ADMIN), the
 * periodic totals (--stats-interval SECONDS), the connect bound (--connect-timeout SECONDS, connect-bound.ts) and
 * how a stop drains (--drain-timeout SECONDS, --on-stop wait|kill). Kept apart from the argument parsing so it does
 * not depend on how the options were read.
 */
import { AdminAddress, AdminServer, bindAdminServer, parseAdminAddress } from '../admin/admin-server';
import { Flow, StopOptions } from '../runtime/flow';
import { ON_STOP_MODES, OnStop } from '../runtime/drain';
import { Logger } from '../logging/logger';

export interface RunOperationsOptions {
  readonly admin?: AdminAddress;
  /** Seconds between totals lines; undefined = only at stop. */
  readonly statsIntervalSeconds?: number;
  /** --connect-timeout: seconds a component may stay unable to connect (0 = no bound); undefined = the default (connect-bound.ts). */
  readonly connectTimeoutSeconds?: number;
  /** How the flow drains when it stops (default: 60 s, wait). */
  readonly stop?: StopOptions;
}

class RunOptionError extends Error {
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
  const stop = readStopOptions(options['drain-timeout'], options['on-stop']);
  return {
    ...(adminText !== undefined ? { admin: parseAdminAddress(adminText, admin !== undefined ? '--admin' : 'XROUTE_ADMIN') } : {}),
    ...(statsIntervalSeconds !== undefined ? { statsIntervalSeconds } : {}),
    ...(connectTimeoutSeconds !== undefined ? { connectTimeoutSeconds } : {}),
    ...(Object.keys(stop).length > 0 ? { stop } : {}),
  };
}

/** --drain-timeout SECONDS (>= 0) and --on-stop wait|kill. */
function readStopOptions(timeout: string | boolean | undefined, onStop: string | boolean | undefined): StopOptions {
  let drainMs: number | undefined;
  if (timeout !== undefined) {
    const seconds = typeof timeout === 'boolean' || timeout.trim() === '' ? NaN : Number(timeout);
    if (!Number.isFinite(seconds) || seconds < 0) throw new RunOptionError('--drain-timeout', typeof timeout === 'boolean' ? '' : timeout, 'a number of seconds >= 0');
    drainMs = Math.round(seconds * 1000);
  }
  if (onStop !== undefined && !(ON_STOP_MODES as readonly unknown[]).includes(onStop)) throw new RunOptionError('--on-stop', typeof onStop === 'boolean' ? '' : onStop, ON_STOP_MODES.join(' or '));
  return { ...(drainMs !== undefined ? { drainMs } : {}), ...(onStop !== undefined ? { onStop: onStop as OnStop } : {}) };
}

export interface RunningOperations {
  readonly admin?: AdminServer;
  close(): Promise<void>;
}

/** The operations of a run whose admin endpoint is bound already, before its flow starts. */
export interface BoundOperations {
  /** Serves the flow on the endpoint and starts the periodic totals. */
  start(flow: Flow): RunningOperations;
  close(): Promise<void>;
}

/** Binds the admin endpoint, if any; throws the listen error (EADDRINUSE) before anything has started. */
export async function bindRunOperations(options: RunOperationsOptions, logger: Logger): Promise<BoundOperations> {
  const admin = options.admin ? await bindAdminServer(options.admin, logger) : undefined;
  const close = async () => {
    await admin?.close();
  };
  return {
    close,
    start: (flow) => {
      admin?.serve(flow);
      const timer = options.statsIntervalSeconds ? setInterval(() => flow.logTotals('component totals (periodic)'), options.statsIntervalSeconds * 1000) : undefined;
      timer?.unref();
      return {
        admin,
        close: async () => {
          if (timer) clearInterval(timer);
          await close();
        },
      };
    },
  };
}

export async function startRunOperations(flow: Flow, options: RunOperationsOptions, logger: Logger): Promise<RunningOperations> {
  return (await bindRunOperations(options, logger)).start(flow);
}
