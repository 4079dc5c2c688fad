// Drives a PersisterPool through xroute's TypeScript/JavaScript API: boots pool.json, asks the pool for a
// StreamPersister connected to a TCP service (here a tiny upper-casing echo server this program starts), sends
// three messages through the handle's transmit queue, prints each reply, then releases the handle and stops.
// In your own project, after `npm install xroute-broker`: require('xroute-broker') instead of require('../..').
'use strict';
const net = require('node:net');
const path = require('node:path');
const { Flow, loadTopology, defaultRegistry, Message, PoolClient } = require('../..');

function startUpperCaseServer() {
  const server = net.createServer((socket) => {
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk;
      for (let i; (i = buffered.indexOf('\n')) >= 0; buffered = buffered.slice(i + 1)) socket.write(buffered.slice(0, i).toUpperCase() + '\n');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Puts a message into the transmit queue and resolves with the reply the pooled persister stored in it. */
function send(handle, text) {
  return new Promise((resolve, reject) => {
    handle.transmit
      .put(Message.text(text), (reply, outcome) => (outcome === 'done' ? resolve(reply.bodyText()) : reject(new Error(`${text}: ${outcome}`))))
      .catch(reject);
  });
}

async function main() {
  const server = await startUpperCaseServer();
  const registry = defaultRegistry();
  const flow = Flow.start(loadTopology(path.join(__dirname, 'pool.json'), registry), { registry });
  try {
    const client = new PoolClient(flow.link('requests'), { transmitCapacity: 8 });
    const handle = await client.request({ URI: `tcp://127.0.0.1:${server.address().port}?Operation=request` });
    console.log(`pool answered: ${handle.className} for ${handle.uri}`);
    for (const text of ['hello', 'pooled', 'world']) console.log(`reply: ${await send(handle, text)}`);
    await handle.release();
    console.log(`released: ${handle.state}`);
  } finally {
    await flow.stop();
    server.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
