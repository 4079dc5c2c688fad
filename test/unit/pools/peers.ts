/** Real peers for the pooled implementations' tests: a line-echo TCP server and an HTTP file server on loopback. */
import http from 'node:http';
import net from 'node:net';

export interface TcpPeer {
  port: number;
  uri: string;
  /** Lines received, in order, over all connections. */
  received: string[];
  connections: number;
  /** Open sockets (to send data from the server side or drop them). */
  sockets: Set<net.Socket>;
  close(): Promise<void>;
}

/**
 * Starts a TCP server on 127.0.0.1. `onLine` decides the reply to each newline-terminated line
 * (undefined = no reply); the default echoes "echo:<line>".
 */
export async function startTcpPeer(
  onLine: (line: string, socket: net.Socket) => string | undefined = (l) => `echo:${l}\n`,
  onConnect?: (s: net.Socket) => void,
): Promise<TcpPeer> {
  const sockets = new Set<net.Socket>();
  const peer: TcpPeer = { port: 0, uri: '', received: [], connections: 0, sockets, close: async () => undefined };
  const server = net.createServer((socket) => {
    peer.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buf = '';
    socket.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        peer.received.push(line);
        const reply = onLine(line, socket);
        if (reply !== undefined) socket.write(reply);
      }
    });
    onConnect?.(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.port = (server.address() as net.AddressInfo).port;
  peer.uri = `tcp://127.0.0.1:${peer.port}`;
  peer.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return peer;
}

export interface HttpPeer {
  base: string;
  requests: { method: string; url: string; body: string }[];
  close(): Promise<void>;
}

/** An HTTP server on loopback serving `files` by path; POST echoes "stored:<body>"; /fail-500 answers 500. */
export async function startHttpPeer(files: Record<string, string>): Promise<HttpPeer> {
  const requests: HttpPeer['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', body });
      if (req.method === 'POST') {
        res.writeHead(200).end(`stored:${body}`);
      } else if (req.url !== undefined && files[req.url] !== undefined) {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(files[req.url]);
      } else if (req.url === '/fail-500') {
        res.writeHead(500).end('broken');
      } else {
        res.writeHead(404).end('not found');
      }
    });
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
