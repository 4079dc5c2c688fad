/**
 * TLS for the broker transports (amqps:// over AMQP 0-9-1 and AMQP 1.0), written once: the settings a
 * component configures, the socket options built from them, and the classification of handshake failures.
 *
 * A certificate that is not trusted, that does not match the host, a port that does not speak TLS, or a
 * broker refusing our client certificate are configuration errors: retrying cannot cure them, so the
 * transports stop (FAILED) with a reason that says what to change, instead of reporting an outage.
 */
import { isIP } from 'net';
import type { ConnectionOptions } from 'tls';

export interface TlsSettings {
  /** PEM of the CA(s) to trust (CAFile); absent = the system's CAs. */
  readonly ca?: Buffer;
  /** PEM client certificate (CertFile) and its key (KeyFile). */
  readonly cert?: Buffer;
  readonly key?: Buffer;
  /** Passphrase of the key (KeyPassphrase). Never logged. */
  readonly passphrase?: string;
  /** Name checked against the broker's certificate and sent as SNI (ServerName); default the host. */
  readonly servername?: string;
  /** Verify the broker's certificate (RejectUnauthorized, default true). */
  readonly rejectUnauthorized: boolean;
}

/**
 * Options for tls.connect. The server name defaults to the host, but only when it is a name: SNI must not
 * carry an IP address (RFC 6066), and Node checks an IP host against the certificate's IP entries by itself.
 */
export function tlsSocketOptions(settings: TlsSettings, host: string): ConnectionOptions {
  const servername = settings.servername || (isIP(host) ? undefined : host);
  return {
    ...(settings.ca ? { ca: settings.ca } : {}),
    ...(settings.cert ? { cert: settings.cert } : {}),
    ...(settings.key ? { key: settings.key } : {}),
    ...(settings.passphrase !== undefined ? { passphrase: settings.passphrase } : {}),
    ...(servername ? { servername } : {}),
    rejectUnauthorized: settings.rejectUnauthorized,
  };
}

/** Node's certificate-verification codes meaning "no trusted CA vouches for this certificate". */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REJECTED',
  'INVALID_CA',
]);

/**
 * The reason a TLS connection failed because of its configuration (certificate, host name, client
 * certificate, plain port), or undefined for anything else (refused, reset, timeout: an outage).
 */
export function describeTlsFailure(error: unknown): string | undefined {
  // Duck-typed, not `instanceof Error`: Node's errors may come from another realm (a vm context, jest).
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'string') return undefined;
  const what = `${opensslReason(typeof message === 'string' ? message : '')} (${code})`;
  if (UNTRUSTED.has(code))
    return `the broker's TLS certificate is not trusted: ${what}; name the CA that signed it in CAFile (RejectUnauthorized false skips the check: never in production)`;
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return `the broker's TLS certificate is not valid now: ${what}`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `the broker's TLS certificate does not match the host name: ${what}; connect to a name the certificate lists, or set ServerName to one`;
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG')
    return `the port does not speak TLS (a plain amqp:// port?): ${what}`;
  if (/^ERR_SSL_(TLSV1|TLSV13|SSLV3)_ALERT_/.test(code))
    return `the broker refused the TLS handshake: ${what}; check CertFile/KeyFile (a client certificate the broker accepts)`;
  if (code.startsWith('ERR_OSSL_')) return `the TLS configuration cannot be used: ${what}; check CAFile, CertFile, KeyFile and KeyPassphrase`;
  return undefined;
}

/** OpenSSL's "80FC...:error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required:file:line:..." → its reason. */
function opensslReason(message: string): string {
  return (/:(?:SSL|[A-Za-z0-9 ]+) routines:[^:]*:([^:]+)/.exec(message)?.[1] ?? message).replace(/[\s:]+$/, '').trim();
}

/** True when the error is a TLS failure that retrying cannot cure. */
export function isTlsConfigFailure(error: unknown): boolean {
  return describeTlsFailure(error) !== undefined;
}
