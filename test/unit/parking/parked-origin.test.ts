/** Where a parked or dead-lettered message came from, read from the headers each kind of parking place leaves. */
import { describeOrigin, headersForRetry, originOf } from '../../../src/parking/parked-origin';
import { Selector, checkSelection, digestId } from '../../../src/parking/parked-store';

describe('originOf', () => {
  it('reads the origin, receiver, reason, attempts and time an xroute receiver stamped when it parked the message', () => {
    const h = {
      'x-xroute-queue': 'orders.in',
      'x-xroute-exchange': 'orders',
      'x-xroute-routing-key': 'eu',
      'x-xroute-receiver': 'rcvr',
      'x-xroute-failure': 'unroutable',
      'x-xroute-attempts': 3,
      'x-xroute-parked-at': 1_700_000_000_123,
    };
    expect(originOf(h)).toEqual({
      by: 'xroute',
      queue: 'orders.in',
      exchange: 'orders',
      routingKeys: ['eu'],
      receiver: 'rcvr',
      reason: 'unroutable',
      attempts: 3,
      at: 1_700_000_000_123,
    });
  });

  it("reads the latest death of RabbitMQ's x-death header, its time as amqplib decodes a timestamp", () => {
    const h = {
      'x-death': [
        {
          count: 2,
          reason: 'rejected',
          queue: 'orders.in',
          time: { '!': 'timestamp', value: 1_700_000_000 },
          exchange: 'orders',
          'routing-keys': ['eu', 'all'],
        },
        { queue: 'older' },
      ],
    };
    expect(originOf(h)).toEqual({
      by: 'rabbitmq',
      queue: 'orders.in',
      exchange: 'orders',
      routingKeys: ['eu', 'all'],
      reason: 'rejected',
      attempts: 2,
      at: 1_700_000_000_000,
    });
  });

  it("reads ActiveMQ's original destination and failure cause", () => {
    expect(originOf({ originalDestination: 'queue://orders', dlqDeliveryFailureCause: 'poison' })).toEqual({
      by: 'activemq',
      queue: 'queue://orders',
      reason: 'poison',
    });
  });

  it('says the origin is unknown for a message with none of those headers', () => {
    expect(originOf({ Region: 'eu' })).toEqual({ by: 'unknown', reason: undefined });
    expect(describeOrigin(originOf(undefined))).toBe('?');
  });
});

describe('headersForRetry', () => {
  it("keeps the application headers and drops the parking place's and the broker's dead-letter bookkeeping", () => {
    expect(headersForRetry({ Region: 'eu', 'x-xroute-queue': 'q', 'x-xroute-parked-id': 'id', 'x-death': [], 'x-first-death-queue': 'q' })).toEqual({
      Region: 'eu',
    });
  });
});

describe('selection of parked messages', () => {
  it('takes the named ids only, and knows which were not found', () => {
    const s = new Selector({ ids: ['a', 'c', 'z'] });
    expect(['a', 'b', 'c'].map((id) => s.takes(id))).toEqual([true, false, true]);
    expect({ satisfied: s.satisfied, notFound: s.notFound() }).toEqual({ satisfied: false, notFound: ['z'] });
  });

  it('takes the first N with a limit, and is satisfied then', () => {
    const s = new Selector({ limit: 2 });
    expect(['a', 'b', 'c'].map((id) => s.takes(id))).toEqual([true, true, false]);
    expect(s.satisfied).toBe(true);
  });

  it('refuses a selection that names nothing', () => {
    expect(() => checkSelection({})).toThrow('say which messages: their ids, --all, or --limit N');
    expect(() => checkSelection({ ids: [] })).toThrow(/their ids/);
  });

  it('gives a message without an id a stable digest of its body and headers', () => {
    const a = digestId(Buffer.from('x'), { k: 1 });
    expect({
      same: digestId(Buffer.from('x'), { k: 1 }) === a,
      other: digestId(Buffer.from('y'), { k: 1 }) === a,
      form: /^sha1:[0-9a-f]{16}$/.test(a),
    }).toEqual({ same: true, other: false, form: true });
  });
});
