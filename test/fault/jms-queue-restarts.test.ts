/**
 * Fault test: 5 000 messages JMSPersister → durable queue → JMSReceiver (XAMode 1) while a private RabbitMQ node
 * of this test (with the AMQP 1.0 plugin) is restarted twice (stop_app / start_app); the system broker is not touched. Nothing may be lost; duplicates (sends whose
 * settlement, or accepts, died with the connection) are allowed, counted and printed.
 * Run with: npx jest test/fault/jms-queue --selectProjects fault
 */
import { randomUUID } from 'crypto';
import { JMS_PERSISTER } from '../../actors/persisters/jms-persister';
import { JMS_RECEIVER } from '../../actors/receivers/jms-receiver';
import { runComponent, waitFor } from '../support/component-harness';
import { Outcome, XQueue } from '../../src/xqueue/xqueue';
import { Message } from '../../src/message/message';
import { drain, RABBIT_URI, useAmqp10Node } from '../support/amqp10-test-client';
import { PrivateRabbitMQ, startPrivateRabbitMQ } from '../support/private-rabbitmq';

jest.setTimeout(180_000);

const TOTAL = 5_000;
const RESTARTS = 2;

let node: PrivateRabbitMQ;

beforeAll(async () => {
  node = await startPrivateRabbitMQ({ plugins: ['rabbitmq_amqp1_0'] });
  useAmqp10Node(node);
});

afterAll(async () => {
  await node?.dispose(); // its queues go with it
});

it('loses none of 5 000 messages from JMSPersister to JMSReceiver through 2 broker restarts', async () => {
  const queue = `fault-q-${randomUUID().slice(0, 8)}`;
  const common = { URI: RABBIT_URI, Username: 'guest', Password: 'guest', QueueName: queue, ReconnectBackoff: '100,1000' };
  const input = new XQueue<Message>('fault-in', 256);
  const output = new XQueue<Message>('fault-out', 64);
  const persister = runComponent(JMS_PERSISTER, { config: { Name: 'fault-put', ...common }, input });
  const receiver = runComponent(JMS_RECEIVER, { config: { Name: 'fault-get', Mode: 'daemon', XAMode: '1', ...common }, output });
  const seen = new Set<string>();
  let deliveries = 0;
  const d = drain(output, {
    onTake: (m) => {
      deliveries++;
      seen.add(m.bodyText() ?? '');
      return true;
    },
  });
  const outcomes = new Map<Outcome, number>();
  let stopFeeding = false;
  try {
    const feeding = (async () => {
      // paced at about 500 msg/s, so that both restarts hit the flow in the middle
      for (let i = 0; i < TOTAL && !stopFeeding; i++) {
        if (i % 25 === 0) await new Promise((res) => setTimeout(res, 50));
        await input.put(Message.text(String(i), {}, { JMSMessageID: `ID:fault-${i}` }), (_m, o) => outcomes.set(o, (outcomes.get(o) ?? 0) + 1));
      }
    })();
    for (let r = 1; r <= RESTARTS; r++) {
      await waitFor(() => seen.size >= (r * TOTAL) / (RESTARTS + 1), `${(r * TOTAL) / (RESTARTS + 1)} messages before restart ${r}`, 60_000);
      await node.stopApp();
      await new Promise((res) => setTimeout(res, 1000));
      await node.startApp();
      await waitFor(
        () => persister.status.status === 'RUNNING' && receiver.status.status === 'RUNNING' && receiver.status.get().counters.disconnects === r,
        `both back after restart ${r}`,
        60_000,
      );
    }
    await feeding;
    await waitFor(
      () => seen.size === TOTAL && (outcomes.get('done') ?? 0) + (outcomes.get('failed') ?? 0) === TOTAL,
      `all ${TOTAL} distinct messages (have ${seen.size}, persister removed ${outcomes.get('done') ?? 0})`,
      90_000,
    );
    const lost = Array.from({ length: TOTAL }, (_, i) => String(i)).filter((id) => !seen.has(id));
    const pc = persister.status.get().counters;
    const rc = receiver.status.get().counters;
    console.log(
      `jms queue fault: ${TOTAL} sent, ${seen.size} distinct received, ${deliveries - seen.size} duplicates; persister: ${pc.disconnects ?? 0} disconnects, ${pc.resent ?? 0} resent, ${pc.duplicateSkipped ?? 0} duplicates skipped; receiver: ${rc.disconnects ?? 0} disconnects, ${rc.ackLost ?? 0} accepts lost with their link, ${rc.withdrawn ?? 0} withdrawn`,
    );
    expect({ lost: lost.length, failed: outcomes.get('failed') ?? 0, persisterDisconnects: pc.disconnects, receiverDisconnects: rc.disconnects }).toEqual({
      lost: 0,
      failed: 0,
      persisterDisconnects: RESTARTS,
      receiverDisconnects: RESTARTS,
    });
  } finally {
    stopFeeding = true;
    d.detach();
    await persister.stop();
    await receiver.stop();
  }
});
