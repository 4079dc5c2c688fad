/**
 * basic.publish on a confirm channel without amqplib's per-publish prototype. amqplib's `publish` (Args.publish in
 * lib/api_args.js) builds the frame's headers as `Object.create(options.headers)`: the caller's headers object
 * becomes a prototype, and V8 gives every such object a map of its own in the old generation, about 500 bytes per
 * publish that only a full collection frees (issue 32; docs/benchmarks.md, the evaluate path's old generation).
 * Here the same fields and properties are built with the headers as they are and handed to the channel's
 * `sendMessage` and `pushConfirmCallback`, the two calls amqplib's ConfirmChannel.publish makes. A channel
 * without those two methods (another amqplib) and a publish with CC or BCC go through `publish` as before. The two
 * methods are amqplib internals: package.json pins amqplib to its minor version (~2.3), and
 * test/unit/transports/amqp091-publish.test.ts checks the frames byte for byte against the installed amqplib's own.
 */
import type { ConfirmChannel, Options } from 'amqplib';

/** The basic.publish method fields and content properties in one object, as amqplib's Args.publish returns them. */
export interface PublishFrame {
  readonly exchange: string;
  readonly routingKey: string;
  readonly mandatory: boolean;
  readonly immediate: false;
  readonly ticket: undefined;
  readonly contentType: string | undefined;
  readonly contentEncoding: string | undefined;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly deliveryMode: number | undefined;
  readonly priority: number | undefined;
  readonly correlationId: string | undefined;
  readonly replyTo: string | undefined;
  readonly expiration: string | undefined;
  readonly messageId: string | undefined;
  readonly timestamp: number | undefined;
  readonly type: string | undefined;
  readonly userId: string | undefined;
  readonly appId: string | undefined;
  readonly clusterId: undefined;
}

/** The two amqplib channel methods ConfirmChannel.publish is made of (lib/channel.js, lib/channel_model.js). */
interface FramePublisher {
  sendMessage(fields: PublishFrame, properties: PublishFrame, content: Buffer): boolean;
  pushConfirmCallback(cb: (err: unknown) => void): void;
}

/** Headers of a publish without any: amqplib encodes an empty table then too. Only read. */
const NO_HEADERS: Readonly<Record<string, unknown>> = Object.freeze(Object.create(null) as Record<string, unknown>);

/** What Args.publish makes of `options` (no CC or BCC), headers kept as the caller's object. */
export function publishFrame(exchange: string, routingKey: string, options: Options.Publish): PublishFrame {
  let deliveryMode: number | undefined;
  if (options.persistent !== undefined) deliveryMode = options.persistent ? 2 : 1;
  else if (typeof options.deliveryMode === 'number') deliveryMode = options.deliveryMode;
  else if (options.deliveryMode) deliveryMode = 2;
  return {
    exchange,
    routingKey,
    mandatory: !!options.mandatory,
    immediate: false,
    ticket: undefined,
    contentType: options.contentType,
    contentEncoding: options.contentEncoding,
    headers: (options.headers as Record<string, unknown> | undefined) ?? NO_HEADERS,
    deliveryMode,
    priority: options.priority,
    correlationId: options.correlationId,
    replyTo: options.replyTo,
    expiration: options.expiration === undefined ? undefined : options.expiration.toString(),
    messageId: options.messageId,
    timestamp: options.timestamp,
    type: options.type,
    userId: options.userId,
    appId: options.appId,
    clusterId: undefined,
  };
}

function framePublisher(ch: ConfirmChannel): FramePublisher | undefined {
  const c = ch as unknown as Partial<FramePublisher>;
  return typeof c.sendMessage === 'function' && typeof c.pushConfirmCallback === 'function' ? (c as FramePublisher) : undefined;
}

/**
 * `ch.publish(exchange, routingKey, content, options, onConfirm)`, the same frames on the wire, the same return
 * value (false: the channel's buffer is full) and the same exceptions (a closed channel throws).
 */
export function publishConfirmed(
  ch: ConfirmChannel,
  exchange: string,
  routingKey: string,
  content: Buffer,
  options: Options.Publish,
  onConfirm: (err: unknown) => void,
): boolean {
  const direct = options.CC === undefined && options.BCC === undefined ? framePublisher(ch) : undefined;
  if (direct === undefined) return ch.publish(exchange, routingKey, content, options, onConfirm);
  const frame = publishFrame(exchange, routingKey, options);
  const sent = direct.sendMessage(frame, frame, content);
  direct.pushConfirmCallback(onConfirm);
  return sent;
}
