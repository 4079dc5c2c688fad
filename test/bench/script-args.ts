/**
 * The command line of a single benchmark script run by itself (`node dist/test/bench/jms-bench.js 5000`):
 * at most one argument, the message count, a positive integer. Strict like the bench runner: an option or a
 * second argument is a usage error (exit code 2 with the usage line), never silently a NaN count.
 */
import { parseArgs } from 'node:util';

export class BenchUsageError extends Error {
  override name = 'BenchUsageError';
}

/** The message count from `argv` (process.argv.slice(2)), or `fallback` when none is given. */
export function messageCount(argv: readonly string[], fallback: number, script: string): number {
  const usage = `usage: node dist/test/bench/${script}.js [MESSAGES] (default ${fallback})`;
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args: [...argv], options: {}, strict: true, allowPositionals: true }));
  } catch (err) {
    throw new BenchUsageError(`${(err as Error).message.split('\n')[0].replace(/\. To specify a positional.*$/, '')}; ${usage}`);
  }
  if (positionals.length > 1) throw new BenchUsageError(`unexpected argument ${JSON.stringify(positionals[1])}; ${usage}`);
  if (positionals.length === 0) return fallback;
  const n = Number(positionals[0]);
  if (!Number.isSafeInteger(n) || n <= 0) throw new BenchUsageError(`MESSAGES ${JSON.stringify(positionals[0])} is not a positive integer; ${usage}`);
  return n;
}

/** messageCount for a script's main: a usage error is printed and ends the process with exit code 2. */
export function messageCountOrExit(fallback: number, script: string): number {
  try {
    return messageCount(process.argv.slice(2), fallback, script);
  } catch (err) {
    if (!(err instanceof BenchUsageError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
}

/** Runs a bench script's `main` when the file is run by itself: exit code 0 once it resolves, 1 with the error if it rejects. */
export function runScript(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
