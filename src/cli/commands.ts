/**
 * The `xroute` commands: run, validate, schema (and eval, see eval-command.ts). Each takes its I/O
 * explicitly so tests can run it in process; main.ts binds them to the real process.
 */
import { readFileSync } from 'fs';
import * as path from 'path';
import { ComponentRegistry } from '../runtime/component';
import { Flow } from '../runtime/flow';
import { ConfigError, ConfigProblem, describeFileError, formatProblem, JsonSyntaxError } from '../config/errors';
import { buildTopology, isTopologyJson, validateComponentJson } from '../config/topology';
import { parseJsonText } from '../config/json-file';
import { topologySchema } from '../config/topology-schema';
import { Logger } from '../logging/logger';

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

/** Validates a topology or a single component configuration; never throws. Problems name the file as given. */
export function validateFile(file: string, registry: ComponentRegistry): ConfigProblem[] {
  const abs = path.resolve(file);
  return checkFile(file, abs, registry).map((p) => (p.file === abs ? { ...p, file } : p));
}

function checkFile(file: string, abs: string, registry: ComponentRegistry): ConfigProblem[] {
  let json: unknown;
  try {
    json = parseJsonText(readFileSync(abs, 'utf8'), file);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return [{ file, component: '', property: '', message: `invalid JSON at line ${e.line}, column ${e.column}: ${e.reason}`, severity: 'error' }];
    return [{ file, component: '', property: '', message: describeFileError(e), severity: 'error' }];
  }
  if (isTopologyJson(json)) {
    try {
      return [...buildTopology(json, abs, registry).warnings];
    } catch (e) {
      if (e instanceof ConfigError) return [...e.problems];
      throw e;
    }
  }
  return validateComponentJson(json, abs, registry);
}

/** `xroute schema`: the JSON Schema of a topology, for editors. */
export function schemaCommand(registry: ComponentRegistry, io: CliIo): number {
  writeln(io.stdout, JSON.stringify(topologySchema(registry), null, 2));
  return 0;
}

/**
 * `xroute run <topology>`: boots the flow and runs until SIGINT/SIGTERM (or `stopSignal`), then drains
 * and stops. Resolves with the exit code.
 */
export async function runCommand(file: string, registry: ComponentRegistry, io: CliIo, logger: Logger, stopSignal: Promise<string>): Promise<number> {
  const problems = validateFile(file, registry);
  for (const p of problems) writeln(io.stderr, formatProblem(p));
  if (problems.some((p) => p.severity === 'error')) return 1;
  const abs = path.resolve(file);
  const json = parseJsonText(readFileSync(abs, 'utf8'), file);
  if (!isTopologyJson(json)) {
    writeln(io.stderr, `xroute run: ${file} is a component configuration, not a topology (it has no Receiver, Node or Persister list)`);
    return 1;
  }
  const flow = Flow.start(buildTopology(json, abs, registry), { registry, logger });
  // A service runs until it is told to stop, even when no socket or timer of its components is open.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const signal = await stopSignal;
  clearInterval(keepAlive);
  logger.info('stopping', { signal });
  await flow.stop();
  return 0;
}
