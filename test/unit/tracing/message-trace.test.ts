/**
 * The per-hop tracing calls against the OpenTelemetry SDK with an in-memory exporter: which spans each call makes,
 * how they are parented, and that nothing happens while tracing is off.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  ParentBasedSampler,
  ReadableSpan,
  Sampler,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Message, TRACE_SLOT } from '../../../src/message/message';
import { messageToJson } from '../../../src/message/json-form';
import {
  endStep,
  startStep,
  traceCheckin,
  traceCheckout,
  traceDelivery,
  traceJobEnd,
  traceJobStart,
  tracePublish,
  tracePublished,
  traceRoute,
  traceSettled,
  tracesMessage,
  setActiveTracing,
} from '../../../src/tracing/message-trace';

const AT = { component: 'rcvr', system: 'rabbitmq', destination: 'orders' } as const;
const OUT = { component: 'pstr', system: 'rabbitmq', destination: 'out' } as const;
const UPSTREAM = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

let exporter: InMemorySpanExporter;
const malformed: string[] = [];

function trace(sampler?: Sampler): void {
  exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)], ...(sampler ? { sampler } : {}) });
  setActiveTracing({ tracer: provider.getTracer('test'), propagator: new W3CTraceContextPropagator(), malformed: (_c, v) => malformed.push(v) });
}

const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
/** The headers a persister publishes `msg` with, starting from `headers`. */
const published = (msg: Message, headers: Record<string, unknown> = {}): Record<string, string> => {
  tracePublish(msg, OUT, headers);
  return headers as Record<string, string>;
};
const named = (prefix: string): ReadableSpan => spans().find((s) => s.name.startsWith(prefix))!;
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;

afterEach(() => setActiveTracing(undefined));

describe('tracing off', () => {
  it('leaves the message untouched and sends no context', () => {
    const msg = Message.text('x');
    traceDelivery(msg, { traceparent: UPSTREAM }, AT);
    traceRoute(msg, 'node', 'route r', {});
    expect([msg[TRACE_SLOT], startStep(msg, 'e', 'evaluate'), published(msg, { a: '1' })]).toEqual([undefined, undefined, { a: '1' }]);
  });
});

describe('tracing on', () => {
  beforeEach(() => trace());

  it('chains the hops of one message: consumer, steps, producer, each the child of the one before', () => {
    const msg = Message.text('x');
    traceDelivery(msg, { traceparent: UPSTREAM }, AT);
    traceRoute(msg, 'node', 'route r', {});
    const step = startStep(msg, 'eval', 'evaluate r');
    endStep(msg, step, { 'xroute.return_code': '0' });
    const carrier = published(msg);
    tracePublished(msg);
    traceSettled(msg, 'done');
    const [consumer, route, evaluate, producer] = ['process', 'route', 'evaluate', 'send'].map(named);
    expect([parentOf(consumer), parentOf(route), parentOf(evaluate), parentOf(producer)]).toEqual([
      'b7ad6b7169203331',
      consumer.spanContext().spanId,
      route.spanContext().spanId,
      evaluate.spanContext().spanId,
    ]);
    expect([consumer.kind, producer.kind]).toEqual([SpanKind.CONSUMER, SpanKind.PRODUCER]);
    expect(carrier.traceparent).toBe(`00-0af7651916cd43dd8448eb211c80319c-${producer.spanContext().spanId}-01`);
  });

  it('puts its traceparent over the one the message came with and drops a stale tracestate, keeping the other headers', () => {
    const msg = Message.text('x');
    traceDelivery(msg, { traceparent: UPSTREAM }, AT);
    const headers = published(msg, { kind: 'order', traceparent: UPSTREAM, tracestate: 'vendor=stale' });
    expect([Object.keys(headers).sort(), headers.traceparent === UPSTREAM, headers.traceparent.split('-')[1]]).toEqual([
      ['kind', 'traceparent'],
      false,
      UPSTREAM.split('-')[1],
    ]);
  });

  it('keeps the context out of the message properties and its JSON form, and in its clones', () => {
    const msg = Message.text('x', { a: '1' });
    traceDelivery(msg, undefined, AT);
    expect([[...msg.properties.keys()], JSON.stringify(messageToJson(msg)).includes('xroute.trace'), msg.clone()[TRACE_SLOT]]).toEqual([
      ['a'],
      false,
      msg[TRACE_SLOT],
    ]);
  });

  it('ignores a malformed traceparent, reports it and starts a new trace', () => {
    const msg = Message.text('x');
    traceDelivery(msg, { traceparent: '00-nonsense' }, AT);
    traceSettled(msg, 'done');
    expect([parentOf(named('process')), malformed.at(-1)]).toEqual([undefined, '00-nonsense']);
  });

  it('marks a failed settlement, a refused publish and an expired job as errors with their reason', () => {
    const msg = Message.text('x');
    traceDelivery(msg, undefined, AT);
    traceJobStart(msg, 'jobs', 'reports', { 'xroute.job.worker': 'w1' });
    traceJobEnd(msg, 'expired', 'TimeToLive 10 s reached');
    tracePublish(msg, OUT);
    tracePublished(msg, 'nacked by the broker');
    traceSettled(msg, 'failed', 'unroutable');
    expect(['job', 'send', 'process'].map((n) => [named(n).status.code, named(n).status.message])).toEqual([
      [SpanStatusCode.ERROR, 'TimeToLive 10 s reached'],
      [SpanStatusCode.ERROR, 'nacked by the broker'],
      [SpanStatusCode.ERROR, 'unroutable'],
    ]);
    expect([named('job').attributes['xroute.job.end'], parentOf(named('job'))]).toEqual(['expired', named('dispatch').spanContext().spanId]);
  });

  it('ends the span of a publish made again before its confirm, and starts a new one', () => {
    const msg = Message.text('x');
    tracePublish(msg, OUT);
    tracePublish(msg, OUT);
    tracePublished(msg);
    expect(spans().map((s) => s.status.message ?? 'ok')).toEqual(['published again', 'ok']);
  });

  it('makes a pool request the parent of its pooled child work that brings no context of its own', () => {
    const request = Message.object({});
    traceDelivery(request, undefined, AT);
    traceCheckout(request, 'pool', 'pool_1', {});
    const delivery = Message.text('from the child');
    traceDelivery(delivery, undefined, { ...AT, component: 'pool_1' });
    traceSettled(delivery, 'done');
    traceCheckin('pool_1');
    const later = Message.text('after checkin');
    traceDelivery(later, undefined, { ...AT, component: 'pool_1' });
    traceSettled(later, 'done');
    const [child, afterCheckin] = spans().filter((s) => s.name.startsWith('process'));
    expect([parentOf(child), parentOf(afterCheckin)]).toEqual([named('checkout').spanContext().spanId, undefined]);
  });
});

