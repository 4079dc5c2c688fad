/**
 * The TLS properties of an amqps:// component (AMQP 0-9-1 and AMQP 1.0 alike): CAFile, CertFile, KeyFile
 * (PEM files, relative to the configuration's directory), KeyPassphrase, RejectUnauthorized (default true),
 * ServerName. The files are read and tried when the configuration is read, so that a wrong path, a key that
 * does not fit its certificate or a wrong passphrase is a configuration error naming the property (found by
 * `xroute validate`), not a failure at the first connection. The passphrase never appears in a message.
 */
import { readFileSync } from 'fs';
import { resolve } from 'path';
import { createPrivateKey } from 'crypto';
import { createSecureContext } from 'tls';
import { TlsSettings } from '../../src/transports/tls';
import { secretStr } from '../../src/foundation/secret-properties';
import { ComponentConfigError, ConfigReader } from './config-values';

const TLS_PROPERTIES = ['CAFile', 'CertFile', 'KeyFile', 'KeyPassphrase', 'RejectUnauthorized', 'ServerName'] as const;

/** Schema of a "true"/"false" string (any case). */
export const BOOLEAN_STRING = Object.freeze({ type: 'string', pattern: '^\\s*([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])\\s*$' });

export function tlsSchemaProperties(): Record<string, unknown> {
  const str = (description: string) => ({ type: 'string', description });
  return {
    CAFile: str("amqps: PEM file of the CA(s) to trust (relative to the configuration's directory); default the system CAs"),
    CertFile: str('amqps: PEM client certificate, for brokers that ask for one (with KeyFile)'),
    KeyFile: str('amqps: PEM key of CertFile'),
    KeyPassphrase: secretStr('amqps: passphrase of an encrypted KeyFile'),
    RejectUnauthorized: { ...BOOLEAN_STRING, description: 'amqps: verify the broker certificate (default true; false only for tests)' },
    ServerName: str('amqps: TLS server name (SNI and certificate check); default the host name'),
  };
}

/** The TLS properties present in a configuration (to report them as ineffective on a plain amqp:// URI). */
export function configuredTlsProperties(reader: ConfigReader): string[] {
  return TLS_PROPERTIES.filter((k) => reader.has(k));
}

export function readTlsSettings(reader: ConfigReader, baseDir: string): TlsSettings {
  const c = reader.component;
  const file = (prop: string): { path: string; pem: Buffer } | undefined => {
    const p = reader.string(prop)?.trim();
    if (p === undefined || p === '') return undefined;
    try {
      return { path: p, pem: readFileSync(resolve(baseDir, p)) };
    } catch (e) {
      throw new ComponentConfigError(c, prop, p, `a readable PEM file (${(e as Error).message})`, e);
    }
  };
  const ca = file('CAFile');
  const cert = file('CertFile');
  const key = file('KeyFile');
  const passphrase = reader.string('KeyPassphrase');
  if (ca && !ca.pem.toString('latin1').includes('-----BEGIN CERTIFICATE-----'))
    throw new ComponentConfigError(c, 'CAFile', ca.path, 'a PEM file with at least one CERTIFICATE');
  if (cert && !key) throw new ComponentConfigError(c, 'KeyFile', undefined, `the key of CertFile ${JSON.stringify(cert.path)}`);
  if (key && !cert) throw new ComponentConfigError(c, 'CertFile', undefined, `the certificate of KeyFile ${JSON.stringify(key.path)}`);
  if (cert && key) checkKeyPair(c, cert, key, passphrase);
  return {
    ca: ca?.pem,
    cert: cert?.pem,
    key: key?.pem,
    passphrase,
    servername: reader.string('ServerName')?.trim() || undefined,
    rejectUnauthorized: reader.bool('RejectUnauthorized', true),
  };
}

/** The PEM headers of an encrypted key: PKCS#8 ("ENCRYPTED PRIVATE KEY") and the traditional form ("Proc-Type: 4,ENCRYPTED"). */
const ENCRYPTED_KEY_PEM = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,ENCRYPTED/;

/** Loads certificate and key the way the TLS connection will, turning OpenSSL's codes into property errors. */
function checkKeyPair(component: string, cert: { path: string; pem: Buffer }, key: { path: string; pem: Buffer }, passphrase: string | undefined): void {
  checkKeyDecrypts(component, key, passphrase);
  try {
    createSecureContext({ cert: cert.pem, key: key.pem, passphrase });
  } catch (e) {
    const code = String((e as { code?: unknown }).code ?? '');
    if (code === 'ERR_OSSL_BAD_DECRYPT') throw wrongPassphrase(component, key.path, passphrase, e);
    if (code === 'ERR_OSSL_X509_KEY_VALUES_MISMATCH')
      throw new ComponentConfigError(component, 'KeyFile', key.path, `the key of CertFile ${JSON.stringify(cert.path)} (they do not match)`, e);
    if (code === 'ERR_OSSL_PEM_NO_START_LINE') throw new ComponentConfigError(component, 'CertFile', cert.path, 'a PEM certificate', e);
    throw new ComponentConfigError(component, 'KeyFile', key.path, `a PEM private key (${(e as Error).message})`, e);
  }
}

/**
 * An encrypted key must decode with the passphrase given. A wrong passphrase does not always fail as "bad decrypt":
 * when the CBC padding of the wrongly decrypted bytes happens to look valid (about one wrong passphrase in 256), the
 * key fails later as data OpenSSL cannot decode (ERR_OSSL_UNSUPPORTED), which would otherwise read as a bad KeyFile.
 */
function checkKeyDecrypts(component: string, key: { path: string; pem: Buffer }, passphrase: string | undefined): void {
  if (!ENCRYPTED_KEY_PEM.test(key.pem.toString('latin1'))) return;
  try {
    createPrivateKey({ key: key.pem, format: 'pem', passphrase });
  } catch (e) {
    throw wrongPassphrase(component, key.path, passphrase, e);
  }
}

function wrongPassphrase(component: string, keyPath: string, passphrase: string | undefined, cause: unknown): ComponentConfigError {
  // Never the passphrase itself: only whether one was given.
  return new ComponentConfigError(
    component,
    'KeyPassphrase',
    passphrase === undefined ? undefined : '***',
    `the passphrase that decrypts KeyFile ${JSON.stringify(keyPath)}`,
    cause,
  );
}
