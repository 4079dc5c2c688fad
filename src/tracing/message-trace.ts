/**
 * The spans of one message's way through a flow (docs/operations.md#tracing), called by the components:
 *
 *  - a receiver calls traceDelivery when it hands a delivery to its link (a CONSUMER "process" span, child of
 *    the upstream context found in the delivery's headers, else a new root) and traceSettled when the delivery is
 *    settled with the broker (the span ends: it covers the message's whole way through the flow);
 *  - a node or evaluator step calls startStep / endStep (an INTERNAL span), or traceRoute for a routing decision
 *    that takes no time of its own; JobNode calls traceJobStart / traceJobEnd around a job's active life;
 *  - a persister calls tracePublish when it publishes (a PRODUCER span, whose context it injects into the
 *    outgoing headers) and tracePublished at the broker's confirm.
 *
 * Each step's span becomes the parent of the next: the context travels with the Message object in its
 * TRACE_SLOT (never a property, so it is never serialised). The time a message waited in a link before a step
 * took it is the step's attribute xroute.queue.wait_ms (an attribute, not a span of its own: cheaper, and the
 * gap is visible between the spans anyway).
 *
 * While tracing is off every function returns at its first line (no span, no allocation); the OpenTelemetry
 * SDK is not even loaded (src/tracing/trace-sdk.ts loads it only when configured). While it is on, a message the
 * sampler left out costs one non-recording span at the receiver and nothing more: every sampler of the OpenTelemetry
 * configuration decides a child as it decided the root (parent-based ones follow the parent, ratio ones see the same
 * trace id, always_on records every span), so the steps after an unrecorded receiver span would be unrecorded too,
 * and are not started; the traceparent sent on is then the receiver span's, flagged unsampled. Such a message keeps
 * only that span in its slot while it is in flight (no context, no copy of its slot): its context is made for the
 * moment of an injection and dropped at once (docs/operations.md#what-it-costs). Attributes are computed only for
 * spans that record.
 */
import * as otel from '@opentelemetry/api';
import type { Attributes, Context, Span, SpanOptions, TextMapPropagator, Tracer } from '@opentelemetry/api';
import { Message, TRACE_SLOT } from '../message/message';
import { HeaderCarrier, headerGetter, headerSetter, headerText } from './carrier';
import { recordSlowTrace, traceCounts } from './trace-stats';

// Read once: the API's CommonJS index exports these through getters, which every use in a hook would call
// (src/tracing/index.ts says what such a call costs).
const trace = otel.trace;
const ROOT_CONTEXT = otel.ROOT_CONTEXT;
const SAMPLED = otel.TraceFlags.SAMPLED;
const ERROR = otel.SpanStatusCode.ERROR;

/** What a running tracing gives the hooks: the tracer, the propagator and where to report malformed contexts. */
export interface ActiveTracing {
  readonly tracer: Tracer;
  readonly propagator: TextMapPropagator;
  /** Reports an ignored malformed traceparent (rate-limited by the caller). */
  malformed(component: string, value: string): void;
}

let active: ActiveTracing | undefined;

/** Installs (or, with undefined, removes) the running tracing; src/tracing/trace-sdk.ts calls it. */
export function setActiveTracing(t: ActiveTracing | undefined): void {
  active = t;
}

export function tracingActive(): boolean {
  return active !== undefined;
}

/**
 * Whether a step's span of `msg` would be recorded: tracing is on and the sampler did not leave its trace out. The
 * components ask it before building a step's name and attributes, so that a message left out costs nothing there.
 */
export function tracesMessage(msg: Message): boolean {
  return active !== undefined && slotOf(msg)?.recording !== false;
}

/** A started span and what its end needs for the status' slow list. */
interface Timed {
  readonly span: Span;
  readonly component: string;
  readonly start: number;
}

/**
 * Tracing's state of a recorded message, in its TRACE_SLOT. Replaced, never changed: a clone may share it.
 */
interface TraceSlot {
  /** The context of the message's latest step: the parent of its next. */
  readonly context: Context;
  /** performance.now() when the latest step handed it on (the start of the wait in the next link). */
  readonly handedAt: number;
  /** False when a step's span did not record (a sampler that decides per span): the steps after it start none. */
  readonly recording: boolean;
  readonly consumer?: Timed;
  readonly producer?: Timed;
  readonly job?: Timed;
}

/**
 * The TRACE_SLOT of a message the sampler left out at its receiver: that receiver's non-recording span alone, the
 * span whose context is sent on. One small object for the message's time in flight, where a context would be a
 * map and three closures kept per message.
 */
