/** `xroute run --watch`'s file watcher (src/cli/file-watch.ts): one callback per save, whatever the editor's steps. */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FileWatch, watchFiles } from '../../../src/cli/file-watch';
import { waitFor } from '../runtime/helpers';

const QUIET_MS = 150;

describe('watchFiles', () => {
  let dir: string;
  let watch: FileWatch | undefined;
  let batches: string[][];
  const start = (files: string[]) => (watch = watchFiles(files, (changed) => batches.push(changed), { quietMs: QUIET_MS }));

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'xroute-watch-'));
    batches = [];
  });
  afterEach(() => {
    watch?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('calls back once for several writes in a row, as an editor saves', async () => {
    const flow = path.join(dir, 'flow.json');
    const marker = path.join(dir, 'marker.json');
    writeFileSync(flow, '{}');
    writeFileSync(marker, '{}');
    start([flow, marker]);
    for (let i = 0; i < 5; i++) writeFileSync(flow, `{"step": ${i}}`);
    await waitFor(() => batches.length >= 1, 'the first callback');
    // A later change gives the next callback: had the 5 writes given more than one, they would come before it.
    writeFileSync(marker, '{"later": true}');
    await waitFor(() => batches.length >= 2, 'the second callback');
    expect(batches).toEqual([[flow], [marker]]);
  });

  it('sees a file an editor replaces by renaming a new one over it', async () => {
    const file = path.join(dir, 'flow.json');
    writeFileSync(file, '{}');
    start([file]);
    writeFileSync(path.join(dir, '.flow.json.swp'), '{"new": true}');
    renameSync(path.join(dir, '.flow.json.swp'), file);
    await waitFor(() => batches.length === 1, 'the callback');
    expect(batches).toEqual([[file]]);
  });

  it('sees a change to a file the topology references, in another directory', async () => {
    const flow = path.join(dir, 'flow.json');
    mkdirSync(path.join(dir, 'templates'));
    const template = path.join(dir, 'templates', 'greet.txt');
    writeFileSync(flow, '{}');
    writeFileSync(template, 'Hello');
    start([flow, template]);
    writeFileSync(template, 'Hello again');
    await waitFor(() => batches.length === 1, 'the callback');
    expect(batches).toEqual([[template]]);
  });

  it('ignores the other files of a watched directory', async () => {
    const flow = path.join(dir, 'flow.json');
    writeFileSync(flow, '{}');
    start([flow]);
    writeFileSync(path.join(dir, 'unrelated.log'), 'noise');
    writeFileSync(flow, '{"x": 1}');
    await waitFor(() => batches.length === 1, 'the callback');
    expect(batches).toEqual([[flow]]);
  });

  it('watches the new list of files once it is given one', async () => {
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    writeFileSync(a, '{}');
    writeFileSync(b, '{}');
    start([a]).watchFiles([b]);
    writeFileSync(a, '{"x": 1}');
    writeFileSync(b, '{"x": 1}');
    await waitFor(() => batches.length === 1, 'the callback');
    expect([batches, watch!.files()]).toEqual([[[b]], [b]]);
  });
});
