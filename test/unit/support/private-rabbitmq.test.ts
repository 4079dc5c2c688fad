// eslint-disable-next-line @typescript-eslint/no-require-imports -- the helper is plain CommonJS shared with jest's globalSetup
const { PrivateRabbitMQ, attachPrivateRabbitMQ, NODE_PREFIX } = require('../../support/private-rabbitmq') as {
  PrivateRabbitMQ: new (dir: string, nodeName: string, port: number, distPort: number) => { nodeName: string };
  attachPrivateRabbitMQ(description: string): { nodeName: string };
  NODE_PREFIX: string;
};

describe('PrivateRabbitMQ', () => {
  it('refuses to drive a node outside the test prefix, such as the system broker', () => {
    expect(() => new PrivateRabbitMQ('/tmp/x', 'rabbit@localhost', 5672, 25672)).toThrow(/refusing to drive RabbitMQ node "rabbit@localhost"/);
  });

  it('refuses a node named in a description passed between test processes when it is not a private one', () => {
    expect(() => attachPrivateRabbitMQ(JSON.stringify({ dir: '/tmp/x', nodeName: 'rabbit@localhost', port: 5672, distPort: 25672 }))).toThrow(
      /only stop or reconfigure private nodes/,
    );
  });

  it('accepts a private node name', () => {
    expect(new PrivateRabbitMQ('/tmp/x', `${NODE_PREFIX}run-abc123@localhost`, 5700, 25700).nodeName).toBe(`${NODE_PREFIX}run-abc123@localhost`);
  });
});
