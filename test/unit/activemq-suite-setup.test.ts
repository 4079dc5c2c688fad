/** `npm run test:activemq` fails at once, naming the URL, when nothing answers AMQP 1.0 at ACTIVEMQ_URL. */
import globalSetup = require('../activemq/global-setup');

describe('the ActiveMQ suite set-up', () => {
  const saved = process.env.ACTIVEMQ_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.ACTIVEMQ_URL;
    else process.env.ACTIVEMQ_URL = saved;
  });

  it('fails with the URL and how to start a broker when nothing answers AMQP 1.0 there', async () => {
    process.env.ACTIVEMQ_URL = 'amqp://127.0.0.1:1';
    await expect(globalSetup()).rejects.toThrow(
      /ActiveMQ is not reachable: nothing answers AMQP 1\.0 at amqp:\/\/127\.0\.0\.1:1 \(ACTIVEMQ_URL\)\. Start one with .*start-activemq\.sh/,
    );
  });
});
