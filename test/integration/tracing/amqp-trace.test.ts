/**
 * Tracing on the real RabbitMQ (docs/operations.md#tracing): config/examples/evaluate-route.json (AmqpReceiver ->
 * CollectNode -> MessageEvaluator -> AmqpPersister), run by a real `xroute run` with tracing on, exporting to an
 * OTLP/HTTP receiver inside the test that decodes what the exporter sends (JSON).
 */
import * as path from 'path';
import * as amqp from 'amqplib';
import { readJsonFile } from '../../../src/config/json-file';
import { Admin, uniqueName } from '../amqp/amqp-kit';
import { waitFor } from '../../support/component-harness';
import { SlowTrace } from '../../../src/tracing';
import { OtlpReceiver, ReceivedSpan, SPAN_KIND } from '../../support/otlp-receiver';
import { TracedRun, byStart, oneSpan, runTraced, upstreamContext } from '../../support/traced-run';

jest.setTimeout(60_000);

const EXAMPLE = path.resolve(__dirname, '../../../config/examples/evaluate-route.json');

describe('tracing a flow on RabbitMQ (real xroute run)', () => {
  let admin: Admin;
  let receiver: OtlpReceiver;
  let run: TracedRun | undefined;
  const queues = { in: uniqueName('trace.in'), out: uniqueName('trace.out'), failed: uniqueName('trace.failed') };
  const outgoing = new Map<string, amqp.ConsumeMessage>();

  beforeAll(async () => {
    admin = await Admin.open();
    for (const q of Object.values(queues)) await admin.queue(q, { durable: true });
    receiver = await OtlpReceiver.start();
    const json = readJsonFile(EXAMPLE) as Record<string, Record<string, unknown>>;
    json.rcvr_in.QueueName = queues.in;
    json.pstr_out.QueueName = queues.out;
    json.pstr_failed.QueueName = queues.failed;
    run = await runTraced(json, receiver);
    const ch = await admin.conn.createChannel();
    await ch.consume(queues.out, (m) => {
      if (m === null) return;
      outgoing.set(String(m.properties.messageId), m);
      ch.ack(m);
    });
  });

  afterAll(async () => {
    await run?.stop();
    await receiver?.stop();
    await admin?.cleanup();
  });

  /** Publishes one order with `headers` and waits until it left the flow and its CONSUMER span was exported. */
  async function route(messageId: string, headers: Record<string, unknown>): Promise<{ out: amqp.ConsumeMessage; spans: ReceivedSpan[] }> {
    await admin.publish('', queues.in, ['hello'], { messageId, headers: { kind: 'order', ...headers }, persistent: true });
    await waitFor(() => outgoing.has(messageId), `${messageId} on ${queues.out}`);
    const isConsumer = (s: ReceivedSpan) => s.kind === SPAN_KIND.consumer && s.attributes['messaging.message.id'] === messageId;
    await waitFor(
      () => receiver.spans.some(isConsumer),
      () => `the CONSUMER span of ${messageId}; output: ${run?.output()}`,
    );
    const traceId = receiver.spans.find(isConsumer)!.traceId;
    // The producer span ends before the consumer span (the ack follows the confirm): the whole trace is there.
    return { out: outgoing.get(messageId)!, spans: receiver.spansOf(traceId) };
  }

  it('continues the upstream trace across receiver, node, evaluator and persister, each span the child of the one before', async () => {
    const upstream = upstreamContext();
    const { spans } = await route('traced-1', { traceparent: upstream.traceparent });
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([upstream.traceId]));
    expect(spans.length).toBeGreaterThanOrEqual(5);
    const consumer = oneSpan(spans, 'process');
    const [toEvaluator, toOut] = byStart(spans.filter((s) => s.name.startsWith('route')));
    const evaluate = oneSpan(spans, 'evaluate');
    const producer = oneSpan(spans, 'send');
    expect([consumer.parentSpanId, toEvaluator.parentSpanId, evaluate.parentSpanId, toOut.parentSpanId, producer.parentSpanId]).toEqual([
      upstream.parentId,
      consumer.spanId,
      toEvaluator.spanId,
      evaluate.spanId,
      toOut.spanId,
    ]);
    expect([consumer.kind, toEvaluator.kind, evaluate.kind, toOut.kind, producer.kind]).toEqual([
      SPAN_KIND.consumer,
      SPAN_KIND.internal,
      SPAN_KIND.internal,
      SPAN_KIND.internal,
      SPAN_KIND.producer,
    ]);
  });

  it('names the ruleset and the return code on the evaluator span', async () => {
    const { spans } = await route('traced-2', { traceparent: upstreamContext().traceparent });
    const evaluate = oneSpan(spans, 'evaluate');
    expect([evaluate.name, evaluate.attributes['xroute.ruleset'], evaluate.attributes['xroute.return_code'], evaluate.attributes['xroute.component']]).toEqual([
      'evaluate order',
      'order',
      '0',
      'pstr_eval',
    ]);
  });

  it('sends the message on with a traceparent whose parent is the persister span', async () => {
    const upstream = upstreamContext();
    const { out, spans } = await route('traced-3', { traceparent: upstream.traceparent });
    const producer = oneSpan(spans, 'send');
    expect(out.properties.headers?.traceparent).toBe(`00-${upstream.traceId}-${producer.spanId}-01`);
  });

  it('follows the messaging conventions on the receiver and persister spans, and says how long the message waited in its link', async () => {
    const { spans } = await route('traced-4', { traceparent: upstreamContext().traceparent });
    const consumer = oneSpan(spans, 'process');
    const producer = oneSpan(spans, 'send');
    expect(consumer.attributes).toMatchObject({
      'messaging.system': 'rabbitmq',
      'messaging.operation.type': 'process',
      'messaging.destination.name': queues.in,
      'xroute.component': 'rcvr_in',
    });
    expect(producer.attributes).toMatchObject({
      'messaging.system': 'rabbitmq',
      'messaging.operation.type': 'send',
      'messaging.destination.name': queues.out,
      'xroute.component': 'pstr_out',
    });
    expect(typeof oneSpan(spans, 'evaluate').attributes['xroute.queue.wait_ms']).toBe('number');
    expect(consumer.resource).toMatchObject({ 'service.name': 'xroute-under-test', 'deployment.environment': 'test' });
  });

  it('reads a traceparent sent as bytes (an AMQP byte array) like one sent as a string', async () => {
    const upstream = upstreamContext();
    const { spans } = await route('traced-bytes', { traceparent: Buffer.from(upstream.traceparent) });
    expect(oneSpan(spans, 'process').parentSpanId).toBe(upstream.parentId);
  });

  it('starts a new trace for a message without context', async () => {
    const { spans } = await route('untraced', {});
    const consumer = oneSpan(spans, 'process');
    expect(consumer.parentSpanId).toBeUndefined();
    expect(spans.length).toBeGreaterThanOrEqual(5);
  });

  it('ignores a malformed traceparent with a counted warning, and starts a new trace', async () => {
    const before = await run!.metric('xroute_trace_malformed_contexts_total');
    const { spans, out } = await route('malformed', { traceparent: '00-not-a-trace-context' });
    expect(oneSpan(spans, 'process').parentSpanId).toBeUndefined();
    expect(await run!.metric('xroute_trace_malformed_contexts_total')).toBe(before + 1);
    expect(run!.output()).toMatch(/"level":"warn".*malformed traceparent|malformed traceparent.*"level":"warn"/);
    expect(out.properties.headers?.traceparent).toMatch(new RegExp(`^00-${spans[0].traceId}-`));
  });

  it('exports no span of a message whose upstream trace is not sampled, and sends its context on, still unsampled', async () => {
    const upstream = upstreamContext();
    await admin.publish('', queues.in, ['hello'], {
      messageId: 'unsampled',
      headers: { kind: 'order', traceparent: upstream.traceparent.replace(/-01$/, '-00') },
      persistent: true,
    });
    await waitFor(() => outgoing.has('unsampled'), `unsampled on ${queues.out}`);
    // A sampled message routed after it: once its spans are in, any span of the unsampled one would be too.
    await route('sampled-after', { traceparent: upstreamContext().traceparent });
    expect(receiver.spansOf(upstream.traceId)).toEqual([]);
    expect(outgoing.get('unsampled')!.properties.headers?.traceparent).toMatch(new RegExp(`^00-${upstream.traceId}-[0-9a-f]{16}-00$`));
  });

  it('lists the slowest recent messages of each component by trace id in the status', async () => {
    await route('slow-list', { traceparent: upstreamContext().traceparent });
    const exported = new Set(receiver.spans.map((s) => s.traceId));
    const slow: readonly SlowTrace[] = (await run!.status()).components.find((c) => c.name === 'rcvr_in')?.slowTraces ?? [];
    expect(slow.length).toBeGreaterThan(0);
    expect(slow.filter((t) => !exported.has(t.traceId))).toEqual([]);
    expect(slow.map((t) => t.ms)).toEqual([...slow.map((t) => t.ms)].sort((a, b) => b - a));
  });
});
