/** The admin endpoint's guard (src/admin/admin-auth.ts): where the token comes from, how it is compared, what a refusal says. */
// The module object itself (not an import's namespace copy), so that a spy sees the calls admin-auth.ts makes.
import nodeCrypto = require('node:crypto');
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  AdminTokenError,
  adminGuard,
  isLoopbackHost,
  presentedToken,
  readAdminToken,
  tokenMatches,
  UnprotectedAdminError,
} from '../../../src/admin/admin-auth';
import { redactText } from '../../../src/logging/redact';

const TOKEN = 'tok-3f9a7c1e5b2d4a6f8e0c';

/** A request with this Authorization header, and a response that records what the guard wrote. */
function exchange(authorization?: string) {
  const req = { headers: authorization === undefined ? {} : { authorization } } as IncomingMessage;
  const written: { code?: number; headers?: Record<string, unknown>; body?: string } = {};
  const res = {
    writeHead(code: number, headers: Record<string, unknown>) {
      written.code = code;
      written.headers = headers;
      return this;
    },
    end(body: string) {
      written.body = body;
    },
  } as unknown as ServerResponse;
  return { req, res, written };
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('readAdminToken', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'xroute-token-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads XROUTE_ADMIN_TOKEN', () => {
    expect(readAdminToken(undefined, { XROUTE_ADMIN_TOKEN: TOKEN })).toBe(TOKEN);
  });

  it('reads the file of --admin-token-file without its trailing newline, before XROUTE_ADMIN_TOKEN', () => {
    const file = path.join(dir, 'token');
    writeFileSync(file, 'file-token-0123456789abcdef\n');
    expect(readAdminToken(file, { XROUTE_ADMIN_TOKEN: TOKEN })).toBe('file-token-0123456789abcdef');
  });

  it('gives no token when neither is set', () => {
    expect(readAdminToken(undefined, { XROUTE_ADMIN_TOKEN: '' })).toBeUndefined();
  });

  it('names the file it cannot read', () => {
    const missing = path.join(dir, 'missing');
    expect(() => readAdminToken(missing, {})).toThrow(new AdminTokenError(`--admin-token-file ${missing}`, 'no such file'));
  });

  it('refuses a token short enough to guess, without quoting it', () => {
    expect(() => readAdminToken(undefined, { XROUTE_ADMIN_TOKEN: 'short-secret' })).toThrow(
      'admin token from XROUTE_ADMIN_TOKEN: expected at least 16 characters, got 12 (e.g. openssl rand -hex 32)',
    );
  });

  it('refuses a token with spaces, which cannot travel in a header', () => {
    expect(() => readAdminToken(undefined, { XROUTE_ADMIN_TOKEN: 'two words of a long token' })).toThrow('expected one line of visible ASCII characters');
  });

  it('remembers the token as a secret, so that every log line and answer masks it', () => {
    const token = 'masked-token-5e8d2c7a9b1f';
    readAdminToken(undefined, { XROUTE_ADMIN_TOKEN: token });
    expect(redactText(`Authorization: Bearer ${token} refused`)).toBe('Authorization: Bearer *** refused');
  });
});

describe('tokenMatches', () => {
  it('accepts the token and refuses any other, longer or shorter', () => {
    expect([tokenMatches(TOKEN, TOKEN), tokenMatches(TOKEN, TOKEN + 'x'), tokenMatches(TOKEN, TOKEN.slice(0, -1)), tokenMatches(TOKEN, '')]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  it('compares two SHA-256 digests with crypto.timingSafeEqual, whatever length is presented', () => {
    const spy = jest.spyOn(nodeCrypto, 'timingSafeEqual');
    try {
      tokenMatches(TOKEN, 'x');
      expect(spy.mock.calls.map(([a, b]) => [(a as Buffer).length, (b as Buffer).length])).toEqual([[32, 32]]);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('presentedToken', () => {
  it('reads a Bearer token and the password of Basic credentials', () => {
    expect([presentedToken(`Bearer ${TOKEN}`), presentedToken(basic('ops', TOKEN)), presentedToken('Digest abc'), presentedToken(undefined)]).toEqual([
      TOKEN,
      TOKEN,
      undefined,
      undefined,
    ]);
  });
});

describe('isLoopbackHost', () => {
  it('knows 127.0.0.0/8, ::1 and localhost from the addresses other hosts reach', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '0.0.0.0', '::', '10.0.0.5', 'example.com'].map(isLoopbackHost)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('adminGuard', () => {
  it('refuses to protect an address other hosts can reach without a token, naming --admin and where a token comes from', () => {
    expect(() => adminGuard('0.0.0.0', undefined)).toThrow(UnprotectedAdminError);
    expect(() => adminGuard('0.0.0.0', undefined)).toThrow(
      'refusing to serve the admin endpoint on 0.0.0.0 (--admin), which other hosts can reach, without an admin token: set XROUTE_ADMIN_TOKEN or --admin-token-file FILE',
    );
  });

  it('lets a read through on loopback without a token', () => {
    const { req, res, written } = exchange();
    expect([adminGuard('127.0.0.1', undefined).authorize(req, res, 'read'), written.code]).toEqual([true, undefined]);
  });

  it('answers 401 with a JSON error to a change on loopback when no token is configured: the control plane fails closed', () => {
    const { req, res, written } = exchange(`Bearer ${TOKEN}`);
    expect(adminGuard('127.0.0.1', undefined).authorize(req, res, 'change')).toBe(false);
    expect([written.code, JSON.parse(written.body!)]).toEqual([
      401,
      { error: expect.stringContaining('none is configured: start xroute run with XROUTE_ADMIN_TOKEN or --admin-token-file FILE') },
    ]);
  });

  it('answers 401 to a change without the token, asking for a Bearer token', () => {
    const { req, res, written } = exchange();
    expect([adminGuard('127.0.0.1', TOKEN).authorize(req, res, 'change'), written.code, written.headers?.['www-authenticate']]).toEqual([
      false,
      401,
      ['Bearer realm="xroute admin"'],
    ]);
  });

  it('answers 401 to a wrong token without quoting what was sent', () => {
    const { req, res, written } = exchange('Bearer wrong-token-0000000000');
    expect([adminGuard('127.0.0.1', TOKEN).authorize(req, res, 'change'), written.body]).toEqual([
      false,
      JSON.stringify({ error: 'the admin token sent does not match' }) + '\n',
    ]);
  });

  it('lets a change through with the token, as Bearer or as the password of Basic', () => {
    const guard = adminGuard('127.0.0.1', TOKEN);
    const bearer = exchange(`Bearer ${TOKEN}`);
    const viaBasic = exchange(basic('anyone', TOKEN));
    expect([guard.authorize(bearer.req, bearer.res, 'change'), guard.authorize(viaBasic.req, viaBasic.res, 'change')]).toEqual([true, true]);
  });

  it('asks for the token on a read away from loopback, offering Basic so that a browser can open the status page', () => {
    const { req, res, written } = exchange();
    expect([adminGuard('0.0.0.0', TOKEN).authorize(req, res, 'read'), written.code, written.headers?.['www-authenticate']]).toEqual([
      false,
      401,
      ['Bearer realm="xroute admin"', 'Basic realm="xroute admin", charset="UTF-8"'],
    ]);
  });
});
