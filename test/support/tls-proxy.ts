/**
 * TLS for the integration suites without touching the shared RabbitMQ (which listens only on plain 5672):
 * certificates made for the test with the `openssl` command line (a throw-away CA, a server certificate for
 * "localhost" and a client certificate with a passphrase-protected key), and an in-process TLS-terminating
 * proxy that pipes every accepted TLS connection to the broker's plain port. AMQP 0-9-1 and AMQP 1.0 share
 * that port on RabbitMQ, so one proxy serves both suites.
 */
import { execFileSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import * as net from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import * as tls from 'tls';
import { RelayHub } from './tcp-proxy';

export interface TestCertificates {
  /** The temporary directory holding every file (removed by cleanup()). */
  readonly dir: string;
  /** PEM of the test CA: what a client's CAFile must name to trust the server. */
  readonly caFile: string;
  readonly serverCertFile: string;
  readonly serverKeyFile: string;
  /** Client certificate signed by the test CA (for brokers/proxies that ask for one). */
  readonly clientCertFile: string;
  /** The client key, encrypted with `clientKeyPassphrase`. */
  readonly clientKeyFile: string;
  readonly clientKeyPassphrase: string;
  cleanup(): void;
}

export interface CertificateOptions {
  /** subjectAltName entries of the server certificate; default only DNS:localhost (so 127.0.0.1 does not match). */
  readonly serverAltNames?: readonly string[];
}

/** Runs openssl; a missing binary or a failing command is an error naming the command. */
function openssl(dir: string, args: string[]): void {
  try {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    const err = e as { code?: string; stderr?: Buffer; message: string };
    if (err.code === 'ENOENT') throw new Error('the openssl command line is needed to generate the test certificates and is not installed');
    throw new Error(`openssl ${args[0]} failed: ${err.stderr?.toString().trim() || err.message}`);
  }
}

/** Creates a CA, a server certificate ("localhost") and a client certificate in a new temporary directory. */
export function generateCertificates(options: CertificateOptions = {}): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'xroute-tls-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'];
  const passphrase = 'xroute-test-passphrase';
  try {
    openssl(dir, [
      'req',
      '-x509',
      ...ec,
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=xroute test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);

    const altNames = (options.serverAltNames ?? ['DNS:localhost']).join(',');
    writeFileSync(
      join(dir, 'server.ext'),
      `subjectAltName=${altNames}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n`,
    );
    openssl(dir, ['req', ...ec, '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-set_serial',
      '0x1001',
      '-days',
      '2',
      '-extfile',
      'server.ext',
      '-out',
      'server.pem',
    ]);

    writeFileSync(join(dir, 'client.ext'), 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n');
    openssl(dir, [
      'genpkey',
      '-algorithm',
      'EC',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-aes-256-cbc',
      '-pass',
      `pass:${passphrase}`,
      '-out',
      'client.key',
    ]);
    openssl(dir, ['req', '-new', '-key', 'client.key', '-passin', `pass:${passphrase}`, '-subj', '/CN=xroute-client', '-out', 'client.csr']);
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      'client.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-set_serial',
      '0x1002',
      '-days',
      '2',
      '-extfile',
      'client.ext',
      '-out',
      'client.pem',
    ]);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    serverCertFile: join(dir, 'server.pem'),
    serverKeyFile: join(dir, 'server.key'),
    clientCertFile: join(dir, 'client.pem'),
    clientKeyFile: join(dir, 'client.key'),
    clientKeyPassphrase: passphrase,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface TlsProxyOptions {
  /** Where decrypted connections go; default the test broker 127.0.0.1:5672. */
  readonly target?: { host: string; port: number };
  /** Ask for a client certificate signed by the test CA and refuse connections without one. */
  readonly requireClientCertificate?: boolean;
}

/** A TLS server on 127.0.0.1 (a free port) piping each accepted connection to the plain broker port. */
export class TlsProxy {
  /** TLS handshakes that failed (the client did not trust us, or had no acceptable certificate). */
  readonly handshakeFailures: string[] = [];
  /** Connections that completed the handshake and were piped to the broker. */
  accepted = 0;
  /**
   * TCP connections accepted (before any handshake). Counted before the proxy sends its certificate, so a
   * client that has rejected the certificate is already counted; handshakeFailures may lag behind.
   */
  connections = 0;

  private constructor(
    private readonly server: tls.Server,
    private readonly hub: RelayHub,
    readonly port: number,
  ) {}

  static async start(certs: TestCertificates, options: TlsProxyOptions = {}): Promise<TlsProxy> {
    const target = options.target ?? { host: '127.0.0.1', port: 5672 };
    const server = tls.createServer({
      cert: readFileSync(certs.serverCertFile),
      key: readFileSync(certs.serverKeyFile),
      ...(options.requireClientCertificate ? { ca: readFileSync(certs.caFile), requestCert: true, rejectUnauthorized: true } : {}),
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const hub = new RelayHub(target);
    const proxy = new TlsProxy(server, hub, (server.address() as net.AddressInfo).port);
    server.on('connection', (raw: net.Socket) => {
      proxy.connections++;
      hub.track(raw);
    });
    server.on('tlsClientError', (err: Error) => proxy.handshakeFailures.push(err.message));
    server.on('secureConnection', (client: tls.TLSSocket) => {
      proxy.accepted++;
      hub.relay(client);
    });
    return proxy;
  }

  /** Stops listening and cuts every open connection (both sides). */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.hub.destroyAll();
    await closed;
  }
}
