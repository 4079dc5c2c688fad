#!/usr/bin/env node
/** The `xroute` command line. */
import { defaultRegistry } from '../../actors';
import { createLogger, LogLevel } from '../logging/logger';
import { runCommand, schemaCommand, validateCommand, CliIo } from './commands';

const HELP: Record<string, string> = {
  main: `Usage: xroute <command> [options]

Commands:
  run <topology.json>                       boot the topology and run until SIGINT/SIGTERM, then drain and stop
  validate <file.json>...                   check topologies or component configurations; no connections
  eval <evaluator.json> [messages.jsonl]    run a MessageEvaluator configuration over messages (JSON lines)
  schema                                    print the JSON Schema of a topology (for editors)
  status [--admin URL] [--json]             show a running flow's components and links (exit 0 ready, 1 not, 2 unreachable)

Run 'xroute <command> --help' for a command's options.`,
  run: `Usage: xroute run <topology.json> [--log-level error|warn|info|debug] [--json-logs|--text-logs]
                  [--admin HOST:PORT] [--stats-interval SECONDS]

Boots the flow: creates its XQueues, starts every component as a supervised actor (persisters, then
nodes, then receivers) and runs until SIGINT or SIGTERM. On a signal it stops the receivers, waits up
to 10 s for in-flight messages to finish, stops every actor and exits 0.
Logs are JSON lines when stdout is not a terminal.
--admin (or XROUTE_ADMIN) serves /healthz, /readyz, /status, /metrics and a live status page; use
127.0.0.1:PORT. At stop, and every --stats-interval seconds, each component's totals are logged.
Exit codes: 0 stopped by a signal, 1 not started (configuration), 3 a component gave up (OnGiveUp "exit").`,
  status: `Usage: xroute status [--admin URL] [--json]

Reads /status from a flow started with --admin (default XROUTE_ADMIN, else ${'127.0.0.1:9090'}) and prints its
components (name, class, state, restarts, messages) and links (depth/capacity); --json prints /status as is.
Exit 0 when every component is ready, 1 when reachable but not ready, 2 when unreachable.`,
  validate: `Usage: xroute validate <file.json>...

Each file is a topology (it has Receiver/Node/Persister lists) or one component's configuration
(it has a ClassName). Every problem is printed, naming the file, the component, the property and what
was expected. Exit code 1 when any file has an error, 0 otherwise (warnings do not fail).`,
  eval: `Usage: xroute eval <evaluator-config.json> [messages.jsonl]

Builds a MessageEvaluator from a component configuration and prints each message after evaluation in
JSON form, one per line, in input order. Messages are read one JSON object per line
({"body": "...", "properties": {...}, "headers": {...}}) from the file, or from stdin when no file is given.`,
  schema: `Usage: xroute schema

Prints the JSON Schema of a topology file, including every component class xroute knows.`,
};

/** Options that take the next argument as their value. */
const VALUE_OPTIONS = new Set(['log-level', 'admin', 'stats-interval']);

function parseOptions(args: string[]): { positional: string[]; flags: Map<string, string | true> } {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('--')) {
      const [k, v] = a.slice(2).split('=', 2);
      if (v !== undefined) flags.set(k, v);
      else if (VALUE_OPTIONS.has(k) && i + 1 < args.length) flags.set(k, args[++i]);
      else flags.set(k, true);
    } else positional.push(a);
  }
  return { positional, flags };
}

export async function main(argv: string[], io: CliIo & { stdin: NodeJS.ReadableStream }, stopSignal: Promise<string>): Promise<number> {
  const [command, ...rest] = argv;
  const { positional, flags } = parseOptions(rest);
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(HELP.main + '\n');
    return command === undefined ? 2 : 0;
  }
  if (!(command in HELP)) {
    io.stderr.write(`xroute: unknown command ${JSON.stringify(command)}\n\n${HELP.main}\n`);
    return 2;
  }
  if (flags.has('help') || flags.has('h')) {
    io.stdout.write(HELP[command] + '\n');
    return 0;
  }
  const registry = defaultRegistry();
  switch (command) {
    case 'validate':
      return validateCommand(positional, registry, io);
    case 'schema':
      return schemaCommand(registry, io);
    case 'status': {
      const { statusCommand } = await import('./status-command');
      const admin = flags.get('admin');
      return statusCommand({ admin: typeof admin === 'string' ? admin : undefined, json: flags.has('json') }, io);
    }
    case 'eval': {
      if (positional.length < 1 || positional.length > 2) {
        io.stderr.write(HELP.eval + '\n');
        return 2;
      }
      const { runEval } = await import('./eval-command');
      return runEval(positional[0], positional[1], io);
    }
    case 'run': {
      if (positional.length !== 1) {
        io.stderr.write(HELP.run + '\n');
        return 2;
      }
      const level = flags.get('log-level');
      const json = flags.has('json-logs') ? true : flags.has('text-logs') ? false : undefined;
      const logger = createLogger({ level: typeof level === 'string' ? (level as LogLevel) : undefined, json });
      const { readRunOperations } = await import('./run-operations');
      let operations;
      try {
        operations = readRunOperations(flags, process.env);
      } catch (e) {
        io.stderr.write(`xroute run: ${(e as Error).message}\n`);
        return 2;
      }
      return runCommand(positional[0], registry, io, logger, stopSignal, operations);
    }
  }
  return 2;
}

if (require.main === module) {
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
