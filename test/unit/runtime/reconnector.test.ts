import { DEFAULT_FATAL_RETRY_MS, Reconnector, ReconnectOptions } from '../../../src/runtime/reconnector';
import { ComponentStatus, StatusReporter } from '../../../src/runtime/component';
import { memoryLogger, LogEntry } from '../../../src/logging/logger';
import { waitFor } from './helpers';
import { ClockTimer } from '../../../src/runtime/clock';
import { VirtualClock } from '../../support/virtual-clock';
import { SilentPeerError } from '../../../src/runtime/errors';

class ConnectionRefused extends Error {
  override name = 'ConnectionRefused';
}
class AccessRefused extends Error {
  override name = 'AccessRefused';
}

interface Conn {
  readonly n: number;
}

/** A fake broker: refuses the first `failures` attempts (with `error`), then hands out connections. */
function fakeConnect(failures: number, error: () => Error = () => new ConnectionRefused('ECONNREFUSED')) {
  const calls: number[] = [];
  let opened = 0;
  const connect = async (attempt: number): Promise<Conn> => {
    calls.push(attempt);
    if (calls.length <= failures) throw error();
    return { n: ++opened };
  };
  return { connect, calls, refuseNext: (n: number) => (failures = calls.length + n) };
}

/** A reconnector on a virtual clock: its delays pass when the test runs the clock (clock.runUntil, clock.advance). */
function setup(connect: (attempt: number) => Promise<Conn>, overrides: Partial<ReconnectOptions<Conn>> = {}, clock = new VirtualClock()) {
  const logs: LogEntry[] = [];
  const status = new StatusReporter();
  const statuses: ComponentStatus[] = [];
  status.onChange((s) => {
    if (statuses.at(-1) !== s.status) statuses.push(s.status);
  });
  const connected: Conn[] = [];
  const gaveUp: unknown[] = [];
  const r = new Reconnector<Conn>({
    name: 'rcvr',
    connect,
    backoff: { minMs: 5, maxMs: 40 },
    logger: memoryLogger(logs),
    status,
    onConnected: (c) => connected.push(c),
    discard: () => undefined,
    onGiveUp: (e) => gaveUp.push(e),
    clock,
    ...overrides,
  });
  return { r, logs, status, statuses, connected, gaveUp, clock };
}

const at = (logs: LogEntry[], level: string) => logs.filter((e) => e.level === level).map((e) => e.message);

