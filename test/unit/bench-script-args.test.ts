import { BenchUsageError, messageCount } from '../bench/script-args';

describe('a single benchmark script run by itself', () => {
  it('takes the message count from its one argument', () => {
    expect(messageCount(['5000'], 20_000, 'jms-bench')).toBe(5000);
  });

  it('uses the default count without an argument', () => {
    expect(messageCount([], 20_000, 'jms-bench')).toBe(20_000);
  });

  it('rejects an option with the usage line', () => {
    expect(() => messageCount(['--fast'], 20_000, 'jms-bench')).toThrow(
      new BenchUsageError("Unknown option '--fast'; usage: node dist/test/bench/jms-bench.js [MESSAGES] (default 20000)"),
    );
  });

  it('rejects a count that is not a positive integer, instead of running with NaN', () => {
    expect(() => messageCount(['many'], 20_000, 'jms-bench')).toThrow(/MESSAGES "many" is not a positive integer; usage:/);
  });

  it('rejects a second argument', () => {
    expect(() => messageCount(['10', '20'], 20_000, 'amqp-bench')).toThrow(/unexpected argument "20"; usage: node dist\/test\/bench\/amqp-bench\.js/);
  });
});
