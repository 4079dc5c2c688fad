/**
 * `xroute eval <evaluator-config.json> [messages.jsonl]`: runs a MessageEvaluator configuration over
 * messages in JSON form (one per line; stdin when no file) and prints each evaluated message in JSON
 * form, one per line, in input order. The way to test rulesets without a broker.
 *
 * The configuration file is either a bare MessageEvaluator component configuration (it has
 * `Ruleset`), or a topology holding exactly one MessageEvaluator component (inline, or in
 * `<ConfigDir>/<name>.json`). Relative paths resolve against the directory of the file holding the
 * component configuration; `PluginDir` (string or list) is read from the topology or the bare
 * configuration and resolves against the configuration file's directory.
 *
 * Exit codes: 0 when every line was a valid message, 1 when some line was not (each bad line is
 * reported on stderr with its line number, and the run continues) or when a file cannot be read (as
 * `run` and `validate` say it), 2 when the configuration cannot be used (nothing is evaluated). When stdout's
 * reader goes away (`| head -1`) it stops reading quietly, and the command exits 141 (main.ts).
 */
import { open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { messageFromJson, messageToJson } from '../message/json-form';
import { readJsonFile } from '../config/json-file';
import { describeFileError } from '../config/errors';
import { isRecord } from '../rules/errors';
import { displayFields } from '../logging/display';
import { MessageEvaluatorEngine } from '../evaluator/engine';
import { isClosedOutput } from '../runtime/closed-output';
import { XrouteError } from '../foundation/xroute-error';

export interface EvalIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** A configuration file that holds no usable MessageEvaluator configuration. */
class EvalConfigError extends XrouteError {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = 'EvalConfigError';
  }
}

interface EvaluatorConfig {
  config: Record<string, unknown>;
  baseDir: string;
  pluginDirs: string[];
}

const isEvaluatorClass = (v: unknown): boolean => typeof v === 'string' && /(^|\.)MessageEvaluator$/.test(v);

function pluginDirsOf(json: Record<string, unknown>, baseDir: string): string[] {
  return ([] as unknown[])
    .concat(json.PluginDir ?? [])
    .filter((d): d is string => typeof d === 'string')
    .map((d) => resolve(baseDir, d));
}

/** Finds the MessageEvaluator configuration in a bare component file or a topology. */
function loadEvaluatorConfig(configPath: string): EvaluatorConfig {
  const file = resolve(configPath);
  const baseDir = dirname(file);
  const json = readJsonFile(file);
  if (!isRecord(json)) throw new EvalConfigError(file, 'is not a JSON object');
  if ('Ruleset' in json || isEvaluatorClass(json.ClassName)) return { config: json, baseDir, pluginDirs: pluginDirsOf(json, baseDir) };
  const configDir = typeof json.ConfigDir === 'string' ? resolve(baseDir, json.ConfigDir) : baseDir;
  const names = [json.Receiver, json.Node, json.Persister].flatMap((v) => (Array.isArray(v) ? v : [])).filter((n): n is string => typeof n === 'string');
  const found: EvaluatorConfig[] = [];
  for (const name of names) {
    const inline = json[name];
    if (isRecord(inline)) {
      if (isEvaluatorClass(inline.ClassName)) found.push({ config: { Name: name, ...inline }, baseDir, pluginDirs: [] });
      continue;
    }
    let external: unknown;
    try {
      external = readJsonFile(resolve(configDir, `${name}.json`));
    } catch {
      continue; // not every component of a topology need be readable to find the evaluator
    }
    if (isRecord(external) && isEvaluatorClass(external.ClassName)) found.push({ config: { Name: name, ...external }, baseDir: configDir, pluginDirs: [] });
  }
  if (found.length === 0)
    throw new EvalConfigError(file, 'holds neither a MessageEvaluator configuration (with Ruleset) nor a topology with a MessageEvaluator component');
  if (found.length > 1)
    throw new EvalConfigError(
      file,
      `holds ${found.length} MessageEvaluator components (${found.map((f) => f.config.Name).join(', ')}); give one component file`,
    );
  return { ...found[0], pluginDirs: pluginDirsOf(json, baseDir) };
}

/** Resolves false when the output's reader has gone away (`xroute eval ... | head -1`): nothing more can be written. */
function writeLine(stream: NodeJS.WritableStream, line: string): Promise<boolean> {
  if (isClosedOutput(stream)) return Promise.resolve(false);
  return new Promise((resolveWrite) => {
    const now = stream.write(line + '\n', (err) => {
      if (err) resolveWrite(false);
    });
    if (now) resolveWrite(true);
    else stream.once('drain', () => resolveWrite(true));
  });
}

/** An error of the file system (ENOENT, EACCES, ...), not of the configuration's content. */
function isFileError(e: unknown): boolean {
  return typeof (e as NodeJS.ErrnoException | undefined)?.code === 'string' && (e as NodeJS.ErrnoException).syscall !== undefined;
}

/** A file that cannot be read, said as `run` and `validate` say it: exit 1. */
function unreadable(file: string, e: unknown, io: EvalIo): number {
  io.stderr.write(`error: ${file}: ${describeFileError(e)}\n`);
  return 1;
}

export async function runEval(configPath: string, messagesPath: string | undefined, io: EvalIo): Promise<number> {
  let engine: MessageEvaluatorEngine;
  try {
    const { config, baseDir, pluginDirs } = loadEvaluatorConfig(configPath);
    engine = new MessageEvaluatorEngine(config, {
      baseDir,
      pluginDirs,
      logger: {
        warn: (m) => io.stderr.write(`warning: ${m}\n`),
        error: (m) => io.stderr.write(`error: ${m}\n`),
        debug: (m) => io.stderr.write(`debug: ${m}\n`),
      },
      display: (rule, msg, mask, names) => io.stderr.write(`display ${rule}: ${JSON.stringify(displayFields(msg, mask, names))}\n`),
    });
  } catch (e) {
    if (isFileError(e)) return unreadable(configPath, e, io);
    io.stderr.write(`error: ${(e as Error).message}\n`);
    return 2;
  }
  let input: NodeJS.ReadableStream;
  if (messagesPath === undefined) input = io.stdin;
  else {
    try {
      const handle = await open(messagesPath, 'r');
      input = handle.createReadStream({ encoding: 'utf8' });
    } catch (e) {
      await engine.close();
      return unreadable(messagesPath, e, io);
    }
  }
  let bad = 0;
  let lineNumber = 0;
  try {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      lineNumber++;
      if (line.trim() === '') continue;
      let msg;
      try {
        msg = messageFromJson(JSON.parse(line));
      } catch (e) {
        bad++;
        io.stderr.write(`error: line ${lineNumber}: ${(e as Error).message}\n`);
        continue;
      }
      const pending = engine.evaluate(msg);
      if (pending !== undefined) await pending;
      if (!(await writeLine(io.stdout, JSON.stringify(messageToJson(msg))))) break;
    }
  } catch (e) {
    io.stderr.write(`error: reading messages failed after line ${lineNumber}: ${(e as Error).message}\n`);
    return 2;
  } finally {
    await engine.close();
  }
  return bad === 0 ? 0 : 1;
}
