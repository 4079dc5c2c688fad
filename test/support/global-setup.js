'use strict';
// jest globalSetup of the integration project. The system RabbitMQ on 5672 must answer (never skip; it is only
// used, never started or reconfigured). The JMS suites need AMQP 1.0, a plugin the system broker may not have:
// they get a private node with the plugin, started here once and stopped in global-teardown.js; the workers find
// it through XROUTE_AMQP10_NODE (see amqp10-test-client.ts).
const { requireSystemRabbitMQ } = require('./broker');
const { startPrivateRabbitMQ } = require('./private-rabbitmq');

module.exports = async () => {
  await requireSystemRabbitMQ();
  if (process.env.XROUTE_AMQP10_NODE) return; // a node of an enclosing run
  const node = await startPrivateRabbitMQ({ plugins: ['rabbitmq_amqp1_0'] });
  globalThis.__xrouteAmqp10Node = node;
  process.env.XROUTE_AMQP10_NODE = node.describe();
};
