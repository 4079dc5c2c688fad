/**
 * The `xroute` commands: run, validate, schema (and eval, see eval-command.ts). Each takes its I/O
 * explicitly so tests can run it in process; main.ts binds them to the real process.
 */
import { readFileSync } from 'fs';
import * as path from 'path';
import { ComponentRegistry } from '../runtime/component';
import { Flow } from '../runtime/flow';
import { formatProblem } from '../config/errors';
import { buildTopology, isTopologyJson, Topology } from '../config/topology';
import { referencedFiles } from '../runtime/referenced-files';
import { parseJsonText } from '../config/json-file';
import { didYouMean } from '../foundation/did-you-mean';
import { topologySchema } from '../config/topology-schema';
import { Logger } from '../logging/logger';
import { whenFlowFinished } from './flow-finished';
import { connectBoundMs, EXIT_UNREACHABLE, whenUnreachable } from './connect-bound';
import { bindRunOperations, RunOperationsOptions } from './run-operations';
import { AdminAddress } from '../admin/admin-server';
import { TopologyReloader } from './reload-trigger';
import { validateFile } from './validate-file';
import { watchFiles } from './file-watch';

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

function writeln(stream: NodeJS.WritableStream, text: string): void {
  stream.write(text + '\n');
}

/** `xroute validate <file>...`: every problem of every file at once; exit 1 when any has an error. */
export function validateCommand(files: string[], registry: ComponentRegistry, io: CliIo): number {
  if (files.length === 0) {
    writeln(io.stderr, 'xroute validate: expected at least one file (a topology or a component configuration)');
    return 2;
  }
  let failed = false;
  for (const file of files) {
    const problems = validateFile(file, registry);
    const errors = problems.filter((p) => p.severity === 'error');
    for (const p of problems) writeln(errors.length > 0 || p.severity === 'warning' ? io.stderr : io.stdout, formatProblem(p));
    if (errors.length > 0) failed = true;
    else writeln(io.stdout, `${file}: valid${problems.length ? ` (${problems.length} warning${problems.length > 1 ? 's' : ''})` : ''}`);
  }
  return failed ? 1 : 0;
}

/** `xroute schema`: the JSON Schema of a topology, for editors. */
export function schemaCommand(registry: ComponentRegistry, io: CliIo): number {
  writeln(io.stdout, JSON.stringify(topologySchema(registry), null, 2));
  return 0;
}

/** The files --watch follows: the topology and every file it references. */
function watchedFiles(topology: Topology): string[] {
  return referencedFiles(topology);
}

/** Why the admin endpoint could not bind, in words (a port in use is the usual reason). */
function adminBindFailure(e: unknown, admin: AdminAddress | undefined): string {
  const where = admin === undefined ? '' : ` on ${admin.host}:${admin.port}`;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return `cannot start the admin endpoint${where}: the port is in use by another process (choose another --admin HOST:PORT)`;
  if (code === 'EACCES') return `cannot start the admin endpoint${where}: permission denied (ports below 1024 need privileges)`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return `cannot start the admin endpoint${where}: no such local address`;
  return `cannot start the admin endpoint${where}: ${(e as Error).message}`;
}

export interface RunOptions {
  /** Keep running after every receiver has reached the end of its input (default: stop and exit 0). */
  keepRunning?: boolean;
  /** The admin endpoint and periodic totals (--admin, --stats-interval). */
  operations?: RunOperationsOptions;
  /** Resolves when stdout's reader went away: the flow stops as on a signal (docs/cli.md). */
  outputClosed?: Promise<void>;
  /** --watch: reload when the topology file or a file it references changes (docs/operations.md#changing-a-running-flow). */
  watch?: boolean;
  /** Where SIGHUP (reload) comes from; default the process. */
  signals?: NodeJS.EventEmitter;
}

/**
 * `xroute run <topology>`: boots the flow and runs until SIGINT/SIGTERM (or `stopSignal`), or until the
 * flow has finished by itself (every receiver at the end of its input, nothing left downstream) unless
 * `keepRunning`; then drains and stops. Resolves with the exit code: 0, or EXIT_GAVE_UP (3) when a
 * component gave up under OnGiveUp "exit" (after the same clean drain).
 */
