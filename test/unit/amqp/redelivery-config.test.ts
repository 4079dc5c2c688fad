/**
 * The AmqpReceiver's redelivery policy properties (RedeliveryDelay, MaxAttempts, DeadLetterExchange,
 * DeadLetterRoutingKey): defaults, schema errors naming the property, did-you-mean, cross-property rules.
 */
import { AMQP_RECEIVER } from '../../../actors/receivers/amqp-receiver';
import { readReceiverSettings } from '../../../actors/receivers/amqp-receiver-settings';
import { validateComponentConfig } from '../../../src/config/validate-component';

const receiver = (extra: Record<string, unknown>) => validateComponentConfig(AMQP_RECEIVER, { Name: 'r', QueueName: 'q', ...extra }, '.');

describe('AmqpReceiver redelivery policy configuration', () => {
  it('backs off 1 s doubling to 60 s with no attempt limit and no dead-letter exchange by default', () => {
    expect(readReceiverSettings('r', { QueueName: 'q' }, '.', 10).redelivery).toEqual({
      backoff: { minMs: 1000, maxMs: 60_000 },
      maxAttempts: 0,
      deadLetterExchange: undefined,
      deadLetterRoutingKey: undefined,
    });
  });

  it('reads RedeliveryDelay, MaxAttempts, DeadLetterExchange and DeadLetterRoutingKey', () => {
    const s = readReceiverSettings(
      'r',
      { QueueName: 'q', RedeliveryDelay: '500, 8000', MaxAttempts: '5', DeadLetterExchange: 'dlx', DeadLetterRoutingKey: 'failed' },
      '.',
      10,
    );
    expect(s.redelivery).toEqual({ backoff: { minMs: 500, maxMs: 8000 }, maxAttempts: 5, deadLetterExchange: 'dlx', deadLetterRoutingKey: 'failed' });
  });

  it('rejects a RedeliveryDelay that is not "minMs,maxMs", naming the property', () => {
    expect(receiver({ RedeliveryDelay: '1s' })).toEqual([expect.objectContaining({ property: 'RedeliveryDelay' })]);
  });

  it('rejects a RedeliveryDelay whose maximum is below its minimum', () => {
    expect(receiver({ RedeliveryDelay: '5000,1000' })).toEqual([
      expect.objectContaining({ property: 'RedeliveryDelay', message: expect.stringContaining('min <= max') }),
    ]);
  });

  it('rejects a negative or non-numeric MaxAttempts', () => {
    expect(receiver({ MaxAttempts: 'three' })).toEqual([expect.objectContaining({ property: 'MaxAttempts' })]);
  });

  it('suggests the right name for a misspelt redelivery property', () => {
    expect(receiver({ MaxAttempt: '3' })).toEqual([
      expect.objectContaining({ property: 'MaxAttempt', message: expect.stringContaining('did you mean MaxAttempts') }),
    ]);
  });

  it('refuses DeadLetterRoutingKey without DeadLetterExchange', () => {
    expect(receiver({ DeadLetterRoutingKey: 'x' })).toEqual([
      expect.objectContaining({ property: 'DeadLetterRoutingKey', message: expect.stringContaining('DeadLetterExchange') }),
    ]);
  });
});

describe('AmqpReceiver parking queue configuration', () => {
  it('parks in xroute.parked.<Name> when MaxAttempts is set without a DeadLetterExchange', () => {
    expect(readReceiverSettings('rcvr_orders', { QueueName: 'q', MaxAttempts: '3' }, '.', 10).redelivery.parkingQueue).toBe('xroute.parked.rcvr_orders');
  });

  it('parks in the ParkingQueue named', () => {
    expect(readReceiverSettings('r', { QueueName: 'q', MaxAttempts: '3', ParkingQueue: 'orders.parked' }, '.', 10).redelivery.parkingQueue).toBe(
      'orders.parked',
    );
  });

  it('parks nothing without MaxAttempts, with a DeadLetterExchange, or with FailurePolicy dead-letter', () => {
    const parking = (extra: Record<string, unknown>) => readReceiverSettings('r', { QueueName: 'q', ...extra }, '.', 10).redelivery.parkingQueue;
    expect([parking({}), parking({ MaxAttempts: '3', DeadLetterExchange: 'dlx' }), parking({ MaxAttempts: '3', FailurePolicy: 'dead-letter' })]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('rejects an empty ParkingQueue, naming the property', () => {
    expect(receiver({ MaxAttempts: '3', ParkingQueue: '' })).toEqual([expect.objectContaining({ property: 'ParkingQueue' })]);
  });
});
