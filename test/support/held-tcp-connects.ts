/**
 * Holds the TCP connects of actors/stream/tcp-connect.ts (StreamReceiver, StreamPersister) until `release()`, then
 * lets each go through to its peer: a connect that completes only after its component was stopped or renewed.
 * `restore()` puts the real connect back.
 */
import type net from 'node:net';
import * as tcpConnect from '../../actors/stream/tcp-connect';

export interface HeldTcpConnects {
  /** Connects started so far. */
  readonly started: number;
  release(): void;
  restore(): void;
}

export function holdTcpConnects(): HeldTcpConnects {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const connect = tcpConnect.connectTcp;
  const spy = jest.spyOn(tcpConnect, 'connectTcp').mockImplementation(async (target: tcpConnect.TcpTarget, socket?: net.Socket) => {
    await released;
    return socket === undefined ? connect(target) : connect(target, socket);
  });
  return {
    get started() {
      return spy.mock.calls.length;
    },
    release,
    restore: () => spy.mockRestore(),
  };
}
