/**
 * An in-process TCP proxy for the tests, which can cut the path silently: a network partition without FIN or
 * RST. `cut()` keeps every socket open and drops the bytes of the connections open at that moment, both ways;
 * a connection accepted during the cut is held (what the client sends is kept) as a SYN would wait in a real
 * partition. `resume()` ends the cut: the connections that lost bytes are dropped (as their peers would find
 * out on the first retransmission once the path is back) and the held ones are connected to the target with
 * what they sent. The TLS proxy (tls-proxy.ts) relays its decrypted connections with the same relay.
 */
import * as net from 'net';

export interface ProxyTarget {
  readonly host: string;
  readonly port: number;
}

/** One relayed connection: `severed` once a cut dropped its bytes. */
interface Relayed {
  severed: boolean;
  end(): void;
}

/** The sockets of a proxy and its cut state, shared by every connection it relays. */
export class RelayHub {
  private readonly sockets = new Set<net.Socket>();
  private readonly live = new Set<Relayed>();
  /** Connections accepted during the cut, connected to the target on resume. */
  private readonly held: (() => void)[] = [];
  private cutAt: number | undefined;
  /** Connections relayed to the target (held ones counted when they are connected). */
  relayed = 0;
  /** Bytes dropped by cuts, and bytes kept from connections held during a cut. */
  droppedBytes = 0;
  heldBytes = 0;

  constructor(private readonly target: ProxyTarget) {}

  get isCut(): boolean {
    return this.cutAt !== undefined;
  }

  /** Relayed connections neither end has closed yet. */
  get open(): number {
    return this.live.size;
  }

  track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  /** Relays `client` to the target (at once, or on resume when the path is cut). */
  relay(client: net.Socket): void {
    this.track(client);
    client.on('error', () => client.destroy());
    if (!this.isCut) {
      this.connect(client, []);
      return;
    }
    const early: Buffer[] = [];
    const keep = (chunk: Buffer) => {
      this.heldBytes += chunk.length;
      early.push(chunk);
    };
    client.on('data', keep);
    this.held.push(() => {
      client.removeListener('data', keep);
      if (!client.destroyed) this.connect(client, early);
    });
  }

  /** Cuts the path: every open connection loses its bytes from now on. Returns when (epoch ms). */
  cut(): number {
    if (this.cutAt === undefined) this.cutAt = Date.now();
    for (const r of this.live) r.severed = true;
    return this.cutAt;
  }

  /** Ends the cut; returns how long it lasted (ms). */
  resume(): number {
    const lasted = this.cutAt === undefined ? 0 : Date.now() - this.cutAt;
    this.cutAt = undefined;
    for (const r of [...this.live]) if (r.severed) r.end();
    for (const connect of this.held.splice(0)) connect();
    return lasted;
  }

  destroyAll(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    this.held.length = 0;
    this.live.clear();
  }

  private connect(client: net.Socket, early: Buffer[]): void {
    this.relayed++;
    const upstream = net.connect(this.target.port, this.target.host);
    this.track(upstream);
    for (const chunk of early) upstream.write(chunk);
    const r: Relayed = {
      severed: false,
      end: () => {
        this.live.delete(r);
        client.destroy();
        upstream.destroy();
      },
    };
    this.live.add(r);
    upstream.on('error', r.end);
    client.on('close', r.end);
    upstream.on('close', r.end);
    const forward = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (r.severed) {
          this.droppedBytes += chunk.length; // the path is cut
          return;
        }
        if (!to.write(chunk)) {
          from.pause();
          to.once('drain', () => from.resume());
        }
      });
    forward(client, upstream);
    forward(upstream, client);
  }
}

/** A plain TCP proxy on 127.0.0.1 (a free port) in front of `target`. */
export class TcpProxy {
  private constructor(
    private readonly server: net.Server,
    private readonly hub: RelayHub,
    readonly port: number,
  ) {}

  static async start(target: ProxyTarget): Promise<TcpProxy> {
    const hub = new RelayHub(target);
    const server = net.createServer((client) => hub.relay(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return new TcpProxy(server, hub, (server.address() as net.AddressInfo).port);
  }

  /** Connections relayed to the target so far. */
  get relayed(): number {
    return this.hub.relayed;
  }

  /** Relayed connections neither end has closed yet. */
  get open(): number {
    return this.hub.open;
  }

  /** Bytes dropped by cuts so far. */
  get droppedBytes(): number {
    return this.hub.droppedBytes;
  }

  /** Bytes kept from connections held during a cut so far. */
  get heldBytes(): number {
    return this.hub.heldBytes;
  }

  /** Cuts the path silently (see the module comment); returns when (epoch ms). */
  cut(): number {
    return this.hub.cut();
  }

  /** Ends the cut; returns its length in ms. */
  resume(): number {
    return this.hub.resume();
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.hub.destroyAll();
    await closed;
  }
}
