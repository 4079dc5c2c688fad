/**
 * Issue 28 item 1 against RabbitMQ, as an operator sees it: a real `xroute run --admin` whose AmqpPersister publishes
 * to an exchange that does not exist yet. /status, `xroute status` (the real CLI) and /metrics show the stuck link,
 * the messages in flight upstream and the failing persister with its next retry time; once the exchange is created
 * everything turns back to ok and every message arrives (counted).
 */
import { ChildProcess } from 'child_process';
import { metric, runXroute, scratchDir, startXrouteRun, terminate, writeFlowFile } from '../../support/xroute-cli';
import type { FlowStatus } from '../../../src/runtime/flow';
import { Admin, uniqueName, waitForCounts } from '../amqp/amqp-kit';

jest.setTimeout(120_000);

const MESSAGES = 30;
const CAPACITY = 8;

const xrouteStatus = (url: string, ...options: string[]) => runXroute(['status', '--admin', url, ...options]);

describe('a persister whose exchange is missing (RabbitMQ, real xroute run --admin)', () => {
  let admin: Admin;
  let child: ChildProcess | undefined;
  let source: string;
  let exchange: string;
  let target: string;
  let url: string;
  const status = async (): Promise<FlowStatus> => (await (await fetch(`${url}/status`)).json()) as FlowStatus;
  let stuckAt: FlowStatus;
  let detectedMs: number;

  beforeAll(async () => {
    admin = await Admin.open();
    source = await admin.queue(uniqueName('stuck.src'));
    exchange = admin.track('exchange', uniqueName('stuck.missing'));
    target = admin.track('queue', uniqueName('stuck.dst'));
    await admin.publish(
      '',
      source,
      Array.from({ length: MESSAGES }, (_, i) => `m${i}`),
    );
    const dir = scratchDir('xroute-stuck-');
    const file = writeFlowFile(
      {
        Name: 'stuck',
        Supervision: { FatalRetrySeconds: '1' },
        Receiver: ['rcvr'],
        Persister: ['pstr'],
        rcvr: {
          ClassName: 'receiver.AmqpReceiver',
          URI: 'amqp://guest:guest@127.0.0.1:5672/',
          QueueName: source,
          IsPassive: 'true',
          XAMode: '1',
          LinkName: 'in',
        },
        pstr: {
          ClassName: 'persister.AmqpPersister',
          URI: 'amqp://guest:guest@127.0.0.1:5672/',
          ExchangeName: exchange,
          RoutingKey: 'k',
          IsPassive: 'true',
          LinkName: 'in',
          Capacity: String(CAPACITY),
        },
      },
      dir,
    );
    ({ child, url } = await startXrouteRun(file));
    let heldSince: number | undefined;
    let last: FlowStatus | undefined;
    const deadline = Date.now() + 20_000;
    for (;;) {
      last = await status();
      const link = last.links.find((l) => l.name === 'in')!;
      if (link.size > 0) heldSince ??= Date.now();
      if (link.stuck !== undefined && last.components.find((c) => c.name === 'pstr')!.nextRetryAt !== undefined) break;
      if (Date.now() > deadline) throw new Error(`no stuck link in 20 s: ${JSON.stringify(last)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    stuckAt = last;
    detectedMs = Date.now() - (heldSince ?? Date.now());
  });

  afterAll(async () => {
    await terminate(child);
    await admin.cleanup();
  });

  it('shows the stuck link in /status within 2 s of it holding messages', () => {
    expect(detectedMs).toBeLessThan(2000);
    expect(stuckAt.links.find((l) => l.name === 'in')).toMatchObject({ stuck: 'consumer-not-running', health: 'red' });
    expect(stuckAt.stuckLinks).toEqual([{ link: 'in', reason: 'consumer-not-running' }]);
  });

  it('shows the messages in flight upstream, held by the receiver, which turns amber', async () => {
    const s = await status();
    const rcvr = s.components.find((c) => c.name === 'rcvr')!;
    expect({ inFlight: rcvr.inFlight, health: rcvr.health, blockedBy: rcvr.blockedBy }).toEqual({ inFlight: CAPACITY, health: 'amber', blockedBy: 'in' });
  });

  it('shows the failing persister with its next retry time and its masked endpoint', async () => {
    const pstr = (await status()).components.find((c) => c.name === 'pstr')!;
    expect(pstr.health).toBe('red');
    expect(pstr.nextRetryAt).toBeGreaterThan(Date.now() - 1000);
    expect(pstr.endpoint).toEqual({ URI: 'amqp://***:***@127.0.0.1:5672/', ExchangeName: exchange, RoutingKey: 'k' });
  });

  it('is reported by xroute status: not ready (exit 1), the stuck link, the in-flight messages and the next retry', async () => {
    const r = await xrouteStatus(url);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^flow stuck: NOT READY/);
    expect(r.stdout).toMatch(/stuck links:\n {2}in: consumer-not-running/);
    expect(r.stdout).toMatch(new RegExp(`rcvr\\s+receiver\\.AmqpReceiver\\s+RUNNING amber(\\s+\\S+){4}\\s+${CAPACITY}\\s`));
    expect(r.stdout).toMatch(/pstr\s+persister\.AmqpPersister\s+FAILED red.*(in \d+ s|\d+ s ago)$/m);
  });

  it('is reported again at each refresh of xroute status --watch', async () => {
    const r = await xrouteStatus(url, '--watch', '--interval', '0.2', '--count', '2');
    expect({
      code: r.code,
      blocks: r.stdout.match(/^flow stuck: NOT READY/gm)?.length,
      stuck: r.stdout.match(/^ {2}in: consumer-not-running$/gm)?.length,
    }).toEqual({
      code: 1,
      blocks: 2,
      stuck: 2,
    });
  });

  it('is reported by /readyz as not ready with the stuck link', async () => {
    const res = await fetch(`${url}/readyz`);
    const body = (await res.json()) as { stuckLinks: unknown };
    expect({ code: res.status, stuckLinks: body.stuckLinks }).toEqual({ code: 503, stuckLinks: [{ link: 'in', reason: 'consumer-not-running' }] });
  });

  it('is in /metrics: the stuck link, its oldest message, the in-flight messages and the next retry', async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    expect({
      stuck: metric(text, 'xroute_link_stuck', 'link="in",reason="consumer-not-running"'),
      inflight: metric(text, 'xroute_component_inflight', 'component="rcvr"'),
      oldestPositive: (metric(text, 'xroute_link_oldest_age_seconds', 'link="in"') ?? 0) > 0,
      retryKnown: metric(text, 'xroute_component_next_retry_timestamp_seconds', 'component="pstr"') !== undefined,
    }).toEqual({ stuck: 1, inflight: CAPACITY, oldestPositive: true, retryKnown: true });
  });

  it('turns back to ok once the exchange exists, and delivers every message', async () => {
    await admin.exchange(exchange, 'direct');
    await admin.queue(target);
    await admin.ch.bindQueue(target, exchange, 'k');
    await waitForCounts(target, (c) => c.ready === MESSAGES, `${MESSAGES} messages in the target`, 30_000);
    let s = await status();
    const deadline = Date.now() + 10_000;
    while (!(s.ready && s.stuckLinks.length === 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      s = await status();
    }
    expect({ ready: s.ready, stuck: s.stuckLinks, health: [...s.components, ...s.links].map((x) => `${x.name}:${x.health}`).sort() }).toEqual({
      ready: true,
      stuck: [],
      health: ['in:ok', 'pstr:ok', 'rcvr:ok'],
    });
    const r = await xrouteStatus(url);
    expect(r.code).toBe(0);
    const bodies = new Set((await admin.drain(target)).map((m) => m.content.toString()));
    expect(bodies.size).toBe(MESSAGES);
    await waitForCounts(source, (c) => c.ready === 0 && c.unacked === 0, 'the source queue emptied');
  });
});
