/**
 * The errors of the AMQP 1.0 transport, and the one place that reads rhea's errors: its ConnectionError, the
 * error conditions of a broker's close and detach frames (amqp:unauthorized-access, ...), SASL refusals and the TLS
 * failures under them (docs/architecture.md, "Errors"). Each error keeps rhea's as `cause`; none carries a password.
 */
import { XrouteError } from '../foundation/xroute-error';
import { ConfigValueError } from '../errors/config-value-error';
import { describeTlsFailure } from './tls';

/** Where a connection goes, for messages: scheme://host:port (no credentials). */
export type EndpointLabel = string;

/** A connection attempt failed: unreachable, refused by the broker, timed out, or a protocol problem. */
export class Amqp10ConnectError extends XrouteError {
  constructor(
    readonly endpoint: EndpointLabel,
    readonly reason: string,
    /** The AMQP error condition when the broker sent one (e.g. amqp:invalid-field for a duplicate ClientID). */
    readonly condition?: string,
    /** The error of the socket, TLS or rhea that made the attempt fail. */
    cause?: unknown,
  ) {
    super(`cannot connect to ${endpoint}: ${reason}${condition ? ` (${condition})` : ''}`, cause === undefined ? undefined : { cause });
    this.name = 'Amqp10ConnectError';
  }
}

/** The broker refused the credentials (SASL outcome, or amqp:unauthorized-access). Not retried. */
export class Amqp10AuthError extends Amqp10ConnectError {
  constructor(
    endpoint: EndpointLabel,
    readonly username: string | undefined,
    reason: string,
    cause?: unknown,
  ) {
    super(
      endpoint,
      `authentication failed for user ${JSON.stringify(username ?? '')}: ${reason}; check Username/Password (or Principal/Credentials)`,
      'amqp:unauthorized-access',
      cause,
    );
    this.name = 'Amqp10AuthError';
  }
}

/**
 * The TLS handshake failed for a reason retrying cannot cure: the broker's certificate is not trusted or
 * does not match the host, the port does not speak TLS, or the broker refused our client certificate.
 */
export class Amqp10TlsError extends Amqp10ConnectError {
  constructor(
    endpoint: EndpointLabel,
    reason: string,
    /** Node's error code (e.g. UNABLE_TO_VERIFY_LEAF_SIGNATURE, ERR_TLS_CERT_ALTNAME_INVALID). */
    readonly code?: string,
    cause?: unknown,
  ) {
    super(endpoint, reason, undefined, cause);
    this.name = 'Amqp10TlsError';
  }
}

/** Reconnector isFatal for AMQP 1.0: refused credentials and TLS configuration failures are not retried. */
export function isFatalAmqp10Error(error: unknown): boolean {
  return error instanceof Amqp10AuthError || error instanceof Amqp10TlsError;
}

/** The error of a failed connection attempt: Amqp10TlsError when TLS says retrying cannot help. */
export function connectFailure(
  endpoint: EndpointLabel,
  err: unknown,
  reason = String((err as { message?: unknown } | undefined)?.message ?? err),
): Amqp10ConnectError {
  const tlsFailure = describeTlsFailure(err);
  if (tlsFailure !== undefined) return new Amqp10TlsError(endpoint, tlsFailure, String((err as { code?: unknown }).code), err);
  return new Amqp10ConnectError(endpoint, reason, undefined, err);
}

/** An AMQP error as rhea reports it: a ConnectionError, or the error of a broker's close or detach frame. */
interface RheaErrorInfo {
  readonly condition?: string;
  readonly description?: string;
  readonly message?: string;
}

/**
 * The error of a connection the broker refused or closed: refused credentials (the amqp:unauthorized-access
 * condition, or a SASL outcome) are Amqp10AuthError, which is not retried; anything else Amqp10ConnectError.
 */
export function refusedConnection(endpoint: EndpointLabel, username: string | undefined, rheaError: unknown): Amqp10ConnectError {
  const info = rheaError as RheaErrorInfo | undefined;
  const description = info?.description ?? info?.message ?? 'closed by the broker';
  if (info?.condition === 'amqp:unauthorized-access' || /authenticat|sasl/i.test(description))
    return new Amqp10AuthError(endpoint, username, description, rheaError);
  return new Amqp10ConnectError(endpoint, description, info?.condition, rheaError);
}

