/** Waits until a child process has printed (stdout or stderr, those it pipes) text matching `pattern`; resolves with the match. */
import { ChildProcess } from 'child_process';

export function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in ${timeoutMs} ms; output: ${text}`)), timeoutMs);
    const on = (d: Buffer) => {
      text += String(d);
      const m = text.match(pattern);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout?.on('data', on);
    child.stderr?.on('data', on);
  });
}
