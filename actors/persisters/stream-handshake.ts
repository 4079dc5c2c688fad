/**
 * StreamPersister's login handshakes (docs/components/stream-and-file.md; behaviour read from the original's
 * persister/StreamPersister.java socketConnect/send/socketClose). After each TCP connect, before any request:
 *
 *  - WithGreeting "true": first read the server's greeting until Pattern matches;
 *  - ConnectionRequest (a list): write each entry followed by "\n" and read the answer until Pattern matches
 *    (Pattern is required); an answer containing any ErrorResponse string fails the login;
 *  - Destination (a string) / DestinationProperty (a map, wins over Destination): write one collectible event
 *    line (event-collectible.ts) with the attributes uri, operation, username, password and the extra
 *    properties, read one line, and require it to be a collectible event of priority NOTICE (anything else
 *    fails the login with the event's text).
 *
 * Every read of the login shares one deadline: SOTimeout from the start of the connect. The peer closing the
 * connection, the deadline, a write error or a refusal reject with HandshakeError; the Reconnector then
 * retries with back-off (status RETRYING with the reason), as the original retried socketConnect.
 * CloseRequest lines are written before the persister closes a connection itself (closeLines below).
 */
import { XrouteError } from '../../src/foundation/xroute-error';
import type { SharedReadSocket } from '../stream/shared-read-socket';
import { formatCollectible, parseCollectible } from './event-text';

export type HandshakeSpec =
  | {
      readonly kind: 'lines';
      readonly greeting: boolean;
      readonly lines: readonly string[];
      readonly pattern: RegExp;
      readonly errorResponses: readonly string[];
    }
  | { readonly kind: 'event'; readonly greeting: boolean; readonly attributes: ReadonlyMap<string, string>; readonly pattern: RegExp };

export class HandshakeError extends XrouteError {
  constructor(
    readonly step: string,
    readonly reason: string,
    cause?: unknown,
  ) {
    super(`login ${step}: ${reason}`, cause === undefined ? undefined : { cause });
    this.name = 'HandshakeError';
  }
}

/** Reads from the socket until `pattern` matches what arrived since the call, or fails. */
function readUntil(socket: SharedReadSocket, pattern: RegExp, deadline: number, step: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const done = (err?: Error) => {
      clearTimeout(timer);
      socket.onBytes = undefined;
      socket.off('end', onEnd);
      socket.off('error', onError);
      if (err) reject(err);
      else resolve(text);
    };
    // The bytes are lent (SharedReadSocket): decoded at once.
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (pattern.test(text)) done();
    };
    const onEnd = () => done(new HandshakeError(step, `the server closed the connection${text ? ` after ${JSON.stringify(text)}` : ''}`));
    const onError = (err: Error) => done(new HandshakeError(step, err.message, err));
    const timer = setTimeout(
      () => done(new HandshakeError(step, `no answer matching Pattern within SOTimeout${text ? ` (got ${JSON.stringify(text)})` : ''}`)),
      Math.max(0, deadline - Date.now()),
    );
    socket.onBytes = onData;
    socket.once('end', onEnd);
    socket.once('error', onError);
  });
}

function write(socket: SharedReadSocket, text: string, step: string): void {
  if (!socket.writable) throw new HandshakeError(step, 'the connection is not writable');
  socket.write(text);
}

/** Runs the login on a fresh connection; resolves when the persister may send requests. */
export async function performHandshake(socket: SharedReadSocket, spec: HandshakeSpec, deadline: number): Promise<void> {
  if (spec.greeting) await readUntil(socket, spec.pattern, deadline, 'greeting');
  if (spec.kind === 'lines') {
    for (const [i, line] of spec.lines.entries()) {
      const step = `ConnectionRequest[${i}]`;
      write(socket, `${line}\n`, step);
      const answer = await readUntil(socket, spec.pattern, deadline, step);
      const error = spec.errorResponses.find((e) => answer.includes(e));
      if (error !== undefined) throw new HandshakeError(step, `the answer contains the ErrorResponse ${JSON.stringify(error)}: ${JSON.stringify(answer)}`);
    }
    return;
  }
  const step = 'Destination';
  write(socket, formatCollectible(spec.attributes), step);
  const answer = await readUntil(socket, spec.pattern, deadline, step);
  const event = parseCollectible(answer);
  if (!event) throw new HandshakeError(step, `the answer is not a collectible event: ${JSON.stringify(answer)}`);
  if (event.priority !== 'NOTICE') throw new HandshakeError(step, `the server refused to open the destination (${event.priority}): ${event.text}`);
}

/** The CloseRequest text written before the persister closes a connection itself, or undefined. */
export function closeText(lines: readonly string[]): string | undefined {
  return lines.length === 0 ? undefined : lines.map((l) => `${l}\n`).join('');
}
