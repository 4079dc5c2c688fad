import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Flow } from '../../../src/runtime/flow';
import { startAdminServer, parseAdminAddress, AdminServer } from '../../../src/admin/admin-server';
import { statusCommand, adminBaseUrl, statusExitCode, watchOptions } from '../../../src/cli/status-command';
import type { FlowStatus } from '../../../src/runtime/flow';
import { readRunOperations } from '../../../src/cli/run-operations';
import { startFlakyFlow, Switch } from '../runtime/flaky-component';
import { waitFor } from '../../support/wait';
import { captureIo } from '../../support/captured-io';

describe('xroute status', () => {
  const sw: Switch = { broken: false, starts: 0 };
  let flow: Flow;
  let admin: AdminServer;
  beforeAll(async () => {
    flow = startFlakyFlow(sw);
    admin = await startAdminServer(flow, parseAdminAddress(':0'));
  });
  afterAll(async () => {
    await admin.close();
    await flow.stop();
  });

  it('prints a table of components and links and exits 1 when reachable but not ready', async () => {
    const { io, ...chunks } = captureIo();
    const code = await statusCommand({ admin: admin.url, json: false }, io, {});
    expect(code).toBe(1);
    expect(chunks.out()).toMatch(/^flow flaky: NOT READY/);
    expect(chunks.out()).toMatch(/COMPONENT\s+CLASS\s+STATE\s+RESTARTS\s+IN\s+DONE\s+FAILED/);
    expect(chunks.out()).toMatch(/pstr\s+persister\.FlakyPersister\s+RUNNING\s+0\s+0\s+0\s+0/);
    expect(chunks.out()).toMatch(/root\s+running\s+rcvr -> pstr\s+0\/8/);
  });

  it('lists the deliveries a receiver holds unsettled, with the age of the oldest', async () => {
    const status = flow.component('rcvr')!.status;
    status.reportUnsettled(() => ({ deliveries: 2, oldestAgeSeconds: 125.04 }));
    const { io, ...chunks } = captureIo();
    await statusCommand({ admin: admin.url, json: false }, io, {});
    status.reportUnsettled(() => ({ deliveries: 0, oldestAgeSeconds: 0 }));
    expect(chunks.out()).toContain('deliveries held unsettled until downstream is done:\n  rcvr: 2, oldest 125.0 s');
  });

  it('exits 0 when every component is ready', async () => {
    flow.component('rcvr')!.status.set('RUNNING');
    const { io } = captureIo();
    expect(await statusCommand({ admin: admin.url, json: false }, io, {})).toBe(0);
  });

  it('prints /status as is with --json, reading XROUTE_ADMIN when no --admin is given', async () => {
    const { io, ...chunks } = captureIo();
    await statusCommand({ json: true }, io, { XROUTE_ADMIN: admin.url.replace('http://', '') });
    expect(JSON.parse(chunks.out()).name).toBe('flaky');
  });

  it('exits 2 when the admin endpoint cannot be reached', async () => {
    const closed = await startAdminServer(flow, parseAdminAddress(':0'));
    await closed.close();
    const { io, ...chunks } = captureIo();
    expect(await statusCommand({ admin: closed.url, json: false }, io, {})).toBe(2);
    expect(chunks.err()).toContain(`cannot read ${closed.url}/status: ECONNREFUSED`);
  });

  it('prints the status again with --watch, --count times', async () => {
    const { io, ...chunks } = captureIo();
    await statusCommand({ admin: admin.url, json: false, watch: { intervalMs: 10, count: 2 } }, io, {});
    expect(chunks.out().match(/^flow flaky:/gm)?.length).toBe(2);
  });

  it('prints one JSON line per refresh after the first with --watch --json', async () => {
    const { io, ...chunks } = captureIo();
    await statusCommand({ admin: admin.url, json: true, watch: { intervalMs: 10, count: 3 } }, io, {});
    expect(
      chunks
        .out()
        .trimEnd()
        .split('\n')
        .slice(-2)
        .map((l) => JSON.parse(l).name),
    ).toEqual(['flaky', 'flaky']);
  });

  it('shows the in-flight, rate, last message and next retry columns and the stuck links', async () => {
    const { io, ...chunks } = captureIo();
    await statusCommand({ admin: admin.url, json: false }, io, {});
    expect(chunks.out()).toMatch(/INFLIGHT\s+IN\/S\s+OUT\/S\s+LAST MSG\s+NEXT RETRY/);
    expect(chunks.out()).toMatch(/LINK\s+STATE\s+FROM -> TO\s+DEPTH\/CAPACITY\s+IN\/S\s+OUT\/S\s+OLDEST\s+STUCK/);
  });

  it('exits 4 when the flow is ready but a link is stuck (degraded), 1 when not ready, 0 when ready', () => {
    const s = (ready: boolean, degraded: boolean) => ({ ready, degraded }) as FlowStatus;
    expect([statusExitCode(s(true, true)), statusExitCode(s(false, false)), statusExitCode(s(true, false))]).toEqual([4, 1, 0]);
  });

  it('refuses a --watch interval or count it cannot use, naming the option', () => {
    expect([watchOptions('0', undefined), watchOptions('1', '0'), watchOptions(undefined, '3')]).toEqual([
      '--interval 0: expected a number of seconds above 0, e.g. 2',
      '--count 0: expected a whole number of prints, 1 or more',
      { intervalMs: 2000, count: 3 },
    ]);
  });

  it('accepts HOST:PORT, :PORT and URLs', () => {
    expect([adminBaseUrl('127.0.0.1:9090'), adminBaseUrl(':9090'), adminBaseUrl('http://h:1/')]).toEqual([
      'http://127.0.0.1:9090',
      'http://127.0.0.1:9090',
      'http://h:1',
    ]);
  });
});

