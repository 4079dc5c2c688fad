/** `xroute parked`: the option checks, the list table and the receipt, without a broker. */
import * as net from 'net';
import { checkParkedOptions, formatList, formatReceipt, ParkedCommandOptions } from '../../../src/cli/parked-command';
import { readSelection } from '../../../src/admin/parked-routes';
import { runParked } from '../../support/parked-cli';

const base: ParkedCommandOptions = { action: 'list', ids: [], broker: 'rabbitmq', all: false, json: false, url: 'amqp://127.0.0.1', queue: 'q' };

describe('xroute parked options', () => {
  it('accepts a list straight at the broker', () => {
    expect(checkParkedOptions(base)).toBeUndefined();
  });

  it('refuses --url without --queue, and both ways at once', () => {
    expect(checkParkedOptions({ ...base, queue: undefined })).toBe('straight to the broker needs both --url and --queue');
    expect(checkParkedOptions({ ...base, admin: 'http://127.0.0.1:9090' })).toMatch(/not both/);
  });

  it('refuses a retry or drop that names no message', () => {
    expect(checkParkedOptions({ ...base, action: 'retry' })).toBe('retry: say which messages: their ids, --all, or --limit N');
    expect(checkParkedOptions({ ...base, action: 'drop', all: true })).toBeUndefined();
  });

  it('refuses --to outside retry, and show without exactly one id', () => {
    expect(checkParkedOptions({ ...base, to: 'other' })).toMatch(/for retry/);
    expect(checkParkedOptions({ ...base, action: 'show' })).toBe('show takes one message id');
  });

  it('asks where the messages are when neither --url nor --component is given', () => {
    expect(checkParkedOptions({ ...base, url: undefined, queue: undefined })).toMatch(/--component NAME/);
  });
});

describe('xroute parked output', () => {
  it('lists id, origin, reason, age and attempts, one message a line', () => {
    const now = 1_700_000_100_000;
    const text = formatList(
      [
        {
          id: 'm1',
          origin: { by: 'xroute', queue: 'orders.in', reason: 'unroutable', attempts: 3, at: now - 65_000 },
          body: '',
          bodyEncoding: 'utf8',
          properties: {},
          headers: {},
        },
      ],
      now,
    );
    expect(text.split('\n')).toEqual(['ID  ORIGIN     REASON      AGE   ATTEMPTS', 'm1  orders.in  unroutable  65 s         3']);
  });

  it('prints a receipt of counts, with why messages were left parked and the ids not found', () => {
    const text = formatReceipt('retry', {
      examined: 10,
      selected: 3,
      delivered: 2,
      dropped: 0,
      leftParked: 1,
      notFound: ['x'],
      problems: { 'origin unknown (give --to)': 1 },
    });
    expect(text).toBe('retry: examined 10, selected 3, delivered 2, left parked 1\n  left parked: 1 origin unknown (give --to)\n  not found: x');
  });
});

describe("the admin routes' selection", () => {
  it('reads ids, all, limit, to, window and rate', () => {
    expect(readSelection({ ids: ['a'], to: 'q2', window: 5, rate: 10 })).toEqual({
      selection: { ids: ['a'] },
      options: { to: 'q2', window: 5, ratePerSecond: 10 },
    });
    expect(readSelection({ limit: 3 })).toEqual({ selection: { limit: 3 }, options: {} });
  });

  it('refuses ids that are not strings and a limit that is not a positive whole number, naming the field', () => {
    expect(() => readSelection({ ids: [1] })).toThrow('"ids" must be a list of message ids (strings)');
    expect(() => readSelection({ limit: 0 })).toThrow('"limit" must be a whole number, 1 or more');
  });
});

describe('xroute parked through an admin endpoint that is not there', () => {
  it('exits 2 saying the endpoint cannot be reached and why', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const r = await runParked({ action: 'list', broker: 'rabbitmq', component: 'rcvr', admin: `127.0.0.1:${port}` });
    expect({ code: r.code, err: r.err }).toEqual({
      code: 2,
      err: `xroute parked list: http://127.0.0.1:${port}/parked/rcvr/messages?limit=100: cannot reach the admin endpoint: ECONNREFUSED\n`,
    });
  });
});
