/** Runs a bench module in a fresh `node` process (for clean RSS figures) and returns its JSON result line. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * `moduleBase` is a path without extension next to this file; the child is the .js file when the bench runs
 * compiled (dist/), else the .ts file loaded through ts-register.js.
 */
export function runChild<T>(moduleBase: string, args: string[], nodeFlags: readonly string[] = []): Promise<T> {
  const compiled = __filename.endsWith('.js');
  const script = join(__dirname, `${moduleBase}${compiled ? '.js' : '.ts'}`);
  const execArgs = [...nodeFlags, ...(compiled ? [script, ...args] : ['-r', join(__dirname, 'ts-register.js'), script, ...args])];
  return new Promise<T>((resolve, reject) => {
    const child = spawn(process.execPath, execArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`${moduleBase} ${args.join(' ')} exited with ${code}: ${err.trim() || out.trim()}`));
      try {
        resolve(JSON.parse(line) as T);
      } catch {
        reject(new Error(`${moduleBase} ${args.join(' ')} printed no JSON result: ${out.trim()} ${err.trim()}`));
      }
    });
  });
}
