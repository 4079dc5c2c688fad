/** MaxAttempts and ParkingQueue of the JMS receivers: read with FailedOutcome release/modified, refused with reject. */
import { JMS_RECEIVER } from '../../../actors/receivers/jms-receiver';
import { readReceiverSettings } from '../../../actors/receivers/jms-receiver-settings';
import { validateComponentConfig } from '../../../src/config/validate-component';
import { Amqp10Parking } from '../../../src/transports/amqp10-parking';

const CONNECTION = { URI: 'amqp://127.0.0.1:5673', QueueName: 'orders' };

describe('JMS receiver parking configuration', () => {
  it('parks nothing by default', () => {
    expect(readReceiverSettings('r', CONNECTION, '.').parking).toBeUndefined();
  });

  it('parks in xroute.parked.<Name> after MaxAttempts with FailedOutcome release', () => {
    expect(readReceiverSettings('rcvr', { ...CONNECTION, FailedOutcome: 'release', MaxAttempts: '3' }, '.').parking).toEqual({
      maxAttempts: 3,
      queue: 'xroute.parked.rcvr',
    });
  });

  it('refuses MaxAttempts with FailedOutcome reject, naming the property and why', () => {
    expect(validateComponentConfig(JMS_RECEIVER, { Name: 'r', ...CONNECTION, MaxAttempts: '3' }, '.')).toEqual([
      expect.objectContaining({ property: 'MaxAttempts', message: expect.stringContaining('FailedOutcome "release" or "modified"') }),
    ]);
  });
});

describe('attempts counted for parking', () => {
  it('counts failures per message id and says when MaxAttempts is reached, starting again after a success', () => {
    const p = new Amqp10Parking({ maxAttempts: 3, queue: 'p' }, 'rcvr');
    const a = { message_id: 'a' };
    expect([p.failed(a), p.failed(a)].map((n) => p.exhausted(n))).toEqual([false, false]);
    expect(p.exhausted(p.failed(a))).toBe(true);
    expect(p.failed(a)).toBe(1); // parked messages are forgotten
    p.succeeded(a);
    expect(p.failed(a)).toBe(1);
  });

  it('treats a message without an id as failing for the first time, each time', () => {
    const p = new Amqp10Parking({ maxAttempts: 2, queue: 'p' }, 'rcvr');
    expect([p.failed({}), p.failed({})]).toEqual([1, 1]);
  });
});
