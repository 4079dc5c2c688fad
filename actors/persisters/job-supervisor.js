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
 * On fd 3, xroute writes one JSON line {file, args, cwd, env, killGraceMs}; the supervisor answers {"pid": n} once
 * the job has started, or {"error": "..."} when it could not be started (and exits). The job's stdout and stderr
 * are xroute's pipes; the supervisor lets go of its own copies, so xroute sees the output end when the job's
 * does. When the job exits, the supervisor reports {"exit": {"code", "signal"}} and stays, still watching, until
 * xroute has its output and answers {"done": true}; only then does it end, with the job's exit code or killed by
 * the job's signal. So whatever the job left behind holding its output is still killed if xroute dies then.
 */
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');

/** Signals xroute sends to the whole group (stop, abort, Timeout): they reach the job too; wait for it. */
const GROUP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'];

const channel = new net.Socket({ fd: 3, readable: true, writable: true });
let received = '';
let job;
/** How the job ended, once it has. */
let jobExit;
let killGraceMs = 0;
let parentGone = false;

for (const sig of GROUP_SIGNALS) process.on(sig, () => onGroupSignal(sig));
channel.setEncoding('utf8');
channel.on('data', (chunk) => {
  received += chunk;
  for (let end = received.indexOf('\n'); end >= 0; end = received.indexOf('\n')) {
    const message = JSON.parse(received.slice(0, end));
    received = received.slice(end + 1);
    if (job === undefined) start(message);
    else if (message.done === true && jobExit !== undefined) endAsJob();
  }
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
  if (job.pid === undefined) return;
  releaseOutput();
  channel.write(JSON.stringify({ pid: job.pid }) + '\n');
}

/** The job has xroute's pipes now; the supervisor's own copies would keep xroute from seeing them end. */
function releaseOutput() {
  for (const fd of [1, 2]) {
    fs.closeSync(fd);
    const reopened = fs.openSync('/dev/null', 'w'); // the lowest free descriptor: fd itself
    if (reopened !== fd) fs.closeSync(reopened);
  }
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
  jobExit = { code, signal };
  if (parentGone) killGroup('SIGKILL');
  else channel.write(JSON.stringify({ exit: jobExit }) + '\n');
}

/** xroute has the job's output: end as the job ended. */
function endAsJob() {
  if (jobExit.code !== null) process.exit(jobExit.code);
  else dieBy(jobExit.signal);
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
