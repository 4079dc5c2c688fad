import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PassThrough } from 'stream';
import { main } from '../../../src/cli/main';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function xroute(args: string[], stop: Promise<string> = new Promise(() => undefined)): Promise<Run> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (c) => out.push(String(c)));
  stderr.on('data', (c) => err.push(String(c)));
  const code = await main(args, { stdin: new PassThrough(), stdout, stderr }, stop);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

function tmpFile(name: string, text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-cli-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

const evaluatorFlow = {
  Name: 'f',
  Persister: ['pstr_eval'],
  pstr_eval: { ClassName: 'org.qbroker.persister.MessageEvaluator', URI: 'eval://', LinkName: 'eval', Ruleset: { r: {} } },
};

describe('xroute command line', () => {
  it.each(['run', 'validate', 'eval', 'schema'])('prints usage for %s --help and exits 0', async (command) => {
    const r = await xroute([command, '--help']);
    expect([r.code, r.stdout]).toEqual([0, expect.stringContaining(`Usage: xroute ${command}`)]);
  });

  it('lists the commands for --help', async () => {
    const r = await xroute(['--help']);
    expect(r.stdout).toMatch(/run <topology\.json>[\s\S]*validate[\s\S]*eval[\s\S]*schema/);
  });

  it('exits 2 on an unknown command', async () => {
    const r = await xroute(['frobnicate']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('unknown command "frobnicate"')]);
  });

  it('validates a good topology with exit code 0', async () => {
    const r = await xroute(['validate', tmpFile('flow.json', JSON.stringify(evaluatorFlow))]);
    expect([r.code, r.stdout]).toEqual([0, expect.stringContaining('valid')]);
  });

  it('reports invalid JSON with line and column and exit code 1', async () => {
    const r = await xroute(['validate', tmpFile('bad.json', '{\n "Name": "x",\n}\n')]);
    expect([r.code, r.stderr]).toEqual([1, expect.stringMatching(/invalid JSON at line 3, column 1/)]);
  });

  it('prints every error of an invalid topology, each naming file, component and property', async () => {
    const bad = { ...evaluatorFlow, pstr_eval: { ...evaluatorFlow.pstr_eval, Capacity: 'many', Colour: 'red' } };
    const file = tmpFile('flow.json', JSON.stringify(bad));
    const r = await xroute(['validate', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}: pstr_eval: Capacity: "many": expected a positive integer, e.g. "256"`);
    expect(r.stderr).toContain(`${file}: pstr_eval: Colour: unknown property`);
  });

  it('validates a single component configuration', async () => {
    const r = await xroute(['validate', tmpFile('pstr.json', JSON.stringify(evaluatorFlow.pstr_eval))]);
    expect(r.code).toBe(0);
  });

  it('prints a topology JSON Schema that knows the component classes', async () => {
    const r = await xroute(['schema']);
    const schema = JSON.parse(r.stdout);
    expect(JSON.stringify(schema)).toContain('persister\\\\.MessageEvaluator');
  });

  it('runs a topology until the stop signal and exits 0', async () => {
    let stop!: (s: string) => void;
    const signal = new Promise<string>((r) => (stop = r));
    const running = xroute(['run', '--log-level', 'error', tmpFile('flow.json', JSON.stringify(evaluatorFlow))], signal);
    setTimeout(() => stop('SIGTERM'), 50);
    expect((await running).code).toBe(0);
  });

  it('refuses to run a component configuration that is not a topology', async () => {
    const r = await xroute(['run', tmpFile('pstr.json', JSON.stringify(evaluatorFlow.pstr_eval))]);
    expect([r.code, r.stderr]).toEqual([1, expect.stringContaining('not a topology')]);
  });
});
