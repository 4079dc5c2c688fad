/**
 * The errors of the AMQP 0-9-1 transport, and the one place that reads amqplib's errors: its reply codes
 * (403 ACCESS_REFUSED, 404 NOT_FOUND, 406 PRECONDITION_FAILED, ...), its message texts ('message nacked',
 * ACCESS_REFUSED, a refused SASL mechanism) and the TLS failures under them (docs/architecture.md, "Errors").
 */
import { XrouteError } from '../foundation/xroute-error';
import { describeTlsFailure, isTlsConfigFailure } from './tls';

/** Reply codes that mean the configuration is wrong: retrying cannot help. */
const CONFIG_REPLY_CODES = new Set([403, 404, 405, 406, 530]);

/**
 * A configuration error (wrong password, missing exchange/queue under IsPassive, inequivalent declare,
 * no permission, a TLS certificate that is not trusted or does not match) as opposed to an outage
 * (refused, reset, DNS, broker shutting down).
 */
export function isAmqpConfigError(error: unknown): boolean {
  if (isTlsConfigFailure(error)) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number' && CONFIG_REPLY_CODES.has(code)) return true;
  return /ACCESS[-_]REFUSED|SASL mechanism/.test(error.message);
}

/** A short, password-free description of an amqplib error for status and logs. */
function describeAmqpError(error: unknown): string {
  const tlsFailure = describeTlsFailure(error);
  if (tlsFailure !== undefined) return tlsFailure;
  if (!(error instanceof Error)) return String(error);
  if (/Expected ConnectionOpenOk; got <ConnectionClose/.test(error.message))
    return 'the broker closed the connection while opening it (unknown virtual host, no permission, or shutting down)';
  return error.message;
}

/**
 * A failed step of talking to the broker (connect, check/declare, bind, consume, publish), naming the
 * component and the step. `configError` tells the Reconnector to give up instead of retrying.
 */
export class AmqpStepError extends XrouteError {
  readonly configError: boolean;
  readonly replyCode?: number;
  constructor(
    readonly component: string,
    readonly step: string,
    cause: unknown,
    hint?: string,
  ) {
    const configError = isAmqpConfigError(cause);
    super(`${component}: ${step} failed: ${describeAmqpError(cause)}${configError && hint ? ` (${hint})` : ''}`, { cause });
    this.name = 'AmqpStepError';
    this.configError = configError;
    const code = cause instanceof Error ? (cause as { code?: unknown }).code : undefined;
    if (typeof code === 'number') this.replyCode = code;
  }
}

/**
 * True when a publisher-confirm callback's error is the broker's basic.nack. amqplib fails every pending confirm
 * with 'channel closed' just before a channel's close event too; only 'message nacked' is a nack.
 */
export function isBrokerNack(err: unknown): boolean {
  return err instanceof Error && err.message === 'message nacked';
}

/**
 * The broker closed the channel with an error (e.g. 406 "unknown delivery tag", 404 on a publish to a
 * deleted exchange) while the connection stayed up: a fault of this client's use of the channel, not a
 * broker outage.
 */
export class AmqpChannelError extends XrouteError {
  /** The AMQP reply code (406, 404, ...), as amqplib names it on its errors. */
  readonly code?: number;
  /** The broker's reason, amqplib's message of the channel error. */
  readonly reason: string;
  constructor(
    readonly component: string,
    cause: Error,
  ) {
    super(`the broker closed the channel: ${cause.message}`, { cause });
    this.reason = cause.message;
    this.name = 'AmqpChannelError';
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'number') this.code = code;
  }
}

/** A tag the broker cannot have delivered in this order: a programming error of the caller. */
export class DeliveryTagOrderError extends XrouteError {
  constructor(
    readonly tag: number,
    readonly expected: number,
  ) {
    super(`delivery tag ${tag} registered out of order (expected ${expected}): tags count up by one per channel`);
    this.name = 'DeliveryTagOrderError';
  }
}

/** The queue named is not there (a passive check failed). */
export class ParkingPlaceMissingError extends XrouteError {
  constructor(
    readonly place: string,
    cause: unknown,
  ) {
    super(`${place} does not exist (${(cause as Error).message}); check --queue, or the receiver has parked nothing yet`, { cause });
    this.name = 'ParkingPlaceMissingError';
  }
}
