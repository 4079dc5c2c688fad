import { readRunOperations } from '../../../src/cli/run-operations';
import { COMMANDS } from '../../../src/cli/main';
import { parseCommandLine } from '../../../src/cli/command-line';

describe('xroute run --drain-timeout and --on-stop', () => {
  it('reads --drain-timeout in seconds (fractions allowed) and --on-stop wait or kill', () => {
    expect(readRunOperations({ 'drain-timeout': '2.5', 'on-stop': 'kill' }, {})).toEqual({ stop: { drainMs: 2500, onStop: 'kill' } });
    expect(readRunOperations({ 'drain-timeout': '0' }, {})).toEqual({ stop: { drainMs: 0 } });
    expect(readRunOperations({ 'on-stop': 'wait' }, {})).toEqual({ stop: { onStop: 'wait' } });
  });

  it('leaves the stop options out when neither is given (the flow defaults: 60 s, wait)', () => {
    expect(readRunOperations({}, {})).toEqual({});
  });

  it('refuses a negative or non-numeric --drain-timeout, naming the option', () => {
    expect(() => readRunOperations({ 'drain-timeout': '-1' }, {})).toThrow('--drain-timeout "-1": expected a number of seconds >= 0');
    expect(() => readRunOperations({ 'drain-timeout': 'soon' }, {})).toThrow('--drain-timeout "soon": expected a number of seconds >= 0');
    expect(() => readRunOperations({ 'drain-timeout': '' }, {})).toThrow('--drain-timeout "": expected a number of seconds >= 0');
  });

  it('refuses an --on-stop other than wait or kill', () => {
    expect(() => readRunOperations({ 'on-stop': 'abort' }, {})).toThrow('--on-stop "abort": expected wait or kill');
  });

  it('accepts both options on the run command line', () => {
    const parsed = parseCommandLine(['run', '--drain-timeout', '30', '--on-stop', 'kill', 'flow.json'], COMMANDS);
    expect(parsed.kind === 'command' ? parsed.options : undefined).toMatchObject({ 'drain-timeout': '30', 'on-stop': 'kill' });
  });
});