class Unsampled {
  readonly recording = false;
  constructor(readonly span: Span) {}
}

type Slot = TraceSlot | Unsampled;

function slotOf(msg: Message): Slot | undefined {
  return msg[TRACE_SLOT] as Slot | undefined;
}

/** The slot of a recorded message (undefined for none, or for one the sampler left out). */
function recordedSlot(msg: Message): TraceSlot | undefined {
  const slot = slotOf(msg);
  return slot instanceof Unsampled ? undefined : slot;
}

/** The context of the message's latest step: for a message the sampler left out, made for this one use. */
function contextOf(slot: Slot): Context {
  return slot instanceof Unsampled ? trace.setSpan(ROOT_CONTEXT, slot.span) : slot.context;
}

type MessagingSystem = 'rabbitmq' | 'activemq' | 'jms' | 'tcp' | 'file' | 'http';

/** Where a receiver took a delivery, or where a persister publishes. */
export interface Endpoint {
  readonly component: string;
  readonly system: MessagingSystem;
  /** Queue, topic, exchange, host:port or file. */
  readonly destination: string;
  readonly routingKey?: string;
}

const ATTR_COMPONENT = 'xroute.component';
const ATTR_QUEUE_WAIT_MS = 'xroute.queue.wait_ms';
export const ATTR_RULESET = 'xroute.ruleset';
export const ATTR_RETURN_CODE = 'xroute.return_code';

// The messaging attributes of the OpenTelemetry semantic conventions. They are still "incubating" there, and
// the package's incubating entry point is not reachable with this project's module resolution, so they are
// named here as the conventions spell them.
const MESSAGING_SYSTEM = 'messaging.system';
const MESSAGING_OPERATION_TYPE = 'messaging.operation.type';
const MESSAGING_OPERATION_NAME = 'messaging.operation.name';
const MESSAGING_DESTINATION_NAME = 'messaging.destination.name';
const MESSAGING_MESSAGE_ID = 'messaging.message.id';
const MESSAGING_BODY_SIZE = 'messaging.message.body.size';
const MESSAGING_ROUTING_KEY = 'messaging.rabbitmq.destination.routing_key';

function messagingAttributes(msg: Message, at: Endpoint, operation: 'process' | 'send'): Attributes {
  const attributes: Attributes = {
    [MESSAGING_SYSTEM]: at.system,
    [MESSAGING_OPERATION_TYPE]: operation,
    [MESSAGING_OPERATION_NAME]: operation,
    [MESSAGING_DESTINATION_NAME]: at.destination,
    [MESSAGING_BODY_SIZE]: msg.bodySize(),
    [ATTR_COMPONENT]: at.component,
  };
  const id = msg.headers.JMSMessageID;
  if (id !== undefined) attributes[MESSAGING_MESSAGE_ID] = id;
  if (at.routingKey !== undefined) attributes[MESSAGING_ROUTING_KEY] = at.routingKey;
  return attributes;
}

// The options of each kind of span, made once (the SDK only reads them).
const CONSUMER: SpanOptions = { kind: otel.SpanKind.CONSUMER };
const INTERNAL: SpanOptions = { kind: otel.SpanKind.INTERNAL };
const PRODUCER: SpanOptions = { kind: otel.SpanKind.PRODUCER };

function sampled(span: Span): boolean {
  return (span.spanContext().traceFlags & SAMPLED) !== 0;
}

function end(t: Timed, now: number, failure?: string): void {
  if (failure !== undefined) t.span.setStatus({ code: ERROR, message: failure });
  t.span.end();
  if (sampled(t.span)) recordSlowTrace(t.component, t.span.spanContext().traceId, Math.round(now - t.start), Date.now());
}

/**
 * Pools: the context of the request each pooled child was checked out for, by the child's name. The parent of the
 * child's work (its deliveries, its publishes) wherever that work brings no context of its own.
 */
const requestContexts = new Map<string, Context>();

/** A pool checked out `child` for `request`: a checkout span, which becomes the parent of the child's work. */
export function traceCheckout(request: Message, pool: string, child: string, attributes: Attributes): void {
  if (active === undefined) return;
  traceRoute(request, pool, `checkout ${child}`, attributes);
  const slot = slotOf(request);
  if (slot !== undefined) requestContexts.set(child, contextOf(slot));
}

