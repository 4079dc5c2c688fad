// Starts and probes the real RabbitMQ the integration and fault suites use (reference: brokers.md).
// Plain JS so that jest's globalSetup and the test runner can load it without a transform.
'use strict';
const net = require('net');
const { execFileSync } = require('child_process');

const HOST = process.env.XROUTE_RABBITMQ_HOST || '127.0.0.1';
const PORT = Number(process.env.XROUTE_RABBITMQ_PORT || 5672);

/** Resolves true when the port answers an AMQP 0-9-1 protocol header with connection.start. */
function probeAmqp(host = HOST, port = PORT, timeoutMs = 3000) {
  return new Promise((resolve) => {
    const sock = net.connect({ host, port });
    let done = false;
    const finish = (ok) => { if (!done) { done = true; sock.destroy(); resolve(ok); } };
    sock.setTimeout(timeoutMs, () => finish(false));
    sock.on('error', () => finish(false));
    sock.on('connect', () => sock.write(Buffer.from([0x41, 0x4d, 0x51, 0x50, 0, 0, 9, 1])));
    sock.on('data', (d) => finish(d.length >= 1 && d[0] === 1));
  });
}

async function waitForBroker(timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probeAmqp()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

function run(cmd, args, timeout = 60000) {
  return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout }).toString();
}

/** Makes sure RabbitMQ runs with the AMQP 1.0 plugin enabled; throws a clear error when it cannot. */
async function ensureRabbitMQ() {
  if (!(await probeAmqp())) {
    try {
      run('rabbitmq-server', ['-detached']);
    } catch (e) {
      // it may already be starting; the wait below decides
    }
    if (!(await waitForBroker(90000))) {
      throw new Error(`RabbitMQ is not reachable on ${HOST}:${PORT} and could not be started with 'rabbitmq-server -detached'. ` +
        'Broker tests need it: install rabbitmq-server (Debian package) and start it.');
    }
  }
  try {
    run('rabbitmqctl', ['await_startup'], 90000);
  } catch (e) { /* older rabbitmqctl: the probe above already answered */ }
  const enabled = run('rabbitmq-plugins', ['list', '-e', '-m']);
  if (!/\brabbitmq_amqp1_0\b/.test(enabled)) run('rabbitmq-plugins', ['enable', 'rabbitmq_amqp1_0'], 120000);
}

module.exports = { HOST, PORT, probeAmqp, waitForBroker, ensureRabbitMQ, run };