export async function runCommand(
  file: string,
  registry: ComponentRegistry,
  io: CliIo,
  logger: Logger,
  stopSignal: Promise<string>,
  options: RunOptions = {},
): Promise<number> {
  const problems = validateFile(file, registry);
  if (problems.some((p) => p.severity === 'error')) {
    for (const p of problems) writeln(io.stderr, formatProblem(p));
    return 1;
  }
  for (const p of problems) logger.warn(formatProblem(p)); // warnings of a topology that runs belong in its log
  const abs = path.resolve(file);
  const json = parseJsonText(readFileSync(abs, 'utf8'), file);
  if (!isTopologyJson(json)) {
    writeln(io.stderr, `xroute run: ${file} is a component configuration, not a topology (it has no Receiver, Node or Persister list)`);
    return 1;
  }
  const topology = buildTopology(json, abs, registry);
  const untraceable = (options.operations?.trace ?? []).filter((name) => !topology.components.some((c) => c.name === name));
  if (untraceable.length > 0) {
    const names = topology.components.map((c) => c.name);
    writeln(
      io.stderr,
      `xroute run: --trace: the flow has no component ${untraceable.map((n) => JSON.stringify(n) + didYouMean(n, names)).join(', ')} (components: ${names.join(', ')}); nothing was started`,
    );
    return 1;
  }
  let operations;
  try {
    operations = await bindRunOperations(options.operations ?? {}, logger);
  } catch (e) {
    writeln(io.stderr, `xroute run: ${adminBindFailure(e, options.operations?.admin)}; nothing was started`);
    return 1;
  }
  const flow = Flow.start(topology, { registry, logger, trace: options.operations?.trace });
  // Every trigger takes one path: --watch, SIGHUP and POST /reload (xroute reload) re-read the file and reload it.
  const watcher = options.watch ? watchFiles(watchedFiles(topology), () => void reloader.reload('watch'), { logger }) : undefined;
  const reloader = new TopologyReloader(
    flow,
    file,
    registry,
    logger,
    (r) => ops.admin?.publishReload(r),
    (t) => watcher?.watchFiles(watchedFiles(t)),
  );
  const ops = operations.start(flow, { reload: (o) => reloader.reload('admin', o) });
  const signals = options.signals ?? process;
  const onHangUp = () => void reloader.reload('signal');
  signals.on('SIGHUP', onHangUp);
  // A service runs until it is told to stop, even when no socket or timer of its components is open.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const watch = options.keepRunning ? undefined : whenFlowFinished(flow);
  logger.info(
    options.keepRunning
      ? 'running until SIGINT or SIGTERM (Ctrl-C to stop)'
      : 'running until every receiver has reached the end of its input, or SIGINT or SIGTERM (Ctrl-C to stop)',
  );
  const finishedByItself = watch ? watch.finished.then(() => ({ reason: 'finished' as const })) : new Promise<never>(() => undefined);
  const outputClosed = (options.outputClosed ?? new Promise<never>(() => undefined)).then(() => ({ reason: 'output-closed' as const }));
  const boundMs = connectBoundMs(flow.topology, options.operations?.connectTimeoutSeconds, options.keepRunning === true);
  const bound = boundMs !== undefined ? whenUnreachable(flow, boundMs) : undefined;
  const unreachable = bound ? bound.unreachable.then((u) => ({ reason: 'unreachable' as const, ...u })) : new Promise<never>(() => undefined);
  const end = await Promise.race([
    stopSignal.then((signal) => ({ reason: 'signal' as const, signal })),
    finishedByItself,
    outputClosed,
    unreachable,
    flow.exitRequested.then((code) => ({ reason: 'gave-up' as const, code })),
  ]);
  watch?.cancel();
  bound?.cancel();
  clearInterval(keepAlive);
  signals.off('SIGHUP', onHangUp);
  watcher?.close();
  await reloader.close();
  if (end.reason === 'unreachable') {
    // Nothing more can be delivered: stop at once rather than wait for a drain that cannot happen.
    logger.error(`stopping: ${end.component} could not connect within --connect-timeout ${(boundMs ?? 0) / 1000} s`, {
      component: end.component,
      status: end.status,
      reason: end.detail,
      exitCode: EXIT_UNREACHABLE,
    });
    await flow.stop({ drainMs: 0 });
    await ops.close();
    return EXIT_UNREACHABLE;
  }
  if (end.reason === 'signal') logger.info('stopping', { signal: end.signal });
  else if (end.reason === 'output-closed') logger.info('stopping: stdout was closed by its reader');
  else if (end.reason === 'gave-up') logger.info('stopping: a component gave up', { exitCode: end.code });
  else logger.info('stopping: every receiver has reached the end of its input and nothing is left in the links');
  await flow.stop(options.operations?.stop);
  await ops.close();
  return end.reason === 'gave-up' ? end.code : 0;
}