/** The pooled `child` was checked in: its work no longer belongs to the request. */
export function traceCheckin(child: string): void {
  requestContexts.delete(child);
}

/** The parent of work that brings no context: the pool request of a pooled child, else a new trace. */
function inherited(component: string): Context {
  return requestContexts.size === 0 ? ROOT_CONTEXT : (requestContexts.get(component) ?? ROOT_CONTEXT);
}

/** Upstream context in `carrier`, or (none, or a malformed traceparent: reported and ignored) the inherited one. */
function upstream(t: ActiveTracing, carrier: HeaderCarrier | undefined, component: string): Context {
  if (carrier === undefined) return inherited(component);
  const traceparent = headerText(carrier.traceparent);
  if (traceparent === undefined || traceparent === '') return inherited(component);
  const ctx = t.propagator.extract(ROOT_CONTEXT, carrier, headerGetter);
  if (trace.getSpanContext(ctx) === undefined) {
    traceCounts.malformed++;
    t.malformed(component, traceparent);
    return inherited(component);
  }
  return ctx;
}

// ------------------------------------------------------------------ receivers

/**
 * A receiver hands a delivery to its link: starts its CONSUMER span, a child of the W3C context in `carrier`
 * (AMQP 0-9-1 headers or AMQP 1.0 application properties), else a new trace.
 */
export function traceDelivery(msg: Message, carrier: HeaderCarrier | undefined, at: Endpoint): void {
  const t = active;
  if (t === undefined) return;
  const parent = upstream(t, carrier, at.component);
  const span = t.tracer.startSpan(`process ${at.destination}`, CONSUMER, parent);
  if (!span.isRecording()) {
    // Left out by the sampler: only its span's context goes on, for the traceparent sent on (flagged unsampled).
    // The span has nothing to end, time or record.
    msg[TRACE_SLOT] = new Unsampled(span);
    return;
  }
  span.setAttributes(messagingAttributes(msg, at, 'process'));
  const now = performance.now();
  const consumer: Timed = { span, component: at.component, start: now };
  msg[TRACE_SLOT] = { context: trace.setSpan(parent, span), handedAt: now, consumer, recording: true } satisfies TraceSlot;
}

/** The receiver settled the delivery of `msg` with its broker (ack, or given up on as `failed`): its CONSUMER span ends. */
export function traceSettled(msg: Message, outcome: 'done' | 'failed', reason?: string): void {
  if (active === undefined) return;
  const slot = recordedSlot(msg);
  if (slot?.consumer === undefined) return;
  end(slot.consumer, performance.now(), outcome === 'failed' ? (reason ?? 'failed downstream') : undefined);
  msg[TRACE_SLOT] = { ...slot, consumer: undefined } satisfies TraceSlot;
}

/** A receiver that had no done callback of its own passes this one (undefined while tracing is off). */
export function settleTraceOnDone(): ((msg: Message, outcome: 'done' | 'failed', cell: number, reason?: string) => void) | undefined {
  return active === undefined ? undefined : settleOnDone;
}

const settleOnDone = (msg: Message, outcome: 'done' | 'failed', _cell: number, reason?: string): void => traceSettled(msg, outcome, reason);

// ------------------------------------------------------------------ nodes and evaluators

/** A step in progress (undefined while tracing is off). */
export type TraceStep = Timed | undefined;

/** A node or evaluator takes `msg`: starts its INTERNAL span, child of the message's latest step. */
export function startStep(msg: Message, component: string, name: string, attributes: Attributes = {}): TraceStep {
  const t = active;
  if (t === undefined) return undefined;
  const slot = slotOf(msg);
  if (slot?.recording === false) return undefined;
  const parent = slot !== undefined ? (slot as TraceSlot).context : inherited(component);
  const now = performance.now();
  const span = t.tracer.startSpan(name, INTERNAL, parent);
  const recording = span.isRecording();
  if (recording) {
    span.setAttributes(attributes);
    span.setAttribute(ATTR_COMPONENT, component);
    if (slot !== undefined) span.setAttribute(ATTR_QUEUE_WAIT_MS, now - slot.handedAt);
  }
  msg[TRACE_SLOT] = { ...(slot as TraceSlot | undefined), context: trace.setSpan(parent, span), handedAt: now, recording } satisfies TraceSlot;
  return { span, component, start: now };
}