describe('Reconnector', () => {
  let current: Reconnector<Conn> | undefined;
  afterEach(() => current?.stop());

  it('speaks of a file as a file: "cannot open the file", "file reopened"', async () => {
    const s = setup(fakeConnect(2).connect, { resource: 'file' });
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.connected.length === 1, 'opened');
    expect({ warn: at(s.logs, 'warn'), info: at(s.logs, 'info') }).toEqual({ warn: ['cannot open the file; retrying'], info: ['file reopened'] });
  });

  it('connects on start and reports RUNNING', async () => {
    const broker = fakeConnect(0);
    const s = setup(broker.connect);
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    expect(s.r.connection).toEqual({ n: 1 });
    expect(s.connected).toEqual([{ n: 1 }]);
    expect(s.status.status).toBe('RUNNING');
  });

  it('retries until the broker accepts, passing the attempt number', async () => {
    const broker = fakeConnect(3);
    const s = setup(broker.connect);
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    expect(broker.calls).toEqual([1, 2, 3, 4]);
    expect(s.connected).toHaveLength(1);
  });

  it('goes RETRYING while it cannot connect, then RUNNING', async () => {
    const broker = fakeConnect(3);
    const s = setup(broker.connect);
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    expect(s.statuses).toEqual(['RETRYING', 'RUNNING']);
  });

  it('shows the last error and the next delay in the status detail while retrying', async () => {
    const broker = fakeConnect(100);
    const s = setup(broker.connect);
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => broker.calls.length >= 2, 'two attempts');
    expect(s.status.get().detail).toMatch(/^ECONNREFUSED; attempt \d+ in \d+ ms/);
    expect(s.r.error).toBeInstanceOf(ConnectionRefused);
  });

  it('logs a failing first connection once at warn, then the recovery once at info', async () => {
    const broker = fakeConnect(5);
    const s = setup(broker.connect);
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    expect(at(s.logs, 'warn')).toEqual(['cannot connect; retrying']);
    expect(at(s.logs, 'info')).toEqual(['reconnected']);
    expect(s.logs.find((e) => e.message === 'reconnected')?.meta).toMatchObject({ component: 'rcvr', attempts: 6 });
  });

  it('does not log a first connection that succeeds', async () => {
    const s = setup(fakeConnect(0).connect);
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    expect(s.logs).toEqual([]);
  });

  it('logs each outage once: one warn when the connection is lost, one info when it is back', async () => {
    const broker = fakeConnect(0);
    const s = setup(broker.connect);
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    broker.refuseNext(4);
    s.r.lost(new Error('socket closed'));
    await s.clock.runUntil(() => s.connected.length === 2, 'reconnected');
    expect(at(s.logs, 'warn')).toEqual(['connection lost; reconnecting']);
    expect(at(s.logs, 'info')).toEqual(['reconnected']);
    expect(s.logs.filter((e) => e.level === 'debug')).toHaveLength(4); // the refused attempts only at debug
    expect(s.statuses).toEqual(['RUNNING', 'RETRYING', 'RUNNING']);
  });

  it('dates the outage of a connection declared dead for silence from its last traffic, not from the detection', async () => {
    const broker = fakeConnect(0);
    const s = setup(broker.connect);
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    s.clock.advance(10_000);
    const lastTrafficAt = s.clock.now() - 7_000;
    s.r.lost(new SilentPeerError('amqp://broker:5672', 5_000, 'Heartbeat', lastTrafficAt, 7_000));
    await s.clock.runUntil(() => s.connected.length === 2, 'reconnected');
    expect(s.logs.find((e) => e.message === 'reconnected')?.meta.outageMs).toBe(7_000);
  });

  it('dates the outage of any other loss from the loss itself', async () => {
    const broker = fakeConnect(0);
    const s = setup(broker.connect);
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    s.clock.advance(10_000);
    broker.refuseNext(1);
    s.r.lost(new Error('socket closed'));
    await s.clock.runUntil(() => s.connected.length === 2, 'reconnected');
    const retryDelay = s.logs.find((e) => e.message === 'connect attempt failed')?.meta.nextAttemptMs;
    expect(s.logs.find((e) => e.message === 'reconnected')?.meta.outageMs).toBe(retryDelay);
  });

  it('ignores a loss reported for a connection it no longer uses', async () => {
    const broker = fakeConnect(0);
    const s = setup(broker.connect);
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    s.r.lost(new Error('old socket closed'), { n: 99 });
    expect(s.r.status).toBe('connected');
    expect(s.logs).toEqual([]);
  });

  it('backs off exponentially between attempts up to the maximum', async () => {
    const broker = fakeConnect(6);
    const s = setup(broker.connect, { backoff: { minMs: 5, maxMs: 40, jitter: 0 } });
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    const delays = s.logs.filter((e) => e.meta.nextAttemptMs !== undefined).map((e) => e.meta.nextAttemptMs);
    expect(delays).toEqual([5, 10, 20, 40, 40, 40]);
  });

  it('adds jitter to every reconnect delay by default, within ±20 % and never above the maximum', async () => {
    // A fixed sequence of random draws: with real ones, every delay at the maximum is 40 half the time, so
    // six delays all alike happened now and then and read as "no jitter".
    const draws = [0, 0.25, 0.5, 0.75, 0.999];
    let draw = 0;
    const random = jest.spyOn(Math, 'random').mockImplementation(() => draws[draw++ % draws.length]);
    try {
      await jitteredReconnects();
    } finally {
      random.mockRestore();
    }
  }, 30_000);

  async function jitteredReconnects(): Promise<void> {
    const broker = fakeConnect(8);
    const s = setup(broker.connect, { backoff: { minMs: 10, maxMs: 40 } });
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected', 20_000);
    const delays = s.logs.filter((e) => e.meta.nextAttemptMs !== undefined).map((e) => e.meta.nextAttemptMs as number);
    const nominal = [10, 20, 40, 40, 40, 40, 40, 40];
    delays.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual(nominal[i] * 0.8);
      expect(d).toBeLessThanOrEqual(Math.min(40, nominal[i] * 1.2));
    });
    expect(new Set(delays.slice(2)).size).toBeGreaterThan(1);
  }

  it('makes the first Tolerance attempts of an outage at the minimum delay', async () => {
    const broker = fakeConnect(5);
    const s = setup(broker.connect, { backoff: { minMs: 5, maxMs: 40, jitter: 0 }, tolerance: 2 });
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    const delays = s.logs.filter((e) => e.meta.nextAttemptMs !== undefined).map((e) => e.meta.nextAttemptMs);
    expect(delays).toEqual([5, 5, 5, 10, 20]);
  });

  it('reports a fatal error as FAILED at once and does not retry it on the fast schedule', async () => {
    const broker = fakeConnect(100, () => new AccessRefused('ACCESS_REFUSED'));
    const s = setup(broker.connect, { isFatal: (e) => e instanceof AccessRefused });
    current = s.r;
    s.r.start();
    await waitFor(() => s.r.status === 'failed', 'failed');
    s.clock.advance(DEFAULT_FATAL_RETRY_MS - 1);
    expect(broker.calls).toEqual([1]);
    expect(s.gaveUp).toHaveLength(1);
    expect(s.gaveUp[0]).toBeInstanceOf(AccessRefused);
    expect(s.status.status).toBe('FAILED');
    expect(s.status.get().detail).toMatch(/ACCESS_REFUSED; retrying every 30 s/);
  });

  it('retries a fatal error on the slow schedule, logs it once per change of error, and heals when the broker accepts', async () => {
    let error: () => Error = () => new AccessRefused('ACCESS_REFUSED user x');
    const broker = fakeConnect(6, () => error());
    const s = setup(broker.connect, { isFatal: (e) => e instanceof AccessRefused, fatalRetryMs: 20 });
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => broker.calls.length >= 3, 'three slow attempts');
    error = () => new AccessRefused('ACCESS_REFUSED vhost');
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected after the broker side was fixed');
    expect(broker.calls).toHaveLength(7);
    expect(at(s.logs, 'error')).toEqual([
      'cannot connect: fast retrying cannot cure this; trying again on the slow schedule',
      'cannot connect: fast retrying cannot cure this; trying again on the slow schedule',
    ]);
    expect(s.gaveUp).toHaveLength(1);
    expect(s.status.status).toBe('RUNNING');
    expect(s.status.totals.reconnects).toBe(0);
  });

  it('counts a reconnection after a lost connection in the component totals', async () => {
    const broker = fakeConnect(0);
    const s = setup(broker.connect);
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    s.r.lost(new Error('socket closed'));
    await s.clock.runUntil(() => s.r.status === 'connected', 'reconnected');
    expect(s.status.totals.reconnects).toBe(1);
  });

  it('never gives up on an outage: after MaxRetry attempts it is quiet for quietMs, then starts a new cycle', async () => {
    const broker = fakeConnect(7);
    const s = setup(broker.connect, { maxRetry: 3, quietMs: 60, backoff: { minMs: 1, maxMs: 2 } });
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    const delays = s.logs.filter((e) => e.meta.nextAttemptMs !== undefined).map((e) => e.meta.nextAttemptMs);
    expect(delays).toEqual([1, 2, 60, 1, 2, 60, 1]);
    expect(s.gaveUp).toEqual([]);
  });

  it('logs once at the start of an outage and once per retry cycle', async () => {
    const broker = fakeConnect(7);
    const s = setup(broker.connect, { maxRetry: 3, quietMs: 5, backoff: { minMs: 1, maxMs: 2 } });
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    expect(at(s.logs, 'warn')).toEqual([
      'cannot connect; retrying',
      'still cannot connect; quiet until the next retry cycle',
      'still cannot connect; quiet until the next retry cycle',
    ]);
  });

  it('retries forever when MaxRetry is 0', async () => {
    const broker = fakeConnect(12);
    const s = setup(broker.connect, { maxRetry: 0, backoff: { minMs: 1, maxMs: 2 } });
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    expect(broker.calls).toHaveLength(13);
    expect(s.gaveUp).toEqual([]);
  });

  it('stop() cancels the pending retry: no more attempts and no timer left', async () => {
    const broker = fakeConnect(100);
    const s = setup(broker.connect, { backoff: { minMs: 50, maxMs: 50 } });
    s.r.start();
    await waitFor(() => broker.calls.length === 1 && s.r.status === 'retrying', 'a scheduled retry');
    expect(s.clock.pending).toBe(1);
    s.r.stop();
    expect(s.clock.pending).toBe(0);
    s.clock.advance(60_000);
    expect(broker.calls).toEqual([1]);
    expect(s.r.status).toBe('stopped');
  });

  it('stop() during a connect in flight drops the connection that arrives afterwards and hands it to discard to close', async () => {
    let resolve!: (c: Conn) => void;
    const connecting = new Promise<Conn>((r) => (resolve = r));
    const discarded: Conn[] = [];
    const s = setup(() => connecting, { discard: (c) => discarded.push(c) });
    s.r.start();
    s.r.stop();
    resolve({ n: 1 });
    await connecting; // the reconnector awaited it first, so its continuation has run

    expect(s.r.connection).toBeUndefined();
    expect(s.connected).toEqual([]);
    expect(discarded).toEqual([{ n: 1 }]);
    expect(s.r.status).toBe('stopped');
  });

  it('discards only a connection that arrives after stop(), never one it hands to onConnected', async () => {
    const discarded: Conn[] = [];
    const s = setup(fakeConnect(0).connect, { discard: (c) => discarded.push(c) });
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    s.r.stop();

    expect(s.connected).toEqual([{ n: 1 }]);
    expect(discarded).toEqual([]);
  });

  it('uses the timer functions it is given (an actor’s), so the actor’s stop clears them', async () => {
    const broker = fakeConnect(2);
    const scheduled: number[] = [];
    const clock = new VirtualClock();
    const timers = {
      setTimeout: (fn: () => void, ms: number) => {
        scheduled.push(ms);
        return clock.set(fn, ms);
      },
      clearTimer: (h: unknown) => clock.clear(h as ClockTimer),
    };
    const s = setup(broker.connect, { timers, backoff: { minMs: 5, maxMs: 40, jitter: 0 } }, clock);
    current = s.r;
    s.r.start();
    await s.clock.runUntil(() => s.r.status === 'connected', 'connected');
    expect(scheduled).toEqual([5, 10]);
  });
});
