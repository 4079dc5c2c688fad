/**
 * The admin routes under /parked, on a flow whose receiver offers an in-memory parking place: list, show, retry and
 * drop answer what `xroute parked` prints; bad requests get 400 naming the field; a guard can refuse changes.
 */
import * as http from 'http';
import { AddressInfo } from 'net';
import { startTestFlow, testComponent } from '../../support/flow-harness';
import { Flow } from '../../../src/runtime/flow';
import { ComponentRegistry } from '../../../src/runtime/component';
import { AdminServer, parseAdminAddress, startAdminServer } from '../../../src/admin/admin-server';
import { parkedRoute } from '../../../src/admin/parked-routes';
import { Authorize } from '../../../src/admin/admin-auth';
import { ParkedMessage, ParkedStore, ReceiptTally, Selection, Selector } from '../../../src/parking/parked-store';
import { originOf } from '../../../src/parking/parked-origin';
import { upperPersister } from '../config/fake-components';
import { waitFor } from '../../support/wait';

/** A parking place in memory: what a broker-backed one does, without the broker. */
class MemoryParking implements ParkedStore {
  readonly place = 'memory';
  readonly delivered: string[] = [];
  constructor(readonly messages: ParkedMessage[]) {}
  async list(limit: number) {
    return this.messages.slice(0, limit);
  }
  async show(id: string) {
    return this.messages.find((m) => m.id === id);
  }
  private take(selection: Selection, each: (m: ParkedMessage, t: ReceiptTally) => void) {
    const selector = new Selector(selection);
    const tally = new ReceiptTally();
    for (const m of [...this.messages]) {
      tally.examined++;
      if (!selector.takes(m.id)) continue;
      tally.selected++;
      this.messages.splice(this.messages.indexOf(m), 1);
      each(m, tally);
    }
    return tally.receipt(selector);
  }
  async retry(selection: Selection) {
    return this.take(selection, (m, t) => {
      this.delivered.push(m.id);
      t.delivered++;
    });
  }
  async drop(selection: Selection) {
    return this.take(selection, (_m, t) => t.dropped++);
  }
  async close() {}
}

const message = (id: string): ParkedMessage => {
  const headers = { 'x-xroute-queue': 'orders.in', 'x-xroute-failure': 'unroutable', 'x-xroute-attempts': 3 };
  return { id, origin: originOf(headers), body: Buffer.from(`body ${id}`), properties: { messageId: id }, headers };
};

const parking = new MemoryParking(['a', 'b', 'c'].map(message));

const parkingReceiver = testComponent(
  'receiver',
  'receiver.ParkingReceiver',
  (env) => ({
    start() {
      env.status.provideParking(async () => parking);
      env.status.setParked(parking.messages.length);
      env.status.set('RUNNING');
    },
  }),
  'test receiver with a parking place in memory',
);

describe('admin routes /parked', () => {
  const registry = new ComponentRegistry([parkingReceiver, upperPersister]);
  let flow: Flow;
  let admin: AdminServer;
  const TOKEN = 'parked-routes-admin-token-01';
  const call = async (route: string, body?: unknown) => {
    const res = await fetch(
      admin.url + route,
      body === undefined ? {} : { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { authorization: `Bearer ${TOKEN}` } },
    );
    return { code: res.status, body: (await res.json()) as unknown };
  };

  beforeAll(async () => {
    flow = startTestFlow(
      {
        Name: 'parked-routes',
        Receiver: ['rcvr'],
        Persister: ['pstr'],
        rcvr: { ClassName: 'receiver.ParkingReceiver', LinkName: 'root' },
        pstr: { ClassName: 'persister.UpperPersister', LinkName: 'root' },
      },
      registry,
    );
    admin = await startAdminServer(flow, parseAdminAddress('127.0.0.1:0'), undefined, { token: TOKEN });
    await waitFor(() => flow.component('rcvr')?.status.parkingPlace() !== undefined, 'the receiver to provide its parking place');
  });
  afterAll(async () => {
    await admin.close();
    await flow.stop();
  });

  it('lists the receivers that have a parking place, with their parked count', async () => {
    expect(await call('/parked')).toEqual({ code: 200, body: [{ component: 'rcvr', parked: 3 }] });
  });

  it('lists parked messages with their origin, and shows one with its body', async () => {
    const listed = await call('/parked/rcvr/messages?limit=2');
    expect({ code: listed.code, ids: (listed.body as { id: string }[]).map((m) => m.id) }).toEqual({ code: 200, ids: ['a', 'b'] });
    expect(await call('/parked/rcvr/messages/b')).toMatchObject({
      code: 200,
      body: { id: 'b', body: 'body b', bodyEncoding: 'utf8', origin: { queue: 'orders.in', attempts: 3 } },
    });
    expect((await call('/parked/rcvr/messages/zz')).code).toBe(404);
  });

  it('retries and drops the selected messages and answers the receipt', async () => {
    expect(await call('/parked/rcvr/retry', { ids: ['a'] })).toMatchObject({ code: 200, body: { selected: 1, delivered: 1, notFound: [] } });
    expect(parking.delivered).toEqual(['a']);
    expect(await call('/parked/rcvr/drop', { limit: 1 })).toMatchObject({ code: 200, body: { selected: 1, dropped: 1 } });
    expect(parking.messages.map((m) => m.id)).toEqual(['c']);
  });

  it('answers 400 naming what is wrong with a selection, and 404 naming the receivers that have a parking place', async () => {
    expect(await call('/parked/rcvr/retry', { ids: 'a' })).toEqual({ code: 400, body: { error: '"ids" must be a list of message ids (strings)' } });
    expect(await call('/parked/rcvr/drop', '{not json')).toMatchObject({ code: 400, body: { error: expect.stringMatching(/not JSON/) } });
    expect(await call('/parked/rcvr/drop', {})).toEqual({ code: 400, body: { error: 'say which messages: their ids, --all, or --limit N' } });
    expect(await call('/parked/nobody/messages')).toEqual({
      code: 404,
      body: { error: 'no receiver "nobody" with a parking place; receivers with one: rcvr' },
    });
  });

  it('takes retry and drop by POST only', async () => {
    expect((await fetch(`${admin.url}/parked/rcvr/retry`)).status).toBe(405);
  });

  it('lets its guard refuse a change while reads go on', async () => {
    const readOnly: Authorize = (_req, res, kind) => {
      if (kind === 'read') return true;
      res.writeHead(401).end();
      return false;
    };
    const server = http.createServer((req, res) => parkedRoute((req.url ?? '/').split('?')[0], req, res, flow, readOnly));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${base}/parked`)).status).toBe(200);
      expect((await fetch(`${base}/parked/rcvr/drop`, { method: 'POST', body: '{"all":true}' })).status).toBe(401);
      expect(parking.messages).toHaveLength(1);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
