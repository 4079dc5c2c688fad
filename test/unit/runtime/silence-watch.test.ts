import { SilenceWatch, checkIntervalMs, outageStartOf } from '../../../src/runtime/silence-watch';
import { waitFor } from './helpers';
import { SilentPeerError } from '../../../src/runtime/errors';

/** A byte counter that a test makes move (traffic) or keeps still (silence). */
function counter() {
  let bytes = 0;
  return { received: () => bytes, traffic: () => (bytes += 8) };
}

function watch(limitMs: number, received: () => number) {
  const silences: SilentPeerError[] = [];
  const w = new SilenceWatch({ peer: 'amqp://broker:5672', limitMs, property: 'IdleTimeout', received, onSilent: (e) => silences.push(e) });
  return { w, silences };
}

describe('SilenceWatch', () => {
  let current: SilenceWatch | undefined;
  afterEach(() => current?.stop());

  it('declares the connection dead once nothing was received for the limit, naming the peer, the property and the silence', async () => {
    const c = counter();
    const started = Date.now();
    const { w, silences } = watch(1000, c.received);
    current = w;
    await waitFor(() => silences.length === 1, 'declared dead', 3_000);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    expect(elapsed).toBeLessThan(1600); // not twice the limit, as rhea's own check
    expect(silences[0].message).toMatch(/^amqp:\/\/broker:5672: nothing received for \d+ ms \(limit 1000 ms, set by IdleTimeout\): connection declared dead$/);
    expect(silences[0].silentMs).toBeGreaterThanOrEqual(1000);
  });

  it('keeps a connection that receives something between checks alive, for many times the limit', async () => {
    const c = counter();
    const { w, silences } = watch(200, () => c.traffic());
    current = w;
    await waitFor(() => w.checks >= 30, '30 checks (seven limits)', 5_000);
    expect({ silences, active: w.active }).toEqual({ silences: [], active: true });
  });

  it('does not judge on a check that ran late, after the event loop was blocked for longer than the limit', async () => {
    const c = counter();
    const { w, silences } = watch(200, c.received);
    current = w;
    await waitFor(() => w.checks >= 2, 'two checks', 2_000);
    const until = Date.now() + 400;
    while (Date.now() < until); // the process is busy: what the broker sent waits unread
    setImmediate(() => c.traffic()); // read after the timers, as a socket's data would be
    const checks = w.checks;
    await waitFor(() => w.checks >= checks + 3, 'three more checks', 2_000);
    expect(silences).toEqual([]);
  });

  it('reports the silence once and then stops watching', async () => {
    const c = counter();
    const { w, silences } = watch(100, c.received);
    current = w;
    await waitFor(() => silences.length === 1, 'declared dead', 2_000);
    expect({ silences: silences.length, active: w.active }).toEqual({ silences: 1, active: false });
  });

  it('dates the last traffic to the check that saw it move', async () => {
    const c = counter();
    const { w, silences } = watch(400, c.received);
    current = w;
    await waitFor(() => w.checks >= 4, 'a few checks before the traffic', 2_000);
    c.traffic();
    const sent = Date.now();
    await waitFor(() => silences.length === 1, 'declared dead', 2_000);
    expect(silences[0].lastTrafficAt).toBeGreaterThanOrEqual(sent);
    expect(silences[0].lastTrafficAt - sent).toBeLessThanOrEqual(checkIntervalMs(400) + 50);
  });

  it('watches nothing when the limit is 0', () => {
    const c = counter();
    const { w } = watch(0, c.received);
    current = w;
    expect(w.active).toBe(false);
  });

  it('checks 20 times per limit, between 50 and 500 ms', () => {
    expect([checkIntervalMs(200), checkIntervalMs(4_000), checkIntervalMs(8_000), checkIntervalMs(60_000)]).toEqual([50, 200, 400, 500]);
  });
});

describe('outageStartOf', () => {
  it('is the last traffic of a silent peer, also when wrapped as a cause', () => {
    const silent = new SilentPeerError('amqp://b', 1000, 'Heartbeat', 1_000, 5_000);
    expect(outageStartOf(silent, 9_000)).toBe(1_000);
    expect(outageStartOf(new Error('lost', { cause: silent }), 9_000)).toBe(1_000);
  });

  it('is now for any other error', () => {
    expect(outageStartOf(new Error('socket closed'), 9_000)).toBe(9_000);
  });
});
