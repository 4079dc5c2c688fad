/**
 * Tracing over AMQP 1.0 on the real ActiveMQ (docs/operations.md#tracing): JMSSubscriber -> CollectNode ->
 * MessageEvaluator -> JMSPersister, run by a real `xroute run`, with the upstream W3C context in the `traceparent`
 * application property, as a string and as binary; the message leaves with the persister span's context in the
 * same property, which is where the OpenTelemetry JMS instrumentation of a Java consumer reads it.
 */
import * as path from 'path';
import rhea = require('rhea');
import { readJsonFile } from '../../src/config/json-file';
import { waitFor } from '../support/component-harness';
import { closeRheaConnection } from '../support/amqp10-test-client';
import { OtlpReceiver, ReceivedSpan, SPAN_KIND } from '../support/otlp-receiver';
import { TracedRun, byStart, oneSpan, runTraced, upstreamContext } from '../support/traced-run';
import { ACTIVEMQ, publish, unique } from './activemq-kit';

jest.setTimeout(60_000);

const EXAMPLE = path.resolve(__dirname, '../../config/examples/evaluate-route.json');

describe('tracing a flow on ActiveMQ (AMQP 1.0, real xroute run)', () => {
  const topic = unique('trace.topic');
  const outQueue = unique('trace.out');
  const failedQueue = unique('trace.failed');
  let receiver: OtlpReceiver;
  let run: TracedRun | undefined;
  let output: rhea.Connection;
  const outgoing = new Map<string, rhea.Message>();

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    const example = readJsonFile(EXAMPLE) as Record<string, unknown>;
    const login = { URI: ACTIVEMQ.url, Username: ACTIVEMQ.username, Password: ACTIVEMQ.password };
    run = await runTraced(
      {
        ...example,
        Name: 'trace-jms',
        rcvr_in: {
          ClassName: 'org.qbroker.receiver.JMSSubscriber',
          ...login,
          Operation: 'sub',
          TopicName: topic,
          Mode: 'daemon',
          LinkName: 'incoming',
          XAMode: '1',
        },
        pstr_out: { ClassName: 'org.qbroker.persister.JMSPersister', ...login, Operation: 'put', QueueName: outQueue, LinkName: 'out' },
        pstr_failed: { ClassName: 'org.qbroker.persister.JMSPersister', ...login, Operation: 'put', QueueName: failedQueue, LinkName: 'failed' },
      },
      receiver,
    );
    await waitFor(
      () => run!.output().includes('"subscribed"'),
      () => `the subscription; output: ${run?.output()}`,
      20_000,
    );
    output = rhea
      .create_container()
      .connect({ host: ACTIVEMQ.host, port: ACTIVEMQ.port, username: ACTIVEMQ.username, password: ACTIVEMQ.password, reconnect: false });
    output.open_receiver({ source: { address: `queue://${outQueue}` }, credit_window: 100 }).on('message', (ctx) => {
      if (ctx.message !== undefined) outgoing.set(String(ctx.message.message_id), ctx.message);
    });
  });

  afterAll(async () => {
    await run?.stop();
    if (output !== undefined) await closeRheaConnection(output);
    await receiver?.stop();
  });

  /** Publishes one order to the topic and waits until it left the flow and its CONSUMER span was exported. */
  async function route(messageId: string, traceparent: string | Buffer): Promise<{ out: rhea.Message; spans: ReceivedSpan[] }> {
    await publish(ACTIVEMQ, `topic://${topic}`, [{ message_id: messageId, body: 'hello', application_properties: { kind: 'order', traceparent } }]);
    await waitFor(() => outgoing.has(messageId), `${messageId} on ${outQueue}`, 20_000);
    const isConsumer = (s: ReceivedSpan) => s.kind === SPAN_KIND.consumer && s.attributes['messaging.message.id'] === messageId;
    await waitFor(
      () => receiver.spans.some(isConsumer),
      () => `the CONSUMER span of ${messageId}; output: ${run?.output()}`,
    );
    return { out: outgoing.get(messageId)!, spans: receiver.spansOf(receiver.spans.find(isConsumer)!.traceId) };
  }

  it('continues a trace whose traceparent application property is a string, each span the child of the one before', async () => {
    const upstream = upstreamContext();
    const { spans } = await route('jms-string', upstream.traceparent);
    const [toEvaluator, toOut] = byStart(spans.filter((s) => s.name.startsWith('route')));
    const chain = [oneSpan(spans, 'process'), toEvaluator, oneSpan(spans, 'evaluate'), toOut, oneSpan(spans, 'send')];
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([upstream.traceId]));
    expect(chain.map((s) => s.parentSpanId)).toEqual([upstream.parentId, ...chain.slice(0, -1).map((s) => s.spanId)]);
    expect(chain[0].attributes).toMatchObject({
      'messaging.system': 'activemq',
      'messaging.destination.name': `topic://${topic}`,
      'xroute.component': 'rcvr_in',
    });
  });

  it('continues a trace whose traceparent application property is binary', async () => {
    const upstream = upstreamContext();
    const { spans } = await route('jms-binary', Buffer.from(upstream.traceparent));
    expect([oneSpan(spans, 'process').traceId, oneSpan(spans, 'process').parentSpanId]).toEqual([upstream.traceId, upstream.parentId]);
  });

  it('sends the message on with a traceparent application property whose parent is the JMSPersister span', async () => {
    const upstream = upstreamContext();
    const { out, spans } = await route('jms-out', upstream.traceparent);
    const producer = oneSpan(spans, 'send');
    expect([producer.kind, producer.attributes['messaging.destination.name']]).toEqual([SPAN_KIND.producer, outQueue]);
    expect(out.application_properties?.traceparent).toBe(`00-${upstream.traceId}-${producer.spanId}-01`);
  });
});
