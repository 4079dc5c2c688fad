'use strict';
// jest globalSetup of the activemq project: the broker at ACTIVEMQ_URL must answer AMQP 1.0 (never skip).
const { activemqUrl, hostPort, probeAmqp10 } = require('../support/activemq-broker');

module.exports = async () => {
  const url = activemqUrl();
  const { host, port } = hostPort(url);
  if (!(await probeAmqp10(host, port))) {
    throw new Error(
      `ActiveMQ is not reachable: nothing answers AMQP 1.0 at ${url} (ACTIVEMQ_URL). ` +
        'Start one with ../shared/brokers/activemq/start-activemq.sh, or point ACTIVEMQ_URL at your own ActiveMQ/Artemis AMQP listener.',
    );
  }
};
