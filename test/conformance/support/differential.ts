/**
 * What every differential corpus shares: running an oracle process over many cases a few at a time, the outcome
 * of a case, and the per-corpus figures the suite prints and docs/evaluator/transforms.md records.
 */
import { spawn } from 'node:child_process';

export interface ProcessResult {
  readonly status: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** Runs a command (no shell), feeding `input`; resolves with its exit status and output. */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { cwd?: string; input?: string; timeoutMs?: number } = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.stdout!.on('data', (b: Buffer) => out.push(b));
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') });
    });
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

/** Maps `items` through `work`, at most `parallel` at a time, keeping their order. */
export async function mapLimited<T, R>(items: readonly T[], parallel: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return results;
}

/** How one case ended: agrees with the oracle, refused (naming the construct), a listed difference, or a silent one. */
type Outcome = 'agree' | 'refused' | 'documented' | 'silent';

export interface CaseReport {
  readonly id: string;
  readonly outcome: Outcome;
  /** For refused, documented and silent cases: what differed or what was refused. */
  readonly detail?: string;
}

export interface Figures {
  readonly corpus: string;
  readonly cases: number;
  readonly agree: number;
  readonly refused: number;
  readonly documented: number;
  readonly silent: number;
}

export function figures(corpus: string, reports: readonly CaseReport[]): Figures {
  const count = (o: Outcome): number => reports.filter((r) => r.outcome === o).length;
  return { corpus, cases: reports.length, agree: count('agree'), refused: count('refused'), documented: count('documented'), silent: count('silent') };
}

/** One line per corpus, as the docs table shows them. */
export function figuresLine(f: Figures): string {
  return `${f.corpus}: ${f.cases} cases, ${f.agree} agree, ${f.refused} refused, ${f.documented} documented differences, ${f.silent} silent differences`;
}

/** Prints the figures line of each of `corpora`, from the reports of its cases (reports[i] is the report of cases[i]). */
export function printFigures(corpora: Iterable<string>, cases: readonly { readonly corpus: string }[], reports: readonly CaseReport[]): void {
  for (const corpus of corpora)
    process.stdout.write(
      figuresLine(
        figures(
          corpus,
          reports.filter((_, i) => cases[i]!.corpus === corpus),
        ),
      ) + '\n',
    );
}

/**
 * Entries of a deliberate-difference list that no case needs any more (the case now agrees, or is gone): a
 * stale entry fails the suite so the list stays exact.
 */
export function staleEntries(listed: Readonly<Record<string, string>>, reports: readonly CaseReport[]): string[] {
  const documented = new Set(reports.filter((r) => r.outcome === 'documented').map((r) => r.id));
  return Object.keys(listed).filter((id) => !documented.has(id));
}