describe('tracing on, a trace the sampler leaves out', () => {
  beforeEach(() => trace(new ParentBasedSampler({ root: new AlwaysOffSampler() })));

  it('starts no span after the receiver and sends the receiver context on, unsampled', () => {
    const msg = Message.text('x');
    traceDelivery(msg, undefined, AT);
    const step = startStep(msg, 'eval', 'evaluate r');
    const carrier = published(msg);
    expect([step, spans().length, carrier.traceparent.endsWith('-00')]).toEqual([undefined, 0, true]);
  });

  it('sends the same unsampled context from every publish of the message, and nothing to a target without headers', () => {
    const msg = Message.text('x');
    traceDelivery(msg, undefined, AT);
    const first = published(msg).traceparent;
    tracePublish(msg, OUT);
    expect([published(msg).traceparent, spans().length]).toEqual([first, 0]);
  });

  it('continues the upstream trace in the traceparent it sends on, its receiver span the parent, in the exact W3C form', () => {
    const msg = Message.text('x');
    traceDelivery(msg, { traceparent: UPSTREAM.replace(/-01$/, '-00') }, AT);
    const { traceparent } = published(msg);
    const [, traceId, parentId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-00$/.exec(traceparent) ?? [];
    expect([traceId, parentId !== undefined && parentId !== UPSTREAM.split('-')[2]]).toEqual([UPSTREAM.split('-')[1], true]);
  });

  it('makes a pool request the parent of the pooled child work, its trace left out as well', () => {
    const request = Message.object({});
    traceDelivery(request, { traceparent: UPSTREAM.replace(/-01$/, '-00') }, AT);
    traceCheckout(request, 'pool', 'pool_1', {});
    const work = Message.text('from the child');
    traceDelivery(work, undefined, { ...AT, component: 'pool_1' });
    traceCheckin('pool_1');
    expect(published(work).traceparent.split('-')[1]).toBe(UPSTREAM.split('-')[1]);
  });

  it('tells the components that its steps record nothing, so that they build no span names or attributes', () => {
    const msg = Message.text('x');
    traceDelivery(msg, undefined, AT);
    expect(tracesMessage(msg)).toBe(false);
  });
});

describe('whether a message is traced', () => {
  it('is not while tracing is off, and is for a recorded trace or a message that has none yet', () => {
    const recorded = Message.text('x');
    const off = tracesMessage(recorded);
    trace();
    const fresh = tracesMessage(recorded);
    traceDelivery(recorded, undefined, AT);
    expect([off, fresh, tracesMessage(recorded)]).toEqual([false, true, true]);
  });
});
