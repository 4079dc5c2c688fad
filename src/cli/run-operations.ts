/**
 * The operational side of `xroute run`: the admin endpoint (--admin HOST:PORT or XROUTE_ADMIN), the
 * periodic totals (--stats-interval SECONDS), the connect bound (--connect-timeout SECONDS, connect-bound.ts) and
 * how a stop drains (--drain-timeout SECONDS, --on-stop wait|kill), the components whose messages are logged from the
 * start (--trace), and OpenTelemetry tracing when the OTEL_* environment configures it (docs/operations.md#tracing;
 * exported until the operations close, after the flow stopped). Kept apart from the argument parsing so it does
 * not depend on how the options were read.
 */
import { readFileSync } from 'fs';
import { AdminAddress, AdminSecurity, AdminServer, bindAdminServer, parseAdminAddress } from '../admin/admin-server';
import { adminGuard, readAdminToken } from '../admin/admin-auth';
import { ReloadControl } from '../admin/control-routes';
import { Flow, StopOptions } from '../runtime/flow';
import { ON_STOP_MODES, OnStop } from '../runtime/drain';
import { Logger } from '../logging/logger';
import { startTracing } from '../tracing/trace-sdk';
import { packageVersion } from './package-version';
import { XrouteError } from '../foundation/xroute-error';

export interface RunOperationsOptions {
  readonly admin?: AdminAddress;
  /** The admin token and TLS (--admin-token-file or XROUTE_ADMIN_TOKEN, --admin-tls-cert/--admin-tls-key). */
  readonly adminSecurity?: AdminSecurity;
  /** Seconds between totals lines; undefined = only at stop. */
  readonly statsIntervalSeconds?: number;
  /** --connect-timeout: seconds a component may stay unable to connect (0 = no bound); undefined = the default (connect-bound.ts). */
  readonly connectTimeoutSeconds?: number;
  /** How the flow drains when it stops (default: 60 s, wait). */
  readonly stop?: StopOptions;
  /** --trace: the components whose messages are traced from the start. */
  readonly trace?: readonly string[];
}

class RunOptionError extends XrouteError {
  constructor(
    readonly option: string,
    readonly value: unknown,
    readonly expected: string,
    options?: ErrorOptions,
  ) {
    super(`${option} ${JSON.stringify(value)}: expected ${expected}`, options);
    this.name = 'RunOptionError';
  }
}

/**
 * Reads --admin (else XROUTE_ADMIN) with its token and TLS options, --stats-interval and --connect-timeout; throws
 * RunOptionError, AdminAddressError, AdminTokenError, or UnprotectedAdminError for an address other hosts can reach
 * without a token.
 */
export function readRunOperations(options: Readonly<Record<string, string | boolean | undefined>>, env: NodeJS.ProcessEnv): RunOperationsOptions {
  const admin = options.admin;
  if (typeof admin === 'boolean') throw new RunOptionError('--admin', '', 'HOST:PORT, e.g. 127.0.0.1:9090');
  const adminText = admin ?? (env.XROUTE_ADMIN !== undefined && env.XROUTE_ADMIN !== '' ? env.XROUTE_ADMIN : undefined);
  const adminSource = admin !== undefined ? '--admin' : 'XROUTE_ADMIN';
  const address = adminText !== undefined ? parseAdminAddress(adminText, adminSource) : undefined;
  const adminSecurity = address !== undefined ? readAdminSecurity(options, env) : undefined;
  if (address !== undefined) adminGuard(address.host, adminSecurity?.token, adminSource); // refuses before anything starts
  const stats = options['stats-interval'];
  let statsIntervalSeconds: number | undefined;
  if (stats !== undefined) {
    statsIntervalSeconds = typeof stats === 'boolean' ? NaN : Number(stats);
    if (!Number.isFinite(statsIntervalSeconds) || statsIntervalSeconds <= 0)
      throw new RunOptionError('--stats-interval', typeof stats === 'boolean' ? '' : stats, 'a number of seconds > 0');
  }
  const connect = options['connect-timeout'];
  let connectTimeoutSeconds: number | undefined;
  if (connect !== undefined) {
    connectTimeoutSeconds = typeof connect === 'boolean' ? NaN : Number(connect);
    if (!Number.isFinite(connectTimeoutSeconds) || connectTimeoutSeconds < 0)
      throw new RunOptionError('--connect-timeout', typeof connect === 'boolean' ? '' : connect, 'a number of seconds >= 0 (0: no bound)');
  }
  const stop = readStopOptions(options['drain-timeout'], options['on-stop']);
  const trace = readTrace(options.trace);
  return {
    ...(address !== undefined ? { admin: address } : {}),
    ...(adminSecurity !== undefined && Object.keys(adminSecurity).length > 0 ? { adminSecurity } : {}),
    ...(statsIntervalSeconds !== undefined ? { statsIntervalSeconds } : {}),
    ...(connectTimeoutSeconds !== undefined ? { connectTimeoutSeconds } : {}),
    ...(Object.keys(stop).length > 0 ? { stop } : {}),
    ...(trace !== undefined ? { trace } : {}),
  };
}

