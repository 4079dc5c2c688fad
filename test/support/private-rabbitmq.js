// A private RabbitMQ node for the tests that stop, kill or reconfigure a broker: its own node name, AMQP and
// distribution ports, and data, log, config and enabled-plugins files in a directory under the OS temp dir. The
// system broker on 5672 is never touched by anything here. Plain JS so that jest's globalSetup, the test runner
// and TypeScript tests can all load it.
'use strict';
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const { execFile } = require('child_process');
const { probeAmqp } = require('./broker');

const NODE_PREFIX = 'xroute-test-';
// The test runner sets XROUTE_TEST_RUN to its own pid, so that its clean-up stops only the nodes of its own run
// (another checkout's run on the same machine keeps its nodes).
const RUN = process.env.XROUTE_TEST_RUN || 'solo';
const RABBIT_BIN = '/usr/lib/rabbitmq/bin';
const RABBIT_HOME = '/var/lib/rabbitmq'; // where the rabbitmq user's Erlang cookie lives

/** A port nobody listens on right now (the kernel's choice). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/** The command line that runs a RabbitMQ script as the rabbitmq user with this node's environment. */
function commandAs(env, script, args) {
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  const cmd = process.getuid && process.getuid() === 0 ? 'runuser' : 'env';
  const argv =
    cmd === 'runuser'
      ? ['-u', 'rabbitmq', '--', 'env', ...envArgs, path.join(RABBIT_BIN, script), ...args]
      : [...envArgs, path.join(RABBIT_BIN, script), ...args];
  return [cmd, argv];
}

/** Runs a RabbitMQ script as the rabbitmq user with this node's environment; resolves with stdout. */
function runAs(env, script, args, timeout = 60000) {
  const [cmd, argv] = commandAs(env, script, args);
  return new Promise((resolve, reject) => {
    execFile(cmd, argv, { cwd: RABBIT_HOME, timeout }, (err, stdout, stderr) => {
      if (err) {
        err.message = `${script} ${args.join(' ')} failed: ${err.message}\n${stderr}`;
        reject(err);
      } else resolve(String(stdout));
    });
  });
}

class PrivateRabbitMQ {
  constructor(dir, nodeName, port, distPort) {
    // Every rabbitmqctl / rabbitmq-plugins call names this node with -n: a name outside the test prefix (the
    // system broker's rabbit@host, say) would let a fault test stop or reconfigure the user's broker.
    if (typeof nodeName !== 'string' || !nodeName.startsWith(NODE_PREFIX)) {
      throw new Error(`refusing to drive RabbitMQ node ${JSON.stringify(nodeName)}: tests only stop or reconfigure private nodes named ${NODE_PREFIX}*`);
    }
    this.dir = dir;
    this.nodeName = nodeName;
    this.port = port;
    this.distPort = distPort;
    this.host = '127.0.0.1';
    this.url = `amqp://guest:guest@127.0.0.1:${port}`;
    this.env = {
      HOME: RABBIT_HOME,
      RABBITMQ_NODENAME: nodeName,
      RABBITMQ_NODE_PORT: String(port),
      RABBITMQ_DIST_PORT: String(distPort),
      RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
      RABBITMQ_LOG_BASE: path.join(dir, 'log'),
      RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
      RABBITMQ_CONFIG_FILE: path.join(dir, 'rabbitmq.conf'),
      RABBITMQ_PID_FILE: path.join(dir, 'pid'),
    };
  }

  /** What another process of the same run needs to reach this node again (see attachPrivateRabbitMQ). */
  describe() {
    return JSON.stringify({ dir: this.dir, nodeName: this.nodeName, port: this.port, distPort: this.distPort });
  }

  /** True when this node's AMQP port answers the protocol header. */
  isUp() {
    return probeAmqp(this.host, this.port, 2000);
  }

