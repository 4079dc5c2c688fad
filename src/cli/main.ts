#!/usr/bin/env -S node --max-semi-space-size=64
/**
 * The `xroute` command line: one table of commands, each with its own option table (see command-line.ts).
 * stdout carries only what a command or a flow writes as output (a `file://-` StreamPersister, `eval`,
 * `schema`, `validate`); logs go to stderr or to --log-file, so `xroute run flow.json | jq` works.
 *
 * The first line starts Node with a 64 MB young generation (`--max-semi-space-size=64`, as
 * `npm start` and `npm run bench` do): a flow with many messages in flight, each with a parsed
 * XML tree, otherwise spends much of its time in young-generation garbage collection. The flag
 * must be given when Node starts (setting it at run time has no effect), hence the `env -S` line
 * that the `xroute` command (and `npx xroute`) runs through.
 */
import { closeSync, createWriteStream, openSync, WriteStream } from 'node:fs';
import { defaultRegistry } from '../../actors';
import { createLogger, LogLevel } from '../logging/logger';
import { runCommand, schemaCommand, validateCommand, CliIo } from './commands';
import { CommandSpec, commandHelp, mainHelp, OptionTable, OptionValues, parseCommandLine, UsageError, usageErrorText } from './command-line';
import { packageVersion } from './package-version';
import { readRunOperations, RunOperationsOptions } from './run-operations';
import { DEFAULT_CONNECT_TIMEOUT_S } from './connect-bound';
import { EXIT_OUTPUT_CLOSED, tolerateOutputErrors, watchOutput } from '../runtime/closed-output';

export interface MainIo extends CliIo {
  stdin: NodeJS.ReadableStream;
  /** The environment (XROUTE_LOG_LEVEL); default process.env. */
  env?: NodeJS.ProcessEnv;
}

interface Context {
  readonly io: MainIo;
  readonly stopSignal: Promise<string>;
  /** Resolves when stdout's reader goes away (`xroute run flow.json | head -1`). */
  readonly outputClosed: Promise<void>;
}

const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];

/** Logging options of the commands that run a flow. */
const LOG_OPTIONS: OptionTable = {
  'log-level': { type: 'string', valueName: 'LEVEL', description: `${LOG_LEVELS.join(', ')} (default info, or XROUTE_LOG_LEVEL)` },
  'log-file': { type: 'string', valueName: 'PATH', description: 'append log lines to this file instead of stderr' },
  'json-logs': { type: 'boolean', description: 'one JSON object per log line (the default when the log does not go to a terminal)' },
  'text-logs': { type: 'boolean', description: 'readable log lines (the default on a terminal)' },
};

/** How a client of the admin endpoint (status, reload) finds it and proves it may use it. */
const ADMIN_CLIENT_OPTIONS: OptionTable = {
  admin: { type: 'string', valueName: 'URL', description: 'the admin endpoint: a URL or HOST:PORT (default XROUTE_ADMIN, else 127.0.0.1:9090)' },
  'admin-token-file': { type: 'string', valueName: 'FILE', description: 'send the admin token held in FILE (else XROUTE_ADMIN_TOKEN)' },
};

/** The operational options of `run` (src/cli/run-operations.ts reads them). */
const RUN_OPERATION_OPTIONS: OptionTable = {
  admin: {
    type: 'string',
    valueName: 'HOST:PORT',
    description: 'serve /healthz /readyz /status /metrics, a status page and the control routes there (or XROUTE_ADMIN); use 127.0.0.1:PORT',
  },
  'admin-token-file': {
    type: 'string',
    valueName: 'FILE',
    description: 'the admin token is the content of FILE (else XROUTE_ADMIN_TOKEN); required off loopback and by every route that changes the flow',
  },
  'admin-tls-cert': {
    type: 'string',
    valueName: 'FILE',
    description: 'serve the admin endpoint over https with this PEM certificate (chain); with --admin-tls-key',
  },
  'admin-tls-key': { type: 'string', valueName: 'FILE', description: 'the PEM private key of --admin-tls-cert' },
  'stats-interval': { type: 'string', valueName: 'SECONDS', description: "log each component's totals every SECONDS (always at stop)" },
  'connect-timeout': {
    type: 'string',
    valueName: 'SECONDS',
    description: `exit 4 when a component cannot connect for SECONDS (default ${DEFAULT_CONNECT_TIMEOUT_S} for a flow fed only by files or stdin, else no bound; 0: no bound)`,
  },
  'drain-timeout': {
    type: 'string',
    valueName: 'SECONDS',
    description: 'at stop, how long work already handed downstream may take to finish and be acknowledged (default 60)',
  },
  'on-stop': {
    type: 'string',
    valueName: 'wait|kill',
    description: 'at stop, let running jobs finish within --drain-timeout (wait, default) or kill them and give them back (kill)',
  },
  trace: {
    type: 'string',
    valueName: 'COMPONENT[,...]',
    description: "log each message's path through these components: id, link, outcome, ms (at most 50 lines/s each; POST /trace at run time)",
  },
};

