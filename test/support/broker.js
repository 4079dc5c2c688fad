// The system RabbitMQ the integration suites USE: probed, never started, stopped or
// reconfigured by the tests. What breaks or reconfigures a broker runs on a private node (private-rabbitmq.js).
// Plain JS so that jest's globalSetup and the test runner can load it without a transform.
'use strict';
const net = require('net');
const { execFileSync } = require('child_process');

const HOST = process.env.XROUTE_RABBITMQ_HOST || '127.0.0.1';
const PORT = Number(process.env.XROUTE_RABBITMQ_PORT || 5672);
const AMQP10_HEADER = Buffer.from([0x41, 0x4d, 0x51, 0x50, 0, 1, 0, 0]);
const AMQP091_HEADER = Buffer.from([0x41, 0x4d, 0x51, 0x50, 0, 0, 9, 1]);

/** Resolves true when the port answers `header` with a reply whose first byte `accept`s. */
function probe(host, port, header, accept, timeoutMs) {
  return new Promise((resolve) => {
    const sock = net.connect({ host, port });
    let done = false;
    const finish = (ok) => {
      if (!done) {
        done = true;
        sock.destroy();
        resolve(ok);
      }
    };
    sock.setTimeout(timeoutMs, () => finish(false));
    sock.on('error', () => finish(false));
    sock.on('connect', () => sock.write(header));
    sock.on('data', (d) => finish(d.length >= 1 && accept(d)));
  });
}

/** Resolves true when the port answers an AMQP 0-9-1 protocol header with connection.start. */
function probeAmqp(host = HOST, port = PORT, timeoutMs = 3000) {
  return probe(host, port, AMQP091_HEADER, (d) => d[0] === 1, timeoutMs);
}

/** Resolves true when the port speaks AMQP 1.0 (answers with an AMQP or SASL protocol header, not a refusal). */
function probeAmqp10(host = HOST, port = PORT, timeoutMs = 3000) {
  return probe(host, port, AMQP10_HEADER, (d) => d.length >= 8 && d.subarray(0, 4).equals(AMQP10_HEADER.subarray(0, 4)) && d[5] === 1, timeoutMs);
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

/** Fails with what to do when the system RabbitMQ does not answer; it is never started from here. */
async function requireSystemRabbitMQ() {
  if (await probeAmqp()) return;
  throw new Error(
    `RabbitMQ is not reachable on ${HOST}:${PORT}. The broker suites use it (guest/guest) and leave it ` +
      "alone: start it yourself (e.g. 'sudo systemctl start rabbitmq-server'), or run only the broker-free suite with 'npm run test:unit'.",
  );
}

/**
 * For the JMS benchmark, which uses the system broker's AMQP 1.0: fails with what to do when it is missing (the
 * plugin is never enabled from here).
 */
async function ensureRabbitMQ() {
  await requireSystemRabbitMQ();
  if (await probeAmqp10()) return;
  throw new Error(
    `RabbitMQ on ${HOST}:${PORT} does not speak AMQP 1.0: enable the plugin yourself ` +
      "('sudo rabbitmq-plugins enable rabbitmq_amqp1_0'); xroute's tests never reconfigure your broker.",
  );
}

module.exports = { HOST, PORT, probeAmqp, probeAmqp10, waitForBroker, requireSystemRabbitMQ, ensureRabbitMQ, run };
