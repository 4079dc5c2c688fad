import { headerGetter, headerText } from '../../../src/tracing/carrier';

describe('trace context in headers of any encoding', () => {
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

  it('reads a string header as it is', () => {
    expect(headerText(traceparent)).toBe(traceparent);
  });

  it('reads bytes (an AMQP binary, a 0-9-1 byte array) as UTF-8 text', () => {
    expect([headerText(Buffer.from(traceparent)), headerText(new Uint8Array(Buffer.from(traceparent)))]).toEqual([traceparent, traceparent]);
  });

  it('finds no context in a number or a table', () => {
    expect([headerText(42), headerText({ a: 1 }), headerText(undefined)]).toEqual([undefined, undefined, undefined]);
  });

  it('lists and reads a carrier for the propagator', () => {
    const carrier = { traceparent: Buffer.from(traceparent), other: 1 };
    expect([headerGetter.keys(carrier), headerGetter.get(carrier, 'traceparent')]).toEqual([['traceparent', 'other'], traceparent]);
  });
});
