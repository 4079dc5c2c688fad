#!/usr/bin/env node
// A small RabbitMQ (AMQP 0-9-1) companion for the examples: publish messages, watch what arrives, delete what an
// example declared. Run from the repository root after `npm ci` (it uses xroute's own amqplib).
//   node examples/tools/amqp.js publish --queue Q [--property K=V]... BODY...      (declares Q, durable)
//   node examples/tools/amqp.js publish --exchange E --key K [--property K=V]... BODY...
//   node examples/tools/amqp.js watch --exchange E --type topic --key 'orders.#' [--count N]
//   node examples/tools/amqp.js watch --queue Q [--count N]
//   node examples/tools/amqp.js delete [--queue Q]... [--exchange E]...
// --url (default amqp://guest:guest@127.0.0.1:5672/ or AMQP_URL) picks the broker. `watch` prints one line per
// message: the routing key, the properties (headers) as JSON and the body; it says "watching ..." on stderr once
// it is bound, and exits after --count messages (else on Ctrl-C).
'use strict';
const { parseArgs } = require('node:util');
const amqp = require('amqplib');

const USAGE = 'usage: amqp.js publish|watch|delete [--url URL] [--queue Q] [--exchange E] [--type T] [--key K] [--property K=V] [--count N] [BODY...]';

function options(argv) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      url: { type: 'string', default: process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672/' },
      queue: { type: 'string', multiple: true, default: [] },
      exchange: { type: 'string', multiple: true, default: [] },
      type: { type: 'string', default: 'topic' },
      key: { type: 'string', default: '' },
      property: { type: 'string', multiple: true, default: [] },
      count: { type: 'string' },
    },
  });
}

function headersOf(pairs) {
  return Object.fromEntries(
    pairs.map((p) => {
      const i = p.indexOf('=');
      if (i < 1) throw new Error(`--property ${p}: expected NAME=VALUE`);
      return [p.slice(0, i), p.slice(i + 1)];
    }),
  );
}

async function publish(ch, o, bodies) {
  const headers = headersOf(o.property);
  for (const body of bodies) {
    if (o.queue.length > 0) {
      await ch.assertQueue(o.queue[0], { durable: true });
      ch.sendToQueue(o.queue[0], Buffer.from(body), { headers, persistent: true });
    } else ch.publish(o.exchange[0], o.key, Buffer.from(body), { headers, persistent: true });
  }
  await ch.waitForConfirms();
  process.stderr.write(`published ${bodies.length} message(s)\n`);
}

async function watch(ch, o) {
  let queue;
  if (o.queue.length > 0) queue = (await ch.assertQueue(o.queue[0], { durable: true })).queue;
  else {
    await ch.assertExchange(o.exchange[0], o.type, { durable: true });
    queue = (await ch.assertQueue('', { exclusive: true, autoDelete: true })).queue;
    await ch.bindQueue(queue, o.exchange[0], o.key);
  }
  const limit = o.count === undefined ? Infinity : Number(o.count);
  let seen = 0;
  await new Promise((resolve) => {
    ch.consume(queue, (m) => {
      if (!m) return resolve();
      process.stdout.write(`${m.fields.routingKey} ${JSON.stringify(m.properties.headers || {})} ${m.content.toString()}\n`);
      ch.ack(m);
      if (++seen >= limit) resolve();
    });
    process.stderr.write(`watching ${o.queue.length > 0 ? `queue ${queue}` : `exchange ${o.exchange[0]} with key ${o.key}`}\n`);
    process.once('SIGINT', resolve);
  });
}

async function remove(ch, o) {
  for (const q of o.queue) await ch.deleteQueue(q);
  for (const e of o.exchange) await ch.deleteExchange(e);
  process.stderr.write(`deleted ${[...o.queue.map((q) => `queue ${q}`), ...o.exchange.map((e) => `exchange ${e}`)].join(', ') || 'nothing'}\n`);
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values: o, positionals } = options(rest);
  if (!['publish', 'watch', 'delete'].includes(command)) throw new Error(USAGE);
  if (command === 'publish' && (positionals.length === 0 || (o.queue.length === 0 && o.exchange.length === 0))) throw new Error(USAGE);
  if (command === 'watch' && o.queue.length === 0 && o.exchange.length === 0) throw new Error(USAGE);
  const connection = await amqp.connect(o.url);
  // A refusal by the broker (e.g. 406 PRECONDITION_FAILED on a queue declared with other arguments) closes the
  // channel: the operation waiting on it fails with the broker's reason, reported below on one line.
  connection.on('error', () => {});
  try {
    const ch = await connection.createConfirmChannel();
    ch.on('error', () => {});
    if (command === 'publish') await publish(ch, o, positionals);
    else if (command === 'watch') await watch(ch, o);
    else await remove(ch, o);
  } finally {
    await connection.close();
  }
}

main().catch((err) => {
  process.stderr.write(`amqp.js: ${String(err.message).split('\n')[0]}\n`);
  process.exit(2);
});
