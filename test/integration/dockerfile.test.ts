/**
 * The Dockerfile's steps, run as a script in a scratch directory (no Docker here): every absolute path of the image
 * is moved under the scratch root, COPY copies from the repository (the build context, after `npm ci` built dist/),
 * RUN runs with bash in the WORKDIR with the ENV set (npm offline: the cache `npm ci` filled serves the lock file).
 * Then the CMD starts the flow from the image's /etc/xroute/flow.json, with the admin token file a container is given
 * mounted, and the HEALTHCHECK command must pass against it; the admin port 9090 is replaced by a free one, since the
 * tests share the machine (the address stays the image's 0.0.0.0).
 */
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from '../support/free-port';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { quietNpm, repoRoot } from '../support/fresh-npm-project';

const run = promisify(execFile);

interface Instruction {
  op: string;
  args: string;
}

/** The Dockerfile's instructions: comments dropped, `\` continuations joined. */
function instructions(text: string): Instruction[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const m = /^(\S+)\s+(.*)$/.exec(l);
      if (!m) throw new Error(`not an instruction: ${l}`);
      return { op: m[1].toUpperCase(), args: m[2] };
    });
}

const exec = (i: Instruction | undefined): string[] => (i ? (JSON.parse(i.args.replace(/^(--\S+\s+)*CMD\s+/, '')) as string[]) : []);

describe('the Dockerfile', () => {
  const steps = instructions(readFileSync(path.join(repoRoot, 'examples', 'deploy', 'Dockerfile'), 'utf8'));
  const ignored = readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim());
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'xroute-docker-'));
  /** An absolute path of the image, in the scratch directory. */
  const inImage = (p: string) => path.join(scratch, p);
  /** A command or value with every absolute path moved into the scratch directory. */
  const moved = (text: string) => text.replace(/(^|[\s=:"'])\/(?=[A-Za-z])/g, `$1${scratch}/`);
  const env: Record<string, string> = {};
  let flow: ChildProcess | undefined;

  afterAll(async () => {
    if (flow && flow.exitCode === null) {
      flow.kill('SIGKILL');
      await new Promise((resolve) => flow?.once('exit', resolve));
    }
    rmSync(scratch, { recursive: true, force: true });
  });

  it('builds on a Debian-based Node 20 image and runs as a user other than root', () => {
    const users = steps.filter((s) => s.op === 'USER').map((s) => s.args);
    expect([
      steps[0].op,
      /^node:20(\.[\d.]+)?-(bookworm|bullseye|trixie)(-slim)?$/.test(steps[0].args),
      users.length > 0 && !['root', '0'].includes(users[users.length - 1]),
    ]).toEqual(['FROM', true, true]);
  });

  it('runs xroute run /etc/xroute/flow.json with the admin token from a mounted file, with a health check on /healthz', () => {
    const health = steps.find((s) => s.op === 'HEALTHCHECK');
    expect([exec(steps.find((s) => s.op === 'CMD')), exec(health).join(' ').includes('/healthz')]).toEqual([
      ['xroute', 'run', '/etc/xroute/flow.json', '--admin-token-file', '/run/secrets/xroute-admin/token'],
      true,
    ]);
  });

  it('copies only what .dockerignore lets into the build context', () => {
    const sources = steps.filter((s) => s.op === 'COPY' && !s.args.includes('--from')).flatMap((s) => s.args.split(/\s+/).slice(0, -1));
    expect(ignored).toContain('*');
    expect(sources.filter((s) => !ignored.includes(`!${s.replace(/\/$/, '')}`))).toEqual([]);
  });

  it('builds in a scratch directory, step by step, and the flow it starts passes the health check', async () => {
    const port = await freePort();
    let cwd = scratch;
    for (const step of steps) {
      if (step.op === 'WORKDIR') {
        cwd = inImage(step.args);
        mkdirSync(cwd, { recursive: true });
      } else if (step.op === 'ENV') {
        const m = /^(\w+)[=\s](.*)$/.exec(step.args);
        if (m) env[m[1]] = m[2];
      } else if (step.op === 'COPY') {
        const parts = step.args.split(/\s+/);
        const dest = parts[parts.length - 1];
        const target = dest.startsWith('/') ? inImage(dest) : path.join(cwd, dest);
        for (const source of parts.slice(0, -1)) {
          const into = dest.endsWith('/') ? path.join(target, path.basename(source)) : target;
          mkdirSync(path.dirname(into), { recursive: true });
          cpSync(path.join(repoRoot, source), into, { recursive: true });
        }
      } else if (step.op === 'RUN') {
        mkdirSync(inImage('usr/local/bin'), { recursive: true });
        await run('bash', ['-euo', 'pipefail', '-c', moved(step.args)], { cwd, env: { ...quietNpm, ...env, npm_config_offline: 'true' }, maxBuffer: 16 << 20 });
      }
    }
    const [command, ...args] = exec(steps.find((s) => s.op === 'CMD'));
    expect(existsSync(inImage(`usr/local/bin/${command}`))).toBe(true);
    // The secret a container is given (docs/install.md): with it, the endpoint on every interface starts.
    mkdirSync(inImage('run/secrets/xroute-admin'), { recursive: true });
    writeFileSync(inImage('run/secrets/xroute-admin/token'), 'docker-test-token-8b0f3e61c2d9\n');
    const { XROUTE_ADMIN_TOKEN: _inherited, ...outside } = process.env;
    flow = spawn(inImage(`usr/local/bin/${command}`), args.map(moved), {
      cwd,
      env: { ...outside, ...env, XROUTE_ADMIN: env.XROUTE_ADMIN.replace(':9090', `:${port}`) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    flow.stderr?.on('data', (c) => (log += String(c)));
    const [checker, ...checkArgs] = exec(steps.find((s) => s.op === 'HEALTHCHECK'));
    const check = () =>
      run(
        checker,
        checkArgs.map((a) => a.replace(':9090', `:${port}`)),
        { env: process.env },
      ).then(
        () => true,
        () => false,
      );
    const deadline = Date.now() + 30_000;
    let healthy = false;
    while (!healthy && Date.now() < deadline && flow.exitCode === null) {
      healthy = await check();
      if (!healthy) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect({ healthy, exitCode: flow.exitCode, log: healthy ? '' : log }).toEqual({ healthy: true, exitCode: null, log: '' });
    flow.kill('SIGTERM');
    const code = await new Promise((resolve) => flow?.once('exit', (c) => resolve(c)));
    expect(code).toBe(0);
  }, 180_000);
});