  async waitUp(timeoutMs = 180000) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await this.isUp()) return;
      await sleep(200);
    }
    throw new Error(`private RabbitMQ ${this.nodeName} did not answer on ${this.port} within ${timeoutMs} ms (log: ${this.env.RABBITMQ_LOG_BASE})`);
  }

  async waitDown(timeoutMs = 30000) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!(await this.isUp())) return;
      await sleep(100);
    }
    throw new Error(`private RabbitMQ ${this.nodeName} still answers on ${this.port} after ${timeoutMs} ms`);
  }

  /** The last lines of the node's logs, for a failure report. */
  logTail(lines = 30) {
    const logDir = this.env.RABBITMQ_LOG_BASE;
    try {
      return fs
        .readdirSync(logDir)
        .map((f) => {
          const text = fs.readFileSync(path.join(logDir, f), 'utf8').trimEnd().split('\n');
          return `--- ${f}\n${text.slice(-lines).join('\n')}`;
        })
        .join('\n');
    } catch (e) {
      return `(no log: ${e.message})`;
    }
  }

  /** rabbitmqctl against this node only. */
  ctl(...args) {
    return runAs(this.env, 'rabbitmqctl', ['-n', this.nodeName, ...args]);
  }

  /** rabbitmqctl against this node only, blocking (for polling predicates that cannot await). */
  ctlSync(...args) {
    const [cmd, argv] = commandAs(this.env, 'rabbitmqctl', ['-n', this.nodeName, ...args]);
    return require('child_process')
      .execFileSync(cmd, argv, { cwd: RABBIT_HOME, timeout: 30000, stdio: ['ignore', 'pipe', 'pipe'] })
      .toString();
  }

  /** rabbitmq-plugins against this node only (its own enabled-plugins file). */
  plugins(...args) {
    return runAs(this.env, 'rabbitmq-plugins', ['-n', this.nodeName, ...args], 120000);
  }

  /** Starts the Erlang VM and the broker; resolves when the AMQP port answers. */
  async startServer() {
    await runAs(this.env, 'rabbitmq-server', ['-detached']);
    await this.waitUp();
  }

  /** Stops the broker application (the VM stays); resolves when the port no longer answers. */
  async stopApp() {
    await this.ctl('stop_app');
    await this.waitDown();
  }

  async startApp() {
    await this.ctl('start_app');
    await this.waitUp();
  }

  /** The OS pid of the node's Erlang VM. */
  async pid() {
    const text = fs.readFileSync(this.env.RABBITMQ_PID_FILE, 'utf8').trim();
    const pid = Number(text);
    if (!Number.isInteger(pid) || pid <= 1) throw new Error(`cannot read ${this.nodeName}'s pid from ${JSON.stringify(text)}`);
    return pid;
  }

  /** SIGKILL of this node's VM (a crash); resolves when its port no longer answers. */
  async kill() {
    const pid = await this.pid();
    process.kill(pid, 'SIGKILL');
    await this.waitDown();
    return pid;
  }

  /** Stops the node for good and removes its directory. Safe to call twice or on a dead node. */
  async dispose() {
    try {
      await this.ctl('stop');
    } catch {
      try {
        process.kill(await this.pid(), 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    await this.waitDown(10000).catch(() => undefined);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Starts a private node. `plugins` are enabled in its own enabled-plugins file (default: the AMQP 1.0 plugin, which
 * the JMS tests need). Resolves when its AMQP port answers.
 */
async function startPrivateRabbitMQ({ plugins = ['rabbitmq_amqp1_0'] } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `xroute-rmq-${RUN}-`));
  // unique without a counter: jest loads this module afresh in each test file's sandbox and in globalSetup, all
  // in one process when it runs in band, so a per-module counter would hand out the same name twice
  const nodeName = `${NODE_PREFIX}${RUN}-${path.basename(dir).slice(-6)}@localhost`;
  const port = await freePort();
  let distPort = await freePort();
  while (distPort === port) distPort = await freePort();
  fs.mkdirSync(path.join(dir, 'mnesia'));
  fs.mkdirSync(path.join(dir, 'log'));
  fs.writeFileSync(path.join(dir, 'rabbitmq.conf'), `listeners.tcp.local = 127.0.0.1:${port}\nloopback_users = none\n`);
  fs.writeFileSync(path.join(dir, 'enabled_plugins'), `[${plugins.join(',')}].\n`);
  fs.chmodSync(dir, 0o755);
  if (process.getuid && process.getuid() === 0) {
    for (const p of [dir, ...fs.readdirSync(dir).map((f) => path.join(dir, f))]) fs.chownSync(p, uidOf('rabbitmq'), gidOf('rabbitmq'));
  }
  const node = new PrivateRabbitMQ(dir, nodeName, port, distPort);
  try {
    await node.startServer();
  } catch (e) {
    e.message += `\n${node.logTail()}`; // the directory goes with dispose: keep what the node said
    await node.dispose();
    throw e;
  }
  return node;
}

/** The node a describe() string names (e.g. passed from jest's globalSetup to the test workers in an env var). */
function attachPrivateRabbitMQ(description) {
  const { dir, nodeName, port, distPort } = JSON.parse(description);
  return new PrivateRabbitMQ(dir, nodeName, port, distPort);
}

function idOf(flag, name) {
  return Number(require('child_process').execFileSync('id', [flag, name]).toString().trim());
}
const uidOf = (name) => idOf('-u', name);
const gidOf = (name) => idOf('-g', name);

/**
 * Stops every private node a test run left behind (a crashed or timed-out test file) and removes their
 * directories: run by the test runner at the end, also when the run failed.
 */
async function stopLeftoverPrivateNodes(run = RUN) {
  const prefix = `${NODE_PREFIX}${run}-`;
  let names = [];
  try {
    const out = require('child_process').execFileSync('epmd', ['-names'], { timeout: 5000 }).toString();
    names = [...out.matchAll(/^name (\S+) at port/gm)].map((m) => m[1]).filter((n) => n.startsWith(prefix));
  } catch {
    /* no epmd: no nodes */
  }
  for (const short of names) {
    await runAs({ HOME: RABBIT_HOME }, 'rabbitmqctl', ['-n', `${short}@localhost`, 'stop'], 30000).catch(() => undefined);
  }
  for (const f of fs.readdirSync(os.tmpdir())) {
    if (f.startsWith(`xroute-rmq-${run}-`)) fs.rmSync(path.join(os.tmpdir(), f), { recursive: true, force: true });
  }
  return names;
}

module.exports = { startPrivateRabbitMQ, stopLeftoverPrivateNodes, attachPrivateRabbitMQ, PrivateRabbitMQ, NODE_PREFIX };
