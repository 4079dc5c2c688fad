/**
 * `xroute run --watch`: watches the topology file and every file it references, and calls back once an editor has
 * finished writing (no change for `quietMs`): an editor writes in several steps (truncate, write, rename a swap
 * file over the original), and one save must give one reload. The directories are watched, not the files, so
 * that a file replaced by a rename (vim, most editors' safe write) is still seen.
 */
import { FSWatcher, watch } from 'fs';
import * as path from 'path';
import { Logger } from '../logging/logger';

/** How long the files must stay unchanged before the callback (docs/cli.md, --watch). */
const DEFAULT_QUIET_MS = 300;

export interface FileWatch {
  /** Watches these files from now on (absolute or relative to the working directory), instead of the previous ones. */
  watchFiles(files: readonly string[]): void;
  /** The files watched now, absolute. */
  files(): string[];
  close(): void;
}

export function watchFiles(files: readonly string[], onChange: (changed: string[]) => void, options: { quietMs?: number; logger?: Logger } = {}): FileWatch {
  const quietMs = options.quietMs ?? DEFAULT_QUIET_MS;
  const watchers = new Map<string, FSWatcher>();
  let wanted = new Set<string>();
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const changed = (file: string) => {
    pending.add(file);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      const batch = [...pending].sort();
      pending.clear();
      if (!closed) onChange(batch);
    }, quietMs);
  };

  const update = (next: readonly string[]) => {
    wanted = new Set(next.map((f) => path.resolve(f)));
    const dirs = new Set([...wanted].map((f) => path.dirname(f)));
    for (const [dir, w] of watchers) {
      if (dirs.has(dir)) continue;
      w.close();
      watchers.delete(dir);
    }
    for (const dir of dirs) {
      if (watchers.has(dir)) continue;
      try {
        const w = watch(dir, { persistent: false }, (_event, name) => {
          const file = name === null ? undefined : path.join(dir, name.toString());
          if (file !== undefined && wanted.has(file)) changed(file);
        });
        w.on('error', (e) => options.logger?.warn('--watch: a watched directory failed', { directory: dir, error: e.message }));
        watchers.set(dir, w);
      } catch (e) {
        options.logger?.warn('--watch: cannot watch a directory', { directory: dir, error: (e as Error).message });
      }
    }
  };

  update(files);
  return {
    watchFiles: update,
    files: () => [...wanted],
    close: () => {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
