/**
 * Opening one AMQP 0-9-1 connection with one channel for a component (AmqpReceiver, AmqpPersister):
 * the connection step, the channel step, the loss wiring and the clean-up when set-up fails, written
 * once. The component describes its session object and its set-up (declarations, consume, ...).
 *
 * Loss wiring (amqplib emits 'error' and then 'close' for one loss, and an 'error' without a listener kills the process): a channel 'error' (the broker closed the channel, the connection stays up)
 * only records the reason as an AmqpChannelError; the channel's or connection's 'close' reports the loss once to `onLost` with the best reason known (the channel error, the
 * connection error, or a plain "closed"). A session that died during set-up fails the open, so the
 * reconnector tries again. A connection that receives nothing for its Heartbeat is declared dead here: the
 * loss is reported with a SilentPeerError (its outage dates from the last traffic) and the socket dropped.
 */
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import type { AckTracker, SettleFrame } from './ack-tracker';
import { AmqpConnectionSettings, abortAmqpConnection, amqpStep, bytesReceived, describeAddress, openAmqpConnection } from './amqp091-connection';
import { SilenceWatch } from '../runtime/silence-watch';
import { AmqpChannelError, AmqpStepError } from './amqp091-errors';

/** What every component session has; `alive` turns false once, when it is lost or closed. */
export interface AmqpSessionBase {
  readonly conn: ChannelModel;
  alive: boolean;
  lostError?: unknown;
}

export interface OpenSessionOptions<C extends Channel, S extends AmqpSessionBase> {
  readonly component: string;
  readonly connection: AmqpConnectionSettings;
  /** A confirm channel (publishers; then C is ConfirmChannel) or a plain one. */
  readonly confirm: boolean;
  /** Builds the component's session object around the new connection and channel. */
  create(conn: ChannelModel, ch: C): S;
  /** Called (at most once per close event) when the channel or connection closes; guard it in the actor. */
  onLost(session: S, error: unknown): void;
  /** Declarations, prefetch, consume...: run with the loss wiring already in place. */
  setup(session: S, ch: C): Promise<void>;
}

export async function openAmqpSession<C extends Channel, S extends AmqpSessionBase>(o: OpenSessionOptions<C, S>): Promise<S> {
  const { component, connection } = o;
  let connError: Error | undefined;
  const conn = await amqpStep(component, `connection to ${describeAddress(connection)} as user "${connection.username}"`, () =>
    openAmqpConnection(connection, (e) => {
      connError = e;
    }),
  );
  let session: S | undefined;
  let watch: SilenceWatch | undefined;
  try {
    const ch = (await amqpStep(component, o.confirm ? 'confirm channel open' : 'channel open', () =>
      o.confirm ? conn.createConfirmChannel() : conn.createChannel(),
    )) as C;
    const s = o.create(conn, ch);
    session = s;
    ch.on('error', (e: Error) => {
      s.lostError = new AmqpChannelError(component, e);
    });
    const w = new SilenceWatch({
      peer: describeAddress(connection),
      limitMs: connection.heartbeatSeconds * 1000,
      property: 'Heartbeat',
      received: () => bytesReceived(conn),
      onSilent: (error) => {
        o.onLost(s, error);
        abortAmqpConnection(conn, error);
      },
    });
    watch = w;
    conn.on('close', (e?: Error) => {
      w.stop();
      o.onLost(s, e ?? connError ?? new Error('connection closed'));
    });
    ch.on('close', () => o.onLost(s, s.lostError ?? new Error('channel closed')));
    await o.setup(s, ch);
    if (!s.alive) throw new AmqpStepError(component, 'channel set-up', s.lostError ?? new Error('connection lost while opening'));
    return s;
  } catch (e) {
    if (session) session.alive = false;
    watch?.stop();
    void conn.close().catch(() => undefined);
    throw e;
  }
}

/** A consuming channel whose settlements an AckTracker decides. */
export interface SettlingSession {
  readonly ch: Pick<Channel, 'ack' | 'nack'>;
  readonly acks: AckTracker;
  flushScheduled: boolean;
  alive: boolean;
}

/**
 * Sends the session's marked outcomes once per turn of the event loop, so that consecutive acks become one
 * multiple-ack. `channelGone` hears of a send that failed because the channel died under it (its close event
 * follows, and the broker redelivers what was not settled).
 */
export function scheduleSettlement(s: SettlingSession, channelGone: (error: unknown) => void): void {
  if (s.flushScheduled) return;
  s.flushScheduled = true;
  queueMicrotask(() => flushSettlement(s, channelGone));
}

/** Sends the session's marked outcomes now (also used by a stop that must not wait for the microtask). */
export function flushSettlement(s: SettlingSession, channelGone: (error: unknown) => void): void {
  s.flushScheduled = false;
  if (!s.alive) return;
  try {
    sendSettleFrames(s.ch, s.acks.flush());
  } catch (e) {
    channelGone(e);
  }
}

/** Sends the ack/nack frames an AckTracker decided, in order; throws (amqplib) when the channel is closed. */
function sendSettleFrames(ch: Pick<Channel, 'ack' | 'nack'>, frames: readonly SettleFrame[]): void {
  for (const f of frames) {
    if (f.kind === 'ack') ch.ack(tagOnly(f.tag), f.multiple);
    else ch.nack(tagOnly(f.tag), false, f.requeue);
  }
}

/** amqplib's ack/nack read only the delivery tag of the message they are given. */
function tagOnly(deliveryTag: number): ConsumeMessage {
  return { fields: { deliveryTag } } as ConsumeMessage;
}
