/** Opens a TCP connection with a connect timeout (SOTimeout) and optional keep-alive. */
import { XrouteError } from '../../src/foundation/xroute-error';
import net from 'node:net';

class ConnectTimeoutError extends XrouteError {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly timeoutMs: number,
  ) {
    super(`connect to ${host}:${port} timed out after ${timeoutMs} ms`);
    this.name = 'ConnectTimeoutError';
  }
}

export interface TcpTarget {
  host: string;
  port: number;
  /** Connect timeout (the original's SOTimeout, converted to ms). */
  timeoutMs: number;
  keepAlive: boolean;
}

/** Connects a new socket to `target`, or `socket` when given (a SharedReadSocket, say); resolves with it once connected. */
export function connectTcp(target: TcpTarget): Promise<net.Socket>;
export function connectTcp<S extends net.Socket>(target: TcpTarget, socket: S): Promise<S>;
export function connectTcp(target: TcpTarget, socket: net.Socket = new net.Socket()): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    socket.connect({ host: target.host, port: target.port });
    socket.setNoDelay(true);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new ConnectTimeoutError(target.host, target.port, target.timeoutMs));
    }, target.timeoutMs);
    const onError = (err: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', onError);
      if (target.keepAlive) socket.setKeepAlive(true);
      resolve(socket);
    });
  });
}
