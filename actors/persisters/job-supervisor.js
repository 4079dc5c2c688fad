/**
 * The supervisor of one JobPersister job: what makes a job die with its xroute process, however that process
 * dies, kill -9 included (docs/components/job-persister.md, "No orphan").
 *
 * The JobPersister starts this script with node in a process group of its own and hands it the job on fd 3, a
 * socket whose other end only the xroute process holds. The supervisor starts the job in its own group (so a
 * kill of the group reaches the job and everything the job starts) and keeps reading fd 3. The kernel closes
 * the xroute end when xroute dies; the supervisor then reads end-of-file and kills the whole group: SIGTERM,
 * then SIGKILL after the job's KillGrace. Linux has no portable parent-death signal for a group, and Node
 * cannot set PR_SET_PDEATHSIG without native code, hence a process.
 *
 * On fd 3, xroute writes one JSON line {file, args, cwd, env, killGraceMs}; the supervisor answers one JSON
 * line, {"pid": n} once the job has started or {"error": "..."} when it could not be started. The job's
 * stdout and stderr are the supervisor's own (xroute's pipes). The supervisor ends as the job ends: with the
 * same exit code, or killed by the same signal.
 */
'use strict';
const { spawn } = require('node:child_process');
const net = require('node:net');
const os = require('node:os');

/** Signals xroute sends to the whole group (stop, abort, Timeout): they reach the job too; wait for it. */
const GROUP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'];

const channel = new net.Socket({ fd: 3, readable: true, writable: true });
let received = '';
let job;
let killGraceMs = 0;
let parentGone = false;

for (const sig of GROUP_SIGNALS) process.on(sig, () => onGroupSignal(sig));
channel.setEncoding('utf8');
channel.on('data', (chunk) => {
  if (job !== undefined) return;
  received += chunk;
  const end = received.indexOf('\n');
  if (end >= 0) start(JSON.parse(received.slice(0, end)));
});
channel.on('end', onParentGone);
channel.on('error', onParentGone);

function start(spec) {
  killGraceMs = Number(spec.killGraceMs) || 0;
  process.title = 'xroute-job-supervisor';
  try {
    job = spawn(spec.file, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'inherit', 'inherit'] });
  } catch (e) {
    notStarted(e);
    return;
  }
  job.on('error', (e) => {
    if (job.pid === undefined) notStarted(e);
  });
  job.on('exit', onJobExit);
  if (job.pid !== undefined) channel.write(JSON.stringify({ pid: job.pid }) + '\n');
}

function notStarted(e) {
  channel.write(JSON.stringify({ error: e instanceof Error ? e.message : String(e) }) + '\n', () => process.exit(0));
}

/** xroute is gone: nothing will read the job's result, and its request is redelivered elsewhere. */
function onParentGone() {
  if (parentGone) return;
  parentGone = true;
  const jobEnded = job === undefined || job.exitCode !== null || job.signalCode !== null;
  if (jobEnded || killGraceMs <= 0) {
    killGroup('SIGKILL');
    return;
  }
  killGroup('SIGTERM');
  setTimeout(() => killGroup('SIGKILL'), killGraceMs);
}

function onGroupSignal(sig) {
  // Stopped before the job was started: end as the job would have.
  if (job === undefined) dieBy(sig);
}

function onJobExit(code, signal) {
  if (parentGone) killGroup('SIGKILL');
  else if (code !== null) process.exit(code);
  else dieBy(signal);
}

function dieBy(signal) {
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
  // A signal Node keeps for itself: the shell's convention for "killed by it" instead.
  setTimeout(() => process.exit(128 + (os.constants.signals[signal] || 0)), 1000).unref();
}

function killGroup(signal) {
  try {
    process.kill(-process.pid, signal);
  } catch {
    process.exit(1);
  }
}
