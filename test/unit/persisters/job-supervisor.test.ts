/**
 * The job supervisor (actors/persisters/job-supervisor.js) on its own, driven by a stand-in for xroute that
 * speaks its protocol and then dies by SIGKILL: whatever the job left in its process group is killed, also when
 * xroute dies in the instant between the job's exit and the end of its output.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { waitFor } from '../../support/component-harness';
import { isLive, liveProcessesInGroups } from '../../support/process-groups';

const SUPERVISOR = path.resolve(__dirname, '../../../actors/persisters/job-supervisor.js');

/**
 * A stand-in for xroute: starts the supervisor with `script` as the job, prints {group, grandchild} once the
 * job has printed the pid of what it left behind and the supervisor has reported the job's exit, then kills
 * itself with SIGKILL (it never answers {"done": true}).
 */
const STAND_IN = `
const { spawn } = require('child_process');
const [supervisor, script] = process.argv.slice(1);
const c = spawn(process.execPath, [supervisor], { detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
c.stdio[3].write(JSON.stringify({ file: '/bin/sh', args: ['-c', script], env: process.env, killGraceMs: 1000 }) + '\\n');
let out = '';
let reports = '';
const check = () => {
  if (!out.includes('\\n') || !reports.includes('"exit"')) return;
  process.stdout.write(JSON.stringify({ group: c.pid, grandchild: Number(out.trim()) }) + '\\n', () => process.kill(process.pid, 'SIGKILL'));
};
c.stdout.on('data', (d) => { out += d; check(); });
c.stdio[3].on('data', (d) => { reports += d; check(); });
`;

it('kills what the job left holding its output when xroute dies after the job exited', async () => {
  const standIn = spawn(process.execPath, ['-e', STAND_IN, SUPERVISOR, 'sleep 60 & echo $!'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let printed = '';
  standIn.stdout.on('data', (d) => (printed += String(d)));
  await new Promise((resolve) => standIn.on('exit', resolve));
  const { group, grandchild } = JSON.parse(printed) as { group: number; grandchild: number };
  expect(grandchild).toBeGreaterThan(0);
  await waitFor(
    () => liveProcessesInGroups([group]).length === 0,
    () => `the job's group ${group} to be gone; left: ${liveProcessesInGroups([group]).join(', ')}`,
    2_000,
  );
  expect(isLive(grandchild)).toBe(false);
});
