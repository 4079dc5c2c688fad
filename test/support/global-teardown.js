'use strict';
// jest globalTeardown of the integration project: stops the private AMQP 1.0 node global-setup.js started.
module.exports = async () => {
  const node = globalThis.__xrouteAmqp10Node;
  if (!node) return;
  delete globalThis.__xrouteAmqp10Node;
  delete process.env.XROUTE_AMQP10_NODE;
  await node.dispose();
};
