import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PassThrough } from 'stream';
import { COMMANDS, main } from '../../../src/cli/main';
import { waitFor } from '../../support/wait';
import { logMessages } from '../../support/json-lines';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const never = new Promise<string>(() => undefined);
/** A SIGTERM that is there as soon as the flow runs. */
const signalled = (): Promise<string> => Promise.resolve('SIGTERM');

/**
 * Runs the CLI in this process. `stop` is the stop signal, or a condition on the stderr written so far (the log) on
 * which the signal comes.
 */
async function xroute(args: string[], stop: Promise<string> | ((stderr: string) => boolean) = never, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (c) => out.push(String(c)));
  stderr.on('data', (c) => err.push(String(c)));
  const signal =
    typeof stop === 'function'
      ? waitFor(
          () => stop(err.join('')),
          () => `the stop condition; log so far: ${err.join('')}`,
        ).then(() => 'SIGTERM')
      : stop;
  const code = await main(args, { stdin: new PassThrough(), stdout, stderr, env }, signal);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

function tmpFile(name: string, text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-cli-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

const evaluatorFlow = {
  Name: 'f',
  Persister: ['pstr_eval'],
  pstr_eval: { ClassName: 'org.qbroker.persister.MessageEvaluator', URI: 'eval://', LinkName: 'eval', Ruleset: { r: {} } },
};

describe('xroute command line', () => {
  it.each(['run', 'validate', 'eval', 'schema'])('prints usage for %s --help and exits 0', async (command) => {
    const r = await xroute([command, '--help']);
    expect([r.code, r.stdout]).toEqual([0, expect.stringContaining(`Usage: xroute ${command}`)]);
  });

  it('lists the commands for --help', async () => {
    const r = await xroute(['--help']);
    expect(r.stdout).toMatch(/run <topology\.json>[\s\S]*validate[\s\S]*eval[\s\S]*schema/);
  });

  it('exits 2 on an unknown command', async () => {
    const r = await xroute(['frobnicate']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('unknown command "frobnicate"')]);
  });

  it('validates a good topology with exit code 0', async () => {
    const r = await xroute(['validate', tmpFile('flow.json', JSON.stringify(evaluatorFlow))]);
    expect([r.code, r.stdout]).toEqual([0, expect.stringContaining('valid')]);
  });

  it('reports invalid JSON with line and column and exit code 1', async () => {
    const r = await xroute(['validate', tmpFile('bad.json', '{\n "Name": "x",\n}\n')]);
    expect([r.code, r.stderr]).toEqual([1, expect.stringMatching(/invalid JSON at line 3, column 1/)]);
  });

  it('prints every error of an invalid topology, each naming file, component and property', async () => {
    const bad = { ...evaluatorFlow, pstr_eval: { ...evaluatorFlow.pstr_eval, Capacity: 'many', Colour: 'red' } };
    const file = tmpFile('flow.json', JSON.stringify(bad));
    const r = await xroute(['validate', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}: pstr_eval: Capacity: "many": expected a positive integer, e.g. "256"`);
    expect(r.stderr).toContain(`${file}: pstr_eval: Colour: unknown property`);
  });

  it('refuses a StreamReceiver on stdin (file://-) in daemon mode: stdin is read once, to its end', async () => {
    const rcvr = { ClassName: 'org.qbroker.receiver.StreamReceiver', URI: 'file://-', Operation: 'read', LinkName: 'in', Mode: 'daemon' };
    const r = await xroute(['validate', tmpFile('rcvr.json', JSON.stringify(rcvr))]);
    expect([r.code, r.stderr]).toEqual([
      1,
      expect.stringContaining('Mode: "daemon": expected "default" for file://- (standard input is read once, to its end)'),
    ]);
  });

  it('validates a single component configuration', async () => {
    const r = await xroute(['validate', tmpFile('pstr.json', JSON.stringify(evaluatorFlow.pstr_eval))]);
    expect(r.code).toBe(0);
  });

  it('prints a topology JSON Schema that knows the component classes', async () => {
    const r = await xroute(['schema']);
    const schema = JSON.parse(r.stdout);
    expect(JSON.stringify(schema)).toContain('persister\\\\.MessageEvaluator');
  });

  it('runs a topology until the stop signal and exits 0', async () => {
    const r = await xroute(['run', '--log-level', 'info', '--text-logs', tmpFile('flow.json', JSON.stringify(evaluatorFlow))], (log) =>
      log.includes('running until'),
    );
    expect([r.code, r.stderr]).toEqual([0, expect.stringMatching(/running until[\s\S]*stopping[\s\S]*SIGTERM/)]);
  });

  it('refuses to run a component configuration that is not a topology', async () => {
    const r = await xroute(['run', tmpFile('pstr.json', JSON.stringify(evaluatorFlow.pstr_eval))]);
    expect([r.code, r.stderr]).toEqual([1, expect.stringContaining('not a topology')]);
  });

  it('refuses --log-level with a value before the topology when the value is missing', async () => {
    const r = await xroute(['run', tmpFile('flow.json', JSON.stringify(evaluatorFlow)), '--log-level']);
    expect([r.code, r.stderr]).toEqual([
      2,
      expect.stringContaining("Option '--log-level <value>' argument missing\nUsage: xroute run <topology.json> [options]"),
    ]);
  });
});

describe('xroute --version', () => {
  const version = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')).version as string;

  it.each([['--version'], ['-v'], ['run', '-v'], ['validate', 'x.json', '--version']])('prints the package version for %s', async (...args) => {
    const r = await xroute(args);
    expect([r.code, r.stdout]).toEqual([0, `${version}\n`]);
  });
});

describe('strict options (one table per command)', () => {
  it.each(['run', 'validate', 'eval', 'schema'])('rejects an unknown option of %s with its usage line and exit code 2', async (command) => {
    const r = await xroute([command, '--frobnicate', 'x.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`xroute ${command}: Unknown option '--frobnicate'`);
    expect(r.stderr).toContain(`Usage: xroute ${command}`);
  });

  it('rejects a value given to a flag', async () => {
    const r = await xroute(['run', '--json-logs=yes', 'flow.json']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining("Option '--json-logs' does not take an argument")]);
  });

  it('rejects a missing topology with the usage line', async () => {
    const r = await xroute(['run']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('xroute run: expected <topology.json>\nUsage: xroute run <topology.json> [options]')]);
  });

  it.each([
    ['schema', 'extra.json'],
    ['eval', 'a.json', 'b.jsonl', 'c.jsonl'],
    ['run', 'a.json', 'b.json'],
  ])('rejects a surplus argument to %s', async (...args) => {
    const r = await xroute(args);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/unexpected argument "[^"]+"\nUsage: xroute /)]);
  });

  it('asks for a command when only options are given', async () => {
    const r = await xroute(['--log-level', 'debug']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('xroute: expected a command')]);
  });

  it('lists every option of a command in its --help, from the same table the parser uses', async () => {
    const r = await xroute(['run', '--help']);
    for (const flag of ['--log-level LEVEL', '--log-file PATH', '--json-logs', '--text-logs', '--keep-running', '-h, --help', '-v, --version'])
      expect(r.stdout).toContain(flag);
  });
});

describe('strict options for every command (from the command table, so a new command is covered)', () => {
  const names = COMMANDS.map((c) => c.name);
  const stringOptions = COMMANDS.flatMap((c) =>
    Object.entries(c.options)
      .filter(([, o]) => o.type === 'string')
      .map(([option]) => [c.name, option] as const),
  );

  it('covers every command xroute has', () => {
    expect(names).toEqual(['run', 'validate', 'eval', 'schema', 'status', 'reload', 'parked']);
  });

  it.each(names)('rejects an unknown flag of %s with exit code 2, the problem and its usage line', async (command) => {
    const r = await xroute([command, '--no-such-flag']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining(`xroute ${command}: Unknown option '--no-such-flag'\nUsage: xroute ${command}`)]);
  });

  it.each(names)('rejects an unknown short flag of %s with exit code 2', async (command) => {
    const r = await xroute([command, '-Z']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining(`xroute ${command}: Unknown option '-Z'`)]);
  });

  it.each(stringOptions)('rejects %s --%s without its value, with exit code 2 and the usage line', async (command, option) => {
    const r = await xroute([command, `--${option}`]);
    expect([r.code, r.stderr]).toEqual([
      2,
      expect.stringContaining(`xroute ${command}: Option '--${option} <value>' argument missing\nUsage: xroute ${command}`),
    ]);
  });

  it('rejects an unknown flag before any command, with the list of commands', async () => {
    const r = await xroute(['--no-such-flag', 'run']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining("Unknown option '--no-such-flag'")]);
  });
});

describe('xroute run: options, log level and log destination', () => {
  const flow = () => tmpFile('flow.json', JSON.stringify(evaluatorFlow));

  it('accepts options before the command', async () => {
    const r = await xroute(['--log-level', 'error', '--text-logs', 'run', flow()], signalled());
    expect([r.code, r.stderr]).toEqual([0, '']);
  });

  it('rejects an invalid --log-level, naming the valid levels', async () => {
    const r = await xroute(['run', flow(), '--log-level', 'verbose']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('invalid --log-level "verbose"; valid levels: error, warn, info, debug')]);
  });

  it('rejects an invalid XROUTE_LOG_LEVEL, naming the valid levels', async () => {
    const r = await xroute(['run', flow()], never, { XROUTE_LOG_LEVEL: 'loud' });
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('invalid XROUTE_LOG_LEVEL "loud"; valid levels: error, warn, info, debug')]);
  });

  it('takes the level from XROUTE_LOG_LEVEL when --log-level is not given', async () => {
    const r = await xroute(['run', flow()], signalled(), { XROUTE_LOG_LEVEL: 'error' });
    expect([r.code, r.stderr]).toEqual([0, '']);
  });

  it('writes log lines to stderr and nothing to stdout', async () => {
    const r = await xroute(['run', flow(), '--json-logs'], signalled());
    expect(r.stdout).toBe('');
    expect(logMessages(r.stderr)).toEqual(expect.arrayContaining(['flow started', 'flow stopped']));
  });

  it('says in the log how to stop the flow', async () => {
    const r = await xroute(['run', flow(), '--text-logs'], signalled());
    expect(r.stderr).toContain('or SIGINT or SIGTERM (Ctrl-C to stop)');
  });

  it('writes log lines to --log-file instead of stderr', async () => {
    const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-cli-')), 'xroute.log');
    const r = await xroute(['run', flow(), '--log-file', log], signalled());
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(fs.readFileSync(log, 'utf8')).toMatch(/"message":"flow started"[\s\S]*"message":"flow stopped"/);
  });

  it('refuses a --log-file whose directory does not exist', async () => {
    const r = await xroute(['run', flow(), '--log-file', path.join(os.tmpdir(), 'no-such-dir-xroute', 'x.log')]);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('its directory does not exist')]);
  });
});

describe('xroute run: a flow whose receivers all come to an end', () => {
  function fileFlow(lines: string[]) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-cli-'));
    fs.writeFileSync(path.join(dir, 'in.txt'), lines.map((l) => l + '\n').join(''));
    const topology = {
      Name: 'copy',
      Receiver: ['rcvr_file'],
      Persister: ['pstr_file'],
      rcvr_file: { ClassName: 'org.qbroker.receiver.StreamReceiver', URI: 'file://in.txt', Operation: 'read', LinkName: 'lines' },
      pstr_file: {
        ClassName: 'org.qbroker.persister.StreamPersister',
        URI: 'file://out.txt',
        Operation: 'write',
        LinkName: 'lines',
        Template: 'got ##body##\n',
      },
    };
    fs.writeFileSync(path.join(dir, 'flow.json'), JSON.stringify(topology));
    return {
      file: path.join(dir, 'flow.json'),
      output: () => (fs.existsSync(path.join(dir, 'out.txt')) ? fs.readFileSync(path.join(dir, 'out.txt'), 'utf8') : ''),
    };
  }

  it('exits 0 by itself once the input is read and every message is written', async () => {
    const f = fileFlow(['a', 'b', 'c']);
    const r = await xroute(['run', f.file, '--log-level', 'info', '--json-logs']);
    expect(r.code).toBe(0);
    expect(f.output()).toBe('got a\ngot b\ngot c\n');
    expect(r.stderr).toContain('every receiver has reached the end of its input');
  });

  it('logs the path of each message through the components named by --trace', async () => {
    const f = fileFlow(['a', 'b']);
    const r = await xroute(['run', f.file, '--trace', 'pstr_file', '--json-logs']);
    const lines = r.stderr
      .split('\n')
      .filter((l) => l.includes('"message":"trace"') && l.includes('"link"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect([r.code, lines.map(({ component, link, outcome }) => ({ component, link, outcome }))]).toEqual([
      0,
      [
        { component: 'pstr_file', link: 'lines', outcome: 'done' },
        { component: 'pstr_file', link: 'lines', outcome: 'done' },
      ],
    ]);
    expect(lines.every((l) => typeof l.id === 'string' && typeof l.ms === 'number')).toBe(true);
  });

  it('refuses --trace naming a component the flow does not have (exit 1), suggesting the closest', async () => {
    const f = fileFlow(['a']);
    const r = await xroute(['run', f.file, '--trace', 'pstr_fil']);
    expect([r.code, r.stderr, f.output()]).toEqual([
      1,
      expect.stringContaining('--trace: the flow has no component "pstr_fil"; did you mean "pstr_file"? (components: pstr_file, rcvr_file)'),
      '',
    ]);
  });

  it('refuses an empty name in --trace as a usage error (exit 2)', async () => {
    const f = fileFlow(['a']);
    const r = await xroute(['run', f.file, '--trace', 'pstr_file,']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('--trace "pstr_file,": expected component names separated by commas')]);
  });

  // Whether a flow counts as finished by itself is tested on a virtual clock in flow-finished.test.ts; these runs show
  // which way the CLI goes and that the signal, not the end of the input, stops them.
  const stoppedBySignal = /stopping[^\n]*SIGTERM/;

  it('keeps running after the input ends with --keep-running, until a signal', async () => {
    const f = fileFlow(['a']);
    const r = await xroute(
      ['run', f.file, '--keep-running', '--log-level', 'info', '--text-logs'],
      (log) => log.includes('end of stream; receiver done') && f.output() === 'got a\n',
    );
    expect([r.code, f.output()]).toEqual([0, 'got a\n']);
    expect(r.stderr).toContain('running until SIGINT or SIGTERM (Ctrl-C to stop)'); // no watch for the end of the input
    expect(r.stderr).toMatch(stoppedBySignal);
  });

  it('keeps running a flow with a pool, whose children work outside the links, until a signal', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-cli-'));
    fs.writeFileSync(path.join(dir, 'in.txt'), 'not a request\n');
    const topology = {
      Name: 'pooled',
      Receiver: ['rcvr_file'],
      Persister: ['pstr_pool'],
      rcvr_file: { ClassName: 'org.qbroker.receiver.StreamReceiver', URI: 'file://in.txt', Operation: 'read', LinkName: 'requests' },
      pstr_pool: { ClassName: 'org.qbroker.persister.PersisterPool', Operation: 'accept', LinkName: 'requests' },
    };
    fs.writeFileSync(path.join(dir, 'flow.json'), JSON.stringify(topology));
    const r = await xroute(['run', path.join(dir, 'flow.json'), '--log-level', 'info', '--text-logs'], (log) => log.includes('end of stream; receiver done'));
    expect([r.code, r.stderr]).toEqual([0, expect.stringMatching(stoppedBySignal)]);
  });

  it('keeps running a flow without receivers until a signal', async () => {
    const r = await xroute(['run', tmpFile('flow.json', JSON.stringify(evaluatorFlow)), '--log-level', 'info', '--text-logs'], (log) =>
      log.includes('running until'),
    );
    expect([r.code, r.stderr]).toEqual([0, expect.stringMatching(stoppedBySignal)]);
  });
});