/** The error of a protocol error during the handshake: a SASL one is refused credentials. */
export function protocolFailure(endpoint: EndpointLabel, username: string | undefined, err: unknown): Amqp10ConnectError {
  const message = err instanceof Error ? err.message : String(err);
  return /SASL/i.test(message) ? new Amqp10AuthError(endpoint, username, message, err) : new Amqp10ConnectError(endpoint, message, undefined, err);
}

/** The error of a link the broker refused or detached, from rhea's link error (or the detach frame's). */
export function refusedLink(endpoint: EndpointLabel, address: string, rheaError: unknown, fallback: string): Amqp10LinkError {
  const info = rheaError as RheaErrorInfo | undefined;
  return new Amqp10LinkError(endpoint, address, info?.description ?? fallback, info?.condition, rheaError);
}

/** An open connection broke (socket closed, broker closed it, or a link was detached by the broker). */
export class Amqp10ConnectionLostError extends XrouteError {
  constructor(
    readonly endpoint: EndpointLabel,
    readonly reason: string,
    readonly condition?: string,
    /** rhea's error, or the classified one, when the loss came with one. */
    cause?: unknown,
  ) {
    super(`connection to ${endpoint} lost: ${reason}${condition ? ` (${condition})` : ''}`, cause === undefined ? undefined : { cause });
    this.name = 'Amqp10ConnectionLostError';
  }
}

/** The broker refused to attach a link (unknown address, bad selector, not authorised, ...). */
export class Amqp10LinkError extends XrouteError {
  constructor(
    readonly endpoint: EndpointLabel,
    readonly address: string,
    readonly reason: string,
    readonly condition?: string,
    /** The broker's detach error as rhea reports it. */
    cause?: unknown,
  ) {
    super(
      `${endpoint} refused the link to ${JSON.stringify(address)}: ${reason}${condition ? ` (${condition})` : ''}`,
      cause === undefined ? undefined : { cause },
    );
    this.name = 'Amqp10LinkError';
  }
}

/**
 * The installed rhea lacks a private field xroute relies on (package.json pins the minor version this was
 * checked with): the receiver cannot be made safe against a held delivery, so it is not opened.
 */
export class RheaInternalsError extends XrouteError {
  constructor(
    /** The field path that was missing, e.g. "session.incoming.deliveries". */
    readonly field: string,
    readonly rheaVersion: string,
  ) {
    super(`rhea ${rheaVersion} has no ${field}: xroute was checked with the version package.json pins; reinstall it (npm ci)`);
    this.name = 'RheaInternalsError';
  }
}

/** A JMS component's configuration cannot work (bad URI, missing TopicName, unreadable jndi.properties, ...). */
export class JmsConfigError extends ConfigValueError {
  constructor(
    component: string,
    property: string,
    readonly reason: string,
    cause?: unknown,
  ) {
    super({ component, property, expected: reason, cause }, { detail: reason });
    this.name = 'JmsConfigError';
  }
}

export class AmqpMappingError extends XrouteError {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`cannot map message ${field} to AMQP 1.0: ${reason}`);
    this.name = 'AmqpMappingError';
  }
}

/** More deliveries than the window allowed: the peer ignored the session window. */
export class IncomingWindowOverflowError extends XrouteError {
  constructor(
    readonly capacity: number,
    readonly deliveryId: number,
  ) {
    super(`AMQP 1.0 session: delivery ${deliveryId} beyond the incoming window of ${capacity} unsettled deliveries`);
    this.name = 'IncomingWindowOverflowError';
  }
}

/** The broker refused or did not answer a step of a parked-message operation. */
export class ActiveMqParkedError extends XrouteError {
  constructor(
    readonly place: string,
    readonly step: string,
    detail: string,
    cause?: unknown,
  ) {
    super(`${place}: ${step}: ${detail}`, cause === undefined ? undefined : { cause });
    this.name = 'ActiveMqParkedError';
  }
}