function runOperations(options: OptionValues, env: NodeJS.ProcessEnv): RunOperationsOptions {
  try {
    return readRunOperations(options, env);
  } catch (e) {
    throw new UsageError((e as Error).message, 'run', e);
  }
}

function stringOption(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function logLevel(options: OptionValues, env: NodeJS.ProcessEnv): LogLevel {
  const [given, source] = options['log-level'] !== undefined ? [options['log-level'], '--log-level'] : [env.XROUTE_LOG_LEVEL, 'XROUTE_LOG_LEVEL'];
  if (given === undefined || given === '') return 'info';
  if (typeof given === 'string' && (LOG_LEVELS as readonly string[]).includes(given)) return given as LogLevel;
  throw new UsageError(`invalid ${source} ${JSON.stringify(given)}; valid levels: ${LOG_LEVELS.join(', ')}`, 'run');
}

function openLogFile(file: string): WriteStream {
  try {
    closeSync(openSync(file, 'a')); // fail now, with a clear message, rather than at the first log line
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'its directory does not exist'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a directory'
            : (e as Error).message;
    throw new UsageError(`cannot open --log-file ${file}: ${why}`, 'run', e);
  }
  return createWriteStream(file, { flags: 'a' });
}

function endStream(stream: WriteStream): Promise<void> {
  return new Promise((resolve) => stream.end(resolve));
}

export const COMMANDS: readonly CommandSpec<Context>[] = [
  {
    name: 'run',
    args: '<topology.json>',
    positionals: { min: 1, max: 1 },
    summary: 'boot the topology; stop on SIGINT/SIGTERM or when every receiver has read all its input',
    details: `Boots the flow: creates its XQueues, starts every component as a supervised actor (persisters, then
nodes, then receivers) and runs until SIGINT or SIGTERM. A flow whose receivers all come to an end (files
read to the end, a TCP peer that closes) stops by itself once everything downstream is done, and exits 0;
--keep-running keeps it up until a signal instead. Stopping drains: receivers take no new message but keep
their connection until what they handed downstream is done and acknowledged, JobNode starts no new job,
for up to --drain-timeout seconds (default 60); what is unfinished then goes back to the broker. Then every
actor stops and xroute exits 0. --on-stop kill ends running jobs at once instead (they run again later).
Logs go to stderr (or --log-file); stdout carries only what the flow writes to file://-.
--admin (or XROUTE_ADMIN) serves /healthz, /readyz, /status, /metrics and a live status page; use
127.0.0.1:PORT. Its routes that change the flow (POST /reload, /components/NAME/pause|resume|restart) need the
admin token (XROUTE_ADMIN_TOKEN or --admin-token-file, never on the command line); on an address other than
loopback every route but /healthz and /readyz needs it, and xroute refuses to start without one (exit 2).
SIGHUP, --watch and \`xroute reload\` re-read the topology file and change the running flow: what is unchanged
keeps running; a file that does not validate changes nothing. At stop, and every --stats-interval seconds, each
component's totals are logged.
A flow fed only by files or stdin exits 4 when a component cannot connect (a broker down or refusing the
login) for --connect-timeout seconds (default ${DEFAULT_CONNECT_TIMEOUT_S}); other flows retry until stopped, unless it is given.
Exit codes: 0 stopped, 1 not started (configuration), 2 usage error, 3 a component gave up (OnGiveUp "exit"),
4 a component could not connect within --connect-timeout, 141 stdout's reader went away (| head -1): the flow
was stopped as on SIGTERM.`,
    options: {
      ...LOG_OPTIONS,
      'keep-running': { type: 'boolean', description: 'do not stop when every receiver has reached the end of its input' },
      watch: { type: 'boolean', description: 'reload when the topology file or a file it references changes (after 300 ms without a change)' },
      ...RUN_OPERATION_OPTIONS,
    },
    async run([file], options, { io, stopSignal, outputClosed }) {
      const level = logLevel(options, io.env ?? process.env);
      const logFile = typeof options['log-file'] === 'string' ? openLogFile(options['log-file']) : undefined;
      const destination = logFile ?? io.stderr;
      const json = options['json-logs'] === true ? true : options['text-logs'] === true ? false : undefined;
      const logger = createLogger({ level, json, stream: destination });
      const env = io.env ?? process.env;
      const operations = runOperations(options, env);
      // The processes a flow starts (JobNode's jobs) inherit the environment: not the admin token, once read.
      delete env.XROUTE_ADMIN_TOKEN;
      try {
        return await runCommand(file, defaultRegistry(), io, logger, stopSignal, {
          keepRunning: options['keep-running'] === true,
          watch: options.watch === true,
          operations,
          outputClosed,
        });
      } finally {
        if (logFile) await endStream(logFile);
      }
    },
  },
  {
    name: 'validate',
    args: '<file.json>...',
    positionals: { min: 1, max: Infinity },
    summary: 'check topologies or component configurations; no connections',
    details: `Each file is a topology (it has Receiver/Node/Persister lists) or one component's configuration
(it has a ClassName). Every problem is printed, naming the file, the component, the property and what
was expected. Exit code 1 when any file has an error, 0 otherwise (warnings do not fail).`,
    options: {},
    run: (files, _options, { io }) => validateCommand([...files], defaultRegistry(), io),
  },
  {
    name: 'eval',
    args: '<evaluator.json> [messages.jsonl]',
    positionals: { min: 1, max: 2 },
    summary: 'run a MessageEvaluator configuration over messages (JSON lines)',
    details: `Builds a MessageEvaluator from a component configuration and prints each message after evaluation in
JSON form, one per line, in input order. Messages are read one JSON object per line
({"body": "...", "properties": {...}, "headers": {...}}) from the file, or from stdin when no file is given.`,
    options: {},
    async run([config, messages], _options, { io }) {
      const { runEval } = await import('./eval-command');
      return runEval(config, messages, io);
    },
  },
  {
    name: 'schema',
    args: '',
    positionals: { min: 0, max: 0 },
    summary: 'print the JSON Schema of a topology (for editors)',
    details: 'Prints the JSON Schema of a topology file, including every component class xroute knows.',
    options: {},
    run: (_args, _options, { io }) => schemaCommand(defaultRegistry(), io),
  },
  {
    name: 'status',
    args: '',
    positionals: { min: 0, max: 0 },
    summary: "show a running flow's components and links (exit 0 ready, 1 not ready, 2 unreachable, 4 degraded: stuck or parked)",
    details: `Reads /status from a flow started with --admin (default XROUTE_ADMIN, else 127.0.0.1:9090) and prints its
components (state, restarts, messages, in flight, rates, last message, next retry, endpoint) and links (depth,
rates, oldest message, stuck); --json prints /status as is; --watch prints it again every --interval seconds.
Exit 0 when every component is ready, 1 when reachable but not ready, 2 when unreachable, 4 when ready but a link
is stuck (full) or messages are parked (xroute parked list).`,
    options: {
      ...ADMIN_CLIENT_OPTIONS,
      json: { type: 'boolean', description: 'print /status as is' },
      watch: { type: 'boolean', description: 'print the status again every --interval seconds until interrupted' },
      interval: { type: 'string', valueName: 'SECONDS', description: 'seconds between two --watch prints (default 2)' },
      count: { type: 'string', valueName: 'N', description: 'with --watch: stop after N prints (exit code of the last)' },
    },
    async run(_args, options, { io }) {
      const { statusCommand, watchOptions } = await import('./status-command');
      const watch = options.watch === true ? watchOptions(options.interval, options.count) : undefined;
      if (typeof watch === 'string') {
        io.stderr.write(`xroute status: ${watch}\n`);
        return 2;
      }
      return statusCommand(
        { admin: stringOption(options.admin), tokenFile: stringOption(options['admin-token-file']), json: options.json === true, watch },
        io,
        io.env ?? process.env,
      );
    },
  },
  {
    name: 'reload',
    args: '',
    positionals: { min: 0, max: 0 },
    summary: 'change a running flow to its edited topology file, through its admin endpoint (exit 0 applied, 1 refused)',
    details: `Asks a flow started with --admin (default XROUTE_ADMIN, else 127.0.0.1:9090) to re-read its topology file and
reload it (POST /reload), and prints the receipt: what was kept, replaced, added and removed, what each drain
finished and gave back, and how long the swap took. A file that does not validate changes nothing: the receipt
says "refused" with the errors \`xroute validate\` prints. --dry-run prints the plan and changes nothing; --json
prints the receipt as JSON. The admin token is read as xroute run reads it (--admin-token-file, else
XROUTE_ADMIN_TOKEN). Exit 0 applied or unchanged (a dry run: the plan would apply), 1 refused (nothing changed),
2 the endpoint could not be asked (unreachable, 401 without the right token, no receipt), 3 rolled back.`,
    options: {
      ...ADMIN_CLIENT_OPTIONS,
      'dry-run': { type: 'boolean', description: 'print the plan; change nothing' },
      json: { type: 'boolean', description: 'print the receipt as JSON' },
    },
    async run(_args, options, { io }) {
      const { reloadCommand } = await import('./reload-command');
      return reloadCommand(
        {
          admin: stringOption(options.admin),
          tokenFile: stringOption(options['admin-token-file']),
          dryRun: options['dry-run'] === true,
          json: options.json === true,
        },
        io,
        io.env ?? process.env,
      );
    },
  },
  {
    name: 'parked',
    args: '<list|show|retry|drop> [ID...]',
    positionals: { min: 1, max: Infinity },
    summary: 'list, show, retry or drop parked and dead-lettered messages (RabbitMQ or ActiveMQ)',
    details: `Works on a receiver's parking queue or a broker's dead-letter queue, straight at the broker (--url and
--queue; --broker activemq for ActiveMQ over AMQP 1.0) or through a running flow's admin endpoint (--component,
with --admin or XROUTE_ADMIN; the admin token is read as \`xroute run\` reads it: --admin-token-file, else
XROUTE_ADMIN_TOKEN).
  list          id, origin, reason, age and attempts of up to --limit messages (default 100), without consuming
  show ID       one message: body, headers, properties
  retry ID...   send those messages home (their origin queue, or --to), at-least-once; --all or --limit N for the
                first N; prints a receipt of counts
  drop ID...    remove those messages (--all, --limit N)
Origins: xroute's parking headers, RabbitMQ's x-death header, ActiveMQ's original destination (the message's to).
SIGINT or SIGTERM stop a retry or drop after the window in progress and print its receipt; killed outright, a retry
still loses nothing (docs/operations.md). Exit 0 done, 1 some selected messages were left parked (the receipt says
why), the operation was interrupted or an id was not found, 2 usage or connection error.`,
    options: {
      url: { type: 'string', valueName: 'URL', description: 'the broker: amqp://USER:PASSWORD@HOST:PORT[/VHOST]' },
      queue: { type: 'string', valueName: 'NAME', description: 'the parking or dead-letter queue (e.g. xroute.parked.RECEIVER, ActiveMQ.DLQ)' },
      broker: { type: 'string', valueName: 'rabbitmq|activemq', description: 'with --url: RabbitMQ over AMQP 0-9-1 (default) or ActiveMQ over AMQP 1.0' },
      admin: { type: 'string', valueName: 'URL', description: 'the admin endpoint of a running flow: a URL or HOST:PORT' },
      component: { type: 'string', valueName: 'NAME', description: 'through the admin endpoint: the receiver whose parking queue to use' },
      'admin-token-file': {
        type: 'string',
        valueName: 'FILE',
        description: 'through the admin endpoint: the file holding the admin token (else XROUTE_ADMIN_TOKEN)',
      },
      all: { type: 'boolean', description: 'retry/drop: every message' },
      limit: { type: 'string', valueName: 'N', description: 'list: at most N (default 100); retry/drop: the first N' },
      to: { type: 'string', valueName: 'DESTINATION', description: "retry: send to this queue (address) instead of each message's origin" },
      window: {
        type: 'string',
        valueName: 'N',
        description: 'retry: publishes awaiting their confirm before the originals are removed (default 100; the most a crash can deliver twice)',
      },
      rate: { type: 'string', valueName: 'N', description: 'retry: at most N messages per second (default: no limit)' },
      json: { type: 'boolean', description: 'print JSON' },
    },
    async run([action, ...ids], options, { io, stopSignal }) {
      const { parkedCommand, PARKED_ACTIONS } = await import('./parked-command');
      // SIGINT/SIGTERM stop a retry or drop after its window in progress, with a receipt (nothing lost).
      const stop = new AbortController();
      void stopSignal.then((signal) => stop.abort(signal));
      if (!(PARKED_ACTIONS as readonly string[]).includes(action))
        throw new UsageError(`unknown action ${JSON.stringify(action)}; expected one of ${PARKED_ACTIONS.join(', ')}`, 'parked');
      const str = (k: string) => (typeof options[k] === 'string' ? (options[k] as string) : undefined);
      const broker = str('broker') ?? 'rabbitmq';
      if (broker !== 'rabbitmq' && broker !== 'activemq') throw new UsageError(`--broker ${JSON.stringify(broker)}: expected rabbitmq or activemq`, 'parked');
      const count = (k: string): number | undefined => {
        const text = str(k);
        const n = text === undefined ? undefined : Number(text);
        if (n !== undefined && (!Number.isInteger(n) || n < 1))
          throw new UsageError(`--${k} ${JSON.stringify(text)}: expected a whole number, 1 or more`, 'parked');
        return n;
      };
      return parkedCommand(
        {
          action: action as 'list',
          ids,
          url: str('url'),
          queue: str('queue'),
          broker,
          admin: str('admin'),
          tokenFile: str('admin-token-file'),
          component: str('component'),
          all: options.all === true,
          limit: count('limit'),
          to: str('to'),
          json: options.json === true,
          window: count('window'),
          rate: count('rate'),
          signal: stop.signal,
        },
        io,
        io.env ?? process.env,
      );
    },
  },
];

/**
 * Exit codes: what the command returned; 2 for a usage error (the problem and the usage line on stderr);
 * EXIT_OUTPUT_CLOSED (141) when stdout's reader went away, after the command ended quietly (docs/cli.md).
 */
export async function main(argv: string[], io: MainIo, stopSignal: Promise<string>): Promise<number> {
  const output = watchOutput(io.stdout);
  const code = await runCommandLine(argv, { io, stopSignal, outputClosed: output.closed });
  await output.flushed();
  return output.isClosed() ? EXIT_OUTPUT_CLOSED : code;
}

async function runCommandLine(argv: string[], context: Context): Promise<number> {
  const { io } = context;
  try {
    const parsed = parseCommandLine(argv, COMMANDS);
    switch (parsed.kind) {
      case 'version':
        io.stdout.write(packageVersion() + '\n');
        return 0;
      case 'help':
        io.stdout.write((parsed.command ? commandHelp(parsed.command) : mainHelp(COMMANDS)) + '\n');
        return 0;
      case 'command':
        return await parsed.command.run(parsed.positionals, parsed.options, context);
    }
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(usageErrorText(err, COMMANDS) + '\n');
    return 2;
  }
}

if (require.main === module) {
  // A log reader that went away (`2>&1 | head -1`) must not crash the flow: the log lines are lost, nothing else.
  tolerateOutputErrors(process.stderr);
  const stopSignal = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, stopSignal).then(
    (code) => {
      process.exitCode = code;
      // `run` returns after a clean stop; nothing else keeps the process alive, but do not wait on stdin.
      if (process.stdin.isTTY === false) process.stdin.unref?.();
    },
    (err: unknown) => {
      process.stderr.write(`xroute: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
