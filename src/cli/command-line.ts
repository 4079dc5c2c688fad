/**
 * Parses an `xroute` command line with node:util parseArgs, strictly: an unknown option, a missing value
 * or a surplus argument is a UsageError carrying the command's usage line. Each command declares its
 * options as a table, so a new option (or command) is one entry, and `--help` is generated from the same
 * table. Options may stand before or after the command name (`xroute --log-level debug run flow.json`).
 */
import { parseArgs } from 'node:util';
import { didYouMean } from '../foundation/did-you-mean';
import { XrouteError } from '../foundation/xroute-error';

interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** Name of the value in the help text, e.g. "LEVEL". */
  readonly valueName?: string;
  readonly description: string;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;
export type OptionValues = Readonly<Record<string, string | boolean | undefined>>;

export interface CommandSpec<C> {
  readonly name: string;
  /** The positional arguments as shown in the usage line, e.g. "<topology.json>". */
  readonly args: string;
  readonly positionals: { readonly min: number; readonly max: number };
  readonly summary: string;
  /** Paragraphs printed by `--help` after the usage line. */
  readonly details: string;
  readonly options: OptionTable;
  run(positionals: readonly string[], options: OptionValues, context: C): number | Promise<number>;
}

/** Options every command accepts, anywhere on the line. */
const GLOBAL_OPTIONS: OptionTable = {
  help: { type: 'boolean', short: 'h', description: 'print the usage of xroute or of the command, and exit' },
  version: { type: 'boolean', short: 'v', description: 'print the version of xroute, and exit' },
};

export class UsageError extends XrouteError {
  constructor(
    message: string,
    /** The command whose usage applies, or undefined for xroute itself. */
    readonly command: string | undefined,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'UsageError';
  }
}

export type ParsedCommandLine<C> =
  | { readonly kind: 'help'; readonly command?: CommandSpec<C> }
  | { readonly kind: 'version' }
  | { readonly kind: 'command'; readonly command: CommandSpec<C>; readonly positionals: string[]; readonly options: OptionValues };

function toParseArgsOptions(table: OptionTable) {
  return Object.fromEntries(Object.entries(table).map(([name, o]) => [name, o.short ? { type: o.type, short: o.short } : { type: o.type }]));
}

/** parseArgs' message without its advice on `--` (which rarely fits here). */
function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err))
    .replace(/^\w*Error \[ERR_[A-Z_]+\]: /, '')
    .split('\n')[0]
    .replace(/\. To specify a positional.*$/, '');
}

/**
 * Finds the command name: the first positional once every option any command knows has taken its value
 * (so in `--log-file run.log run flow.json` the command is `run`). Lenient here; the strict pass follows.
 */
function everyOption(commands: readonly CommandSpec<unknown>[]): OptionTable {
  return Object.assign({}, GLOBAL_OPTIONS, ...commands.map((c) => c.options)) as OptionTable;
}

function findCommand<C>(argv: readonly string[], commands: readonly CommandSpec<C>[]): { name?: string; index: number } {
  const { tokens } = parseArgs({ args: [...argv], options: toParseArgsOptions(everyOption(commands)), strict: false, allowPositionals: true, tokens: true });
  const first = tokens.find((t) => t.kind === 'positional');
  return first?.kind === 'positional' ? { name: first.value, index: first.index } : { index: -1 };
}

export function parseCommandLine<C>(argv: readonly string[], commands: readonly CommandSpec<C>[]): ParsedCommandLine<C> {
  const found = findCommand(argv, commands);
  const command = commands.find((c) => c.name === found.name);
  if (found.name !== undefined && !command)
    throw new UsageError(
      `unknown command ${JSON.stringify(found.name)}${didYouMean(
        found.name,
        commands.map((c) => c.name),
      )}`,
      undefined,
    );
  const rest = found.index < 0 ? [...argv] : [...argv.slice(0, found.index), ...argv.slice(found.index + 1)];
  // Without a command, any command's option is accepted, so that the error asks for the command.
  const table = command ? { ...GLOBAL_OPTIONS, ...command.options } : everyOption(commands);
  let parsed: { values: Record<string, string | boolean | (string | boolean)[] | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options: toParseArgsOptions(table), strict: true, allowPositionals: command !== undefined });
  } catch (err) {
    throw new UsageError(firstLine(err), command?.name, err);
  }
  if (parsed.values.version === true) return { kind: 'version' };
  if (parsed.values.help === true) return { kind: 'help', command };
  if (!command) throw new UsageError('expected a command', undefined);
  const { min, max } = command.positionals;
  const n = parsed.positionals.length;
  if (n < min) throw new UsageError(`expected ${command.args}`, command.name);
  if (n > max) throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[max])}`, command.name);
  return { kind: 'command', command, positionals: parsed.positionals, options: parsed.values as OptionValues };
}

function usageLine(command: CommandSpec<unknown>): string {
  const hasOptions = Object.keys(command.options).length > 0;
  return `Usage: xroute ${command.name}${command.args ? ' ' + command.args : ''}${hasOptions ? ' [options]' : ''}`;
}

function optionLines(table: OptionTable): string[] {
  const cells = Object.entries(table).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${o.type === 'string' ? ` ${o.valueName ?? 'VALUE'}` : ''}`;
    return [flag, o.description] as const;
  });
  const width = Math.max(...cells.map(([f]) => f.length));
  return cells.map(([f, d]) => `  ${f.padEnd(width)}  ${d}`);
}

/** `xroute <command> --help`: usage line, what it does, and its options (from the same table the parser uses). */
export function commandHelp(command: CommandSpec<unknown>): string {
  return [usageLine(command), '', command.details, '', 'Options:', ...optionLines({ ...command.options, ...GLOBAL_OPTIONS })].join('\n');
}

/** `xroute --help`: every command, one line each. */
export function mainHelp(commands: readonly CommandSpec<unknown>[]): string {
  const heads = commands.map((c) => `${c.name}${c.args ? ' ' + c.args : ''}`);
  const width = Math.max(...heads.map((h) => h.length));
  return [
    'Usage: xroute <command> [options]',
    '',
    'Commands:',
    ...commands.map((c, i) => `  ${heads[i].padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    ...optionLines(GLOBAL_OPTIONS),
    '',
    "Options may stand before or after the command. Run 'xroute <command> --help' for a command's options.",
  ].join('\n');
}

/** What a UsageError prints: the problem, then the usage line to fix it with. */
export function usageErrorText(err: UsageError, commands: readonly CommandSpec<unknown>[]): string {
  const command = commands.find((c) => c.name === err.command);
  if (!command) return `xroute: ${err.message}\n${mainHelp(commands)}`;
  return `xroute ${command.name}: ${err.message}\n${usageLine(command)}\nRun 'xroute ${command.name} --help' for its options.`;
}
