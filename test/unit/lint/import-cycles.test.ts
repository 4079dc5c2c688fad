/**
 * The import-cycle gate `npm run lint` runs (scripts/check-import-cycles.js): a cycle between files, or between
 * folders, fails it; the repository has none.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'check-import-cycles.js');

/** Runs the gate on a tree of the given files (path → content) and returns its exit code and report. */
function gateOn(files: Record<string, string>): { status: number | null; report: string } {
  const root = mkdtempSync(join(tmpdir(), 'xroute-cycles-'));
  try {
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), content);
    }
    const child = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
    return { status: child.status, report: child.stderr };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('the import-cycle gate', () => {
  it('fails on two files that import each other, naming the cycle', () => {
    const { status, report } = gateOn({
      'src/core/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'src/core/b.ts': "import type { a } from './a';\nexport const b = (f?: typeof a) => f;\n",
    });
    expect(status).toBe(1);
    expect(report).toMatch(/import cycle between files: src\/core\/([ab])\.ts -> src\/core\/(?!\1)[ab]\.ts -> src\/core\/\1\.ts/);
  });

  it('fails on two folders that import each other through different files, naming a file import of each edge', () => {
    const { status, report } = gateOn({
      'src/lower/helper.ts': "import { policy } from '../upper/policy';\nexport const helper = policy;\n",
      'src/upper/policy.ts': 'export const policy = 1;\n',
      'src/upper/runner.ts': "import { helper } from '../lower/helper';\nexport const run = helper;\n",
    });
    expect(status).toBe(1);
    expect(report).toMatch(/import cycle between folders: src\/(lower|upper) -> src\/(lower|upper) -> src\/(lower|upper)/);
    expect(report).toContain('src/lower/helper.ts imports src/upper/policy.ts');
    expect(report).toContain('src/upper/runner.ts imports src/lower/helper.ts');
  });

  it('passes layers that import only downwards, through an index too', () => {
    const { status, report } = gateOn({
      'src/lower/index.ts': "export { helper } from './helper';\n",
      'src/lower/helper.ts': 'export const helper = 1;\n',
      'src/upper/runner.ts': "import { helper } from '../lower';\nexport const run = helper;\n",
      'test/unit/runner.test.ts': "import { run } from '../../src/upper/runner';\nexport const x = run;\n",
    });
    expect({ status, report }).toEqual({ status: 0, report: '' });
  });

  it('passes the repository', () => {
    const child = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    expect({ status: child.status, report: child.stderr }).toEqual({ status: 0, report: '' });
  });
});