/** The step hands `msg` on: its span ends with `attributes` added (the return code, the outlink). */
export function endStep(msg: Message, step: TraceStep, attributes?: Attributes, failure?: string): void {
  if (step === undefined) return;
  if (attributes !== undefined && step.span.isRecording()) step.span.setAttributes(attributes);
  const now = performance.now();
  end(step, now, failure);
  const slot = recordedSlot(msg);
  if (slot !== undefined) msg[TRACE_SLOT] = { ...slot, handedAt: now } satisfies TraceSlot;
}

/** A routing decision (CollectNode): a span of its own, started and ended at once. */
export function traceRoute(msg: Message, component: string, name: string, attributes: Attributes): void {
  if (active === undefined || slotOf(msg)?.recording === false) return;
  endStep(msg, startStep(msg, component, name, attributes));
}

// ------------------------------------------------------------------ JobNode

/**
 * JobNode dispatches `msg` to a worker: a "dispatch" span (ruleset, group, worker), then the job's own span, open
 * for the job's active life and the parent of the worker's work; traceJobEnd closes it.
 */
export function traceJobStart(msg: Message, component: string, ruleset: string, attributes: Attributes): void {
  if (active === undefined || slotOf(msg)?.recording === false) return;
  traceRoute(msg, component, `dispatch ${ruleset}`, { [ATTR_RULESET]: ruleset, ...attributes });
  const step = startStep(msg, component, `job ${ruleset}`, { [ATTR_RULESET]: ruleset, ...attributes });
  const slot = recordedSlot(msg);
  if (slot !== undefined && step !== undefined) msg[TRACE_SLOT] = { ...slot, job: step } satisfies TraceSlot;
}

/** The job of `msg` ended: completed, failed, expired (TTL), aborted or dispatched again. */
export function traceJobEnd(msg: Message, ending: string, reason?: string): void {
  if (active === undefined) return;
  const slot = recordedSlot(msg);
  if (slot?.job === undefined) return;
  slot.job.span.setAttribute('xroute.job.end', ending);
  end(slot.job, performance.now(), ending === 'completed' ? undefined : (reason ?? ending));
  msg[TRACE_SLOT] = { ...slot, job: undefined, handedAt: performance.now() } satisfies TraceSlot;
}

// ------------------------------------------------------------------ persisters

/**
 * A persister publishes `msg`: starts its PRODUCER span and, given the outgoing `headers` (AMQP 0-9-1 headers, AMQP
 * 1.0 application properties), puts the context that carries it there (traceparent and, when there is one,
 * tracestate) over any the message had; a stale tracestate goes. A persister whose target has no headers (a file,
 * a stream) passes none: a message the sampler left out then costs nothing here. A message published again
 * (reconnect, retry) ends its previous attempt's span first.
 */
export function tracePublish(msg: Message, at: Endpoint, headers?: Record<string, unknown>): void {
  const t = active;
  if (t === undefined) return;
  const slot = slotOf(msg);
  if (slot instanceof Unsampled) {
    if (headers !== undefined) inject(t, trace.setSpan(ROOT_CONTEXT, slot.span), headers);
    return;
  }
  const now = performance.now();
  if (slot?.producer !== undefined) end(slot.producer, now, 'published again');
  const parent = slot !== undefined ? slot.context : inherited(at.component);
  const span = t.tracer.startSpan(`send ${at.destination}`, PRODUCER, parent);
  const recording = span.isRecording();
  if (recording) {
    span.setAttributes(messagingAttributes(msg, at, 'send'));
    if (slot !== undefined) span.setAttribute(ATTR_QUEUE_WAIT_MS, now - slot.handedAt);
  }
  if (headers !== undefined) inject(t, trace.setSpan(parent, span), headers);
  msg[TRACE_SLOT] = {
    ...slot,
    context: parent,
    handedAt: slot?.handedAt ?? now,
    recording,
    producer: { span, component: at.component, start: now },
  } satisfies TraceSlot;
}

/** Puts the trace context of `context` into the outgoing `headers`, in place of any the message carried. */
function inject(t: ActiveTracing, context: Context, headers: Record<string, unknown>): void {
  if (headers.tracestate !== undefined) delete headers.tracestate;
  t.propagator.inject(context, headers, headerSetter);
}

/** The broker confirmed (or refused: `failure`) the publish of `msg`: its PRODUCER span ends. */
export function tracePublished(msg: Message, failure?: string): void {
  if (active === undefined) return;
  const slot = recordedSlot(msg);
  if (slot?.producer === undefined) return;
  end(slot.producer, performance.now(), failure);
  msg[TRACE_SLOT] = { ...slot, producer: undefined } satisfies TraceSlot;
}
