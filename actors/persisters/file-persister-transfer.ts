/**
 * The transfers FilePersister makes, with Node's standard library only: read or write a local file, GET
 * or POST over http(s). Errors are classified: a PermanentTransferError (missing file, HTTP 4xx) fails
 * the message at once; anything else (connection refused, timeout, HTTP 5xx) is worth retrying.
 */
import { XrouteError } from '../../src/foundation/xroute-error';
import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';

export class PermanentTransferError extends XrouteError {
  constructor(
    readonly target: string,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`${target}: ${reason}`, options);
    this.name = 'PermanentTransferError';
  }
}

class HttpStatusError extends XrouteError {
  constructor(
    readonly url: string,
    readonly status: number,
  ) {
    super(`${url}: HTTP ${status}`);
    this.name = 'HttpStatusError';
  }
}

const PERMANENT_FS_CODES = new Set(['ENOENT', 'EISDIR', 'ENOTDIR', 'EACCES', 'EPERM']);

export async function readLocal(file: string): Promise<Buffer> {
  try {
    return await fs.readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code && PERMANENT_FS_CODES.has(code)) throw new PermanentTransferError(file, code, { cause: e });
    throw e;
  }
}

/** Writes `data` to `file`, creating its directories. */
export async function writeLocal(file: string, data: Buffer): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, data);
}

/** A response larger than the configured MaxSize: retrying would fetch the same, so the message fails. */
class TransferTooLargeError extends PermanentTransferError {
  constructor(
    target: string,
    readonly maxBytes: number,
  ) {
    super(target, `the response exceeds MaxSize (${maxBytes} bytes)`);
    this.name = 'TransferTooLargeError';
  }
}

export interface HttpOptions {
  method: 'GET' | 'POST';
  body?: Buffer;
  /** The whole exchange, a server that never stops sending included, ends after this long. */
  timeoutMs: number;
  /** Largest response body accepted. */
  maxBytes: number;
  signal?: AbortSignal;
}

/** One HTTP exchange; resolves with the response body of a 2xx answer. */
export function httpTransfer(url: string, options: HttpOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const lib = url.startsWith('https:') ? https : http;
    const headers: Record<string, string | number> = {};
    if (options.body) headers['content-length'] = options.body.length;
    const req = lib.request(url, { method: options.method, headers, timeout: options.timeoutMs, signal: options.signal }, (res) => {
      const chunks: Buffer[] = [];
      let received = 0;
      res.on('data', (c: Buffer) => {
        received += c.length;
        if (received > options.maxBytes) req.destroy(new TransferTooLargeError(url, options.maxBytes));
        else chunks.push(c);
      });
      res.on('error', reject);
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve(Buffer.concat(chunks));
        else if (status >= 400 && status < 500) reject(new PermanentTransferError(url, `HTTP ${status}`));
        else reject(new HttpStatusError(url, status));
      });
    });
    // The socket timeout only notices silence; this one also ends a transfer that goes on and on.
    const deadline = setTimeout(() => req.destroy(new Error(`${url}: the exchange did not end within ${options.timeoutMs} ms`)), options.timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('timeout', () => req.destroy(new Error(`${url}: no answer within ${options.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(options.body);
  });
}
