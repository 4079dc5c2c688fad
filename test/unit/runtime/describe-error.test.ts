/** Errors in logs and status details read as sentences: xroute's typed errors without their class name. */
import { describe as describeError } from '../../../src/runtime/actor';
import { AmqpStepError } from '../../../src/transports/amqp091-errors';

describe('describe (errors in logs and status)', () => {
  it('gives a typed error\'s message without a class-name prefix such as "AmqpStepError:"', () => {
    const e = new AmqpStepError('rcvr', 'queue check', new Error("NOT_FOUND - no queue 'q'"));
    expect(describeError(e)).toBe(e.message);
    expect(describeError(e)).not.toMatch(/^AmqpStepError/);
  });

  it("keeps the name of JavaScript's own errors, which signal a defect", () => {
    expect(describeError(new TypeError('x is not a function'))).toBe('TypeError: x is not a function');
  });

  it('gives a thrown non-error as text', () => {
    expect(describeError('plain')).toBe('plain');
  });
});
