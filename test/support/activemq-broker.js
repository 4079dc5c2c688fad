// Where the ActiveMQ suite finds its broker, and the broker instances the fault tests start for themselves.
// Plain JS so that jest's globalSetup can load it without a transform.
'use strict';
const net = require('net');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFile } = require('child_process');

const DEFAULT_URL = 'amqp://127.0.0.1:5673';

/** The broker the integration tests use: ACTIVEMQ_URL (default amqp://127.0.0.1:5673). */
function activemqUrl() {
  return process.env.ACTIVEMQ_URL || DEFAULT_URL;
}

function hostPort(url) {
  const u = new URL(url);
  return { host: u.hostname || '127.0.0.1', port: Number(u.port || 5672) };
}

/** Resolves true when host:port answers an AMQP 1.0 (SASL) protocol header with the same header. */
function probeAmqp10(host, port, timeoutMs = 3000) {
  return new Promise((resolve) => {
    const sock = net.connect({ host, port });
    let done = false;
    let got = Buffer.alloc(0);
    const finish = (ok) => {
      if (!done) {
        done = true;
        sock.destroy();
        resolve(ok);
      }
    };
    sock.setTimeout(timeoutMs, () => finish(false));
    sock.on('error', () => finish(false));
    sock.on('connect', () => sock.write(Buffer.from([0x41, 0x4d, 0x51, 0x50, 3, 1, 0, 0])));
    sock.on('data', (d) => {
      got = Buffer.concat([got, d]);
      if (got.length >= 8) finish(got.subarray(0, 4).toString('latin1') === 'AMQP');
    });
  });
}

/**
 * The folder of start-activemq.sh / stop-activemq.sh: ACTIVEMQ_SCRIPTS, else shared/brokers/activemq beside the
 * project (CI: a fresh clone with shared/ next to it) or one level further up (a git worktree under wt/).
 */
function scriptsDir() {
  let root = path.resolve(__dirname, '..', '..');
  if (path.basename(root) === 'dist') root = path.dirname(root); // compiled copy under dist/
  const candidates = [
    process.env.ACTIVEMQ_SCRIPTS,
    path.join(root, '..', 'shared', 'brokers', 'activemq'),
    path.join(root, '..', '..', 'shared', 'brokers', 'activemq'),
  ];
  for (const c of candidates) if (c && fs.existsSync(path.join(c, 'start-activemq.sh'))) return c;
  throw new Error(`start-activemq.sh not found (looked in ${candidates.filter(Boolean).join(', ')}); set ACTIVEMQ_SCRIPTS to the folder holding it`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function runScript(script, env) {
  return new Promise((resolve, reject) => {
    execFile('bash', [path.join(scriptsDir(), script)], { env: { ...process.env, ...env }, timeout: 180000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${script} failed: ${err.message}\n${stdout}${stderr}`));
      else resolve(stdout.trim());
    });
  });
}

/**
 * Starts an ActiveMQ of the fault tests' own (own port and ACTIVEMQ_TEST_BASE, empty store), which they may stop
 * and kill -9 without touching the broker at ACTIVEMQ_URL, a user's own or the shared default instance.
 */
async function startOwnActiveMQ() {
  const port = await freePort();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-activemq-fault-'));
  const env = { ACTIVEMQ_AMQP_PORT: String(port), ACTIVEMQ_TEST_BASE: base };
  await runScript('start-activemq.sh', { ...env, ACTIVEMQ_FRESH: '1' });
  return {
    url: `amqp://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    base,
    /** Graceful stop (SIGTERM); the store is kept. */
    stop: () => runScript('stop-activemq.sh', env),
    /** A crash: SIGKILL; the store is kept. */
    kill: () => runScript('stop-activemq.sh', { ...env, ACTIVEMQ_KILL: '1' }),
    /** Starts it again on the same store. */
    start: () => runScript('start-activemq.sh', env),
    async dispose() {
      await runScript('stop-activemq.sh', { ...env, ACTIVEMQ_KILL: '1' }).catch(() => undefined);
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

module.exports = { DEFAULT_URL, activemqUrl, hostPort, probeAmqp10, scriptsDir, startOwnActiveMQ };
