/**
 * The table-driven parser behind `xroute`: a command and its options are data, so a new one is a table entry.
 * These use a table of their own, not xroute's, to show exactly that.
 */
import { CommandSpec, commandHelp, parseCommandLine, UsageError, usageErrorText } from '../../../src/cli/command-line';

const noop = () => 0;
const COMMANDS: CommandSpec<void>[] = [
  {
    name: 'serve',
    args: '<file>',
    positionals: { min: 1, max: 1 },
    summary: 'serve a file',
    details: 'Serves the file.',
    options: { port: { type: 'string', valueName: 'PORT', description: 'the port' }, quiet: { type: 'boolean', short: 'q', description: 'say less' } },
    run: noop,
  },
  {
    name: 'status',
    args: '[address]',
    positionals: { min: 0, max: 1 },
    summary: 'show status',
    details: 'Shows the status.',
    options: { json: { type: 'boolean', description: 'as JSON' } },
    run: noop,
  },
];

function usageError(argv: string[]): UsageError {
  try {
    parseCommandLine(argv, COMMANDS);
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
}

describe('parseCommandLine', () => {
  it('finds the command after options that take values', () => {
    const parsed = parseCommandLine(['--port', '8080', 'serve', 'index.html', '-q'], COMMANDS);
    expect(parsed).toMatchObject({ kind: 'command', command: { name: 'serve' }, positionals: ['index.html'], options: { port: '8080', quiet: true } });
  });

  it('accepts a new command as one table entry, with its own options', () => {
    expect(parseCommandLine(['status', '--json'], COMMANDS)).toMatchObject({
      kind: 'command',
      command: { name: 'status' },
      positionals: [],
      options: { json: true },
    });
  });

  it("rejects another command's option", () => {
    expect(usageError(['status', '--port', '1'])).toMatchObject({ message: "Unknown option '--port'", command: 'status' });
  });

  it('rejects a boolean option given a value', () => {
    expect(usageError(['serve', 'f', '--quiet=yes']).message).toBe("Option '-q, --quiet' does not take an argument");
  });

  it('answers --version and --help before checking arguments', () => {
    expect(parseCommandLine(['serve', '-v'], COMMANDS)).toEqual({ kind: 'version' });
    expect(parseCommandLine(['status', '-h'], COMMANDS)).toMatchObject({ kind: 'help', command: { name: 'status' } });
  });

  it("prints the problem with the command's usage line", () => {
    expect(usageErrorText(usageError(['serve']), COMMANDS)).toBe(
      "xroute serve: expected <file>\nUsage: xroute serve <file> [options]\nRun 'xroute serve --help' for its options.",
    );
  });

  it('generates the help from the same table', () => {
    expect(commandHelp(COMMANDS[0])).toMatch(/--port PORT +the port\n.*-q, --quiet +say less/);
  });
});