/** The token (--admin-token-file, else XROUTE_ADMIN_TOKEN) and --admin-tls-cert/--admin-tls-key, both or neither. */
function readAdminSecurity(options: Readonly<Record<string, string | boolean | undefined>>, env: NodeJS.ProcessEnv): AdminSecurity {
  const tokenFile = options['admin-token-file'];
  if (typeof tokenFile === 'boolean') throw new RunOptionError('--admin-token-file', '', 'FILE holding the admin token');
  const token = readAdminToken(tokenFile, env);
  const cert = options['admin-tls-cert'];
  const key = options['admin-tls-key'];
  if (cert === undefined && key === undefined) return token !== undefined ? { token } : {};
  if (typeof cert !== 'string' || typeof key !== 'string')
    throw new RunOptionError(
      cert === undefined || typeof cert === 'boolean' ? '--admin-tls-cert' : '--admin-tls-key',
      '',
      'a PEM FILE; --admin-tls-cert and --admin-tls-key go together',
    );
  return { ...(token !== undefined ? { token } : {}), tls: { cert: readPem('--admin-tls-cert', cert), key: readPem('--admin-tls-key', key) } };
}

function readPem(option: string, file: string): Buffer {
  let pem: Buffer;
  try {
    pem = readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new RunOptionError(
      option,
      file,
      code === 'ENOENT' ? 'a PEM file that exists' : code === 'EACCES' ? 'a PEM file xroute may read (permission denied)' : 'a readable PEM file',
      { cause: e },
    );
  }
  if (!pem.includes('-----BEGIN ')) throw new RunOptionError(option, file, 'a PEM file (-----BEGIN ...)');
  return pem;
}

/** --trace COMPONENT[,COMPONENT...]: names, none empty (whether the flow has them is checked against the topology). */
function readTrace(value: string | boolean | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = typeof value === 'string' ? value.split(',').map((n) => n.trim()) : [];
  if (names.length === 0 || names.some((n) => n === ''))
    throw new RunOptionError('--trace', typeof value === 'string' ? value : '', 'component names separated by commas, e.g. rcvr_orders,pstr_store');
  return [...new Set(names)];
}

/** --drain-timeout SECONDS (>= 0) and --on-stop wait|kill. */
function readStopOptions(timeout: string | boolean | undefined, onStop: string | boolean | undefined): StopOptions {
  let drainMs: number | undefined;
  if (timeout !== undefined) {
    const seconds = typeof timeout === 'boolean' || timeout.trim() === '' ? NaN : Number(timeout);
    if (!Number.isFinite(seconds) || seconds < 0)
      throw new RunOptionError('--drain-timeout', typeof timeout === 'boolean' ? '' : timeout, 'a number of seconds >= 0');
    drainMs = Math.round(seconds * 1000);
  }
  if (onStop !== undefined && !(ON_STOP_MODES as readonly unknown[]).includes(onStop))
    throw new RunOptionError('--on-stop', typeof onStop === 'boolean' ? '' : onStop, ON_STOP_MODES.join(' or '));
  return { ...(drainMs !== undefined ? { drainMs } : {}), ...(onStop !== undefined ? { onStop: onStop as OnStop } : {}) };
}

export interface RunningOperations {
  readonly admin?: AdminServer;
  close(): Promise<void>;
}

/** The operations of a run whose admin endpoint is bound already, before its flow starts. */
export interface BoundOperations {
  /** Serves the flow on the endpoint (POST /reload through `control`) and starts the periodic totals. */
  start(flow: Flow, control?: ReloadControl): RunningOperations;
  close(): Promise<void>;
}

/** Binds the admin endpoint, if any; throws the listen error (EADDRINUSE) before anything has started. */
export async function bindRunOperations(options: RunOperationsOptions, logger: Logger): Promise<BoundOperations> {
  const admin = options.admin ? await bindAdminServer(options.admin, logger, options.adminSecurity) : undefined;
  const tracing = await startTracing(process.env, logger, { version: packageVersion() });
  const close = async () => {
    await admin?.close();
    await tracing?.shutdown();
  };
  return {
    close,
    start: (flow, control) => {
      admin?.serve(flow, control);
      const timer = options.statsIntervalSeconds
        ? setInterval(() => flow.logTotals('component totals (periodic)'), options.statsIntervalSeconds * 1000)
        : undefined;
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