describe('xroute run operational options', () => {
  it('reads --admin before XROUTE_ADMIN, and a bare port binds 127.0.0.1', () => {
    expect(readRunOperations({ admin: '9999' }, { XROUTE_ADMIN: '0.0.0.0:1' })).toEqual({ admin: { host: '127.0.0.1', port: 9999 } });
    expect(readRunOperations({}, { XROUTE_ADMIN: '0.0.0.0:1', XROUTE_ADMIN_TOKEN: 'ops-token-0123456789ab' })).toEqual({
      admin: { host: '0.0.0.0', port: 1 },
      adminSecurity: { token: 'ops-token-0123456789ab' },
    });
    expect(readRunOperations({}, {})).toEqual({});
  });

  it('reads the token from --admin-token-file, and names a file it cannot read', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'xroute-ops-'));
    try {
      const file = path.join(dir, 'token');
      writeFileSync(file, 'file-token-0123456789abcdef\n');
      expect(readRunOperations({ admin: '0.0.0.0:1', 'admin-token-file': file }, {}).adminSecurity).toEqual({ token: 'file-token-0123456789abcdef' });
      expect(() => readRunOperations({ admin: '9999', 'admin-token-file': path.join(dir, 'missing') }, {})).toThrow(
        `admin token from --admin-token-file ${path.join(dir, 'missing')}: no such file`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes --admin-tls-cert and --admin-tls-key together, each a PEM file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'xroute-ops-'));
    try {
      const pem = path.join(dir, 'cert.pem');
      const notPem = path.join(dir, 'cert.txt');
      writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
      writeFileSync(notPem, 'hello');
      expect(() => readRunOperations({ admin: '9999', 'admin-tls-cert': pem }, {})).toThrow(
        '--admin-tls-key "": expected a PEM FILE; --admin-tls-cert and --admin-tls-key go together',
      );
      expect(() => readRunOperations({ admin: '9999', 'admin-tls-cert': notPem, 'admin-tls-key': pem }, {})).toThrow(
        `--admin-tls-cert ${JSON.stringify(notPem)}: expected a PEM file (-----BEGIN ...)`,
      );
      expect(readRunOperations({ admin: '9999', 'admin-tls-cert': pem, 'admin-tls-key': pem }, {}).adminSecurity?.tls?.cert.toString()).toContain(
        'BEGIN CERTIFICATE',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an admin address other hosts can reach without a token, naming where the address came from', () => {
    expect(() => readRunOperations({}, { XROUTE_ADMIN: '0.0.0.0:1' })).toThrow(
      'refusing to serve the admin endpoint on 0.0.0.0 (XROUTE_ADMIN), which other hosts can reach, without an admin token',
    );
  });

  it('names the option and what was expected for a bad value', () => {
    expect(() => readRunOperations({ admin: 'localhost:http' }, {})).toThrow(
      '--admin "localhost:http": expected HOST:PORT, e.g. 127.0.0.1:9090 (port 0-65535)',
    );
    expect(() => readRunOperations({}, { XROUTE_ADMIN: 'x:99999' })).toThrow('XROUTE_ADMIN "x:99999": expected HOST:PORT');
    expect(() => readRunOperations({ 'stats-interval': '0' }, {})).toThrow('--stats-interval "0": expected a number of seconds > 0');
  });

  // Real timers on purpose: under jest's fake timers a flow's actors get fake immediates, and stopping them calls
  // Node's real clearImmediate on those, which corrupts Node's count of pending immediates for the whole worker
  // process (every later test file there then ran its setImmediate callbacks only when a timer woke the loop).
  it('logs the per-component totals every --stats-interval', async () => {
    const { startRunOperations } = await import('../../../src/cli/run-operations');
    const sw: Switch = { broken: false, starts: 0 };
    const lines: string[] = [];
    const flow = startFlakyFlow(sw);
    const spy = jest.spyOn(flow, 'logTotals').mockImplementation((m?: string) => void lines.push(m ?? ''));
    const ops = await startRunOperations(flow, { statsIntervalSeconds: 0.02 }, flow.runtime.logger);
    try {
      await waitFor(
        () => lines.length >= 3,
        () => `three periodic totals, got ${lines.length}`,
      );
      expect(lines.slice(0, 3)).toEqual(['component totals (periodic)', 'component totals (periodic)', 'component totals (periodic)']);
    } finally {
      await ops.close();
      spy.mockRestore();
      await flow.stop();
    }
  });
});
