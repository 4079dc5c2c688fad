/**
 * docs/samples.md lists every configuration in test/fixtures/samples/ with what `xroute validate` prints for
 * it. This keeps the page and the directory in sync, and the printed output true. After a deliberate change
 * to the validator's messages, run this file with XROUTE_UPDATE_DOCS=1 to rewrite the output blocks.
 */
import * as fs from 'fs';
import * as path from 'path';
import { PassThrough } from 'stream';
import { main } from '../../../src/cli/main';

const root = path.resolve(__dirname, '../../..');
const docFile = path.join(root, 'docs/samples.md');
const samplesDir = 'test/fixtures/samples';
const SECTION = /^## `([^`]+)`[^\n]*\n[\s\S]*?^```text validate\n([\s\S]*?)^```$/gm;

/** What `xroute validate test/fixtures/samples/<file>` prints from the repository root, then its exit code. */
async function validateOutput(file: string): Promise<string> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c) => (text += String(c)));
  const abs = path.join(root, samplesDir, file);
  const code = await main(['validate', abs], { stdin: new PassThrough(), stdout: out, stderr: out }, new Promise(() => undefined));
  return `${text.split(abs).join(`${samplesDir}/${file}`)}exit code ${code}\n`;
}

const samples = fs
  .readdirSync(path.join(root, samplesDir))
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('docs/samples.md', () => {
  const doc = fs.readFileSync(docFile, 'utf8');
  const sections = new Map([...doc.matchAll(SECTION)].map((m) => [m[1], m[2]]));

  if (process.env.XROUTE_UPDATE_DOCS === '1') {
    it('rewrites the validate output blocks', async () => {
      let updated = doc;
      for (const file of samples) {
        const output = await validateOutput(file);
        updated = updated.replace(
          new RegExp(`(^## \`${file.replace(/[.]/g, '\\.')}\`[^\\n]*\\n[\\s\\S]*?^\`\`\`text validate\\n)[\\s\\S]*?(^\`\`\`$)`, 'm'),
          (_m, head: string, tail: string) => head + output + tail,
        );
      }
      fs.writeFileSync(docFile, updated);
      expect(updated).toContain('exit code');
    });
  }

  it('has one section for each sample configuration, and none for a file that is not there', () => {
    expect([...sections.keys()].sort()).toEqual(samples);
  });

  it.each(samples)('shows what xroute validate prints for %s', async (file) => {
    expect(sections.get(file)).toBe(await validateOutput(file));
  });
});
