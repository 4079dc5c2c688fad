import { ActiveTime, TimeWindows, parseTimeString } from '../../../src/rules/time-windows';
import { RuleConfigError } from '../../../src/rules/errors';

process.env.TZ = 'UTC';

const NOW = Date.UTC(2024, 2, 6, 12, 0, 0); // Wednesday 2024-03-06 12:00:00 UTC
const allDay = (threshold?: string) =>
  TimeWindows.parse({ TimeWindow: [{ Interval: '0:0:0-24:0:0', ...(threshold === undefined ? {} : { Threshold: threshold }) }] });

describe('time strings', () => {
  it('reads S, M:S and H:M:S, so 08:30 is 8 minutes 30 seconds (quirk kept)', () => {
    expect(parseTimeString('45')).toBe(45);
    expect(parseTimeString('08:30')).toBe(510);
    expect(parseTimeString('1:00:00')).toBe(3600);
    expect(parseTimeString('-300')).toBe(-300);
  });
});

describe('TimeWindows check', () => {
  it.each([
    [-10, 0, 0],
    [59, 0, 0],
    [60, 1, 0],
    [299, 1, 0],
    [300, 1, 1],
  ])('age %i s gives %i in age mode (60,120) and %i in occurrence mode (-300)', (ageSeconds, age, occurrence) => {
    expect(allDay('60,120').check(NOW - ageSeconds * 1000, NOW)).toBe(age);
    expect(allDay('-300').check(NOW - ageSeconds * 1000, NOW)).toBe(occurrence);
  });

  it('never gives 0 with a single positive threshold (quirk kept)', () => {
    expect(allDay('60').check(NOW, NOW)).toBe(1);
  });

  it('without thresholds gives 0 for a sample at or after the start of the current window', () => {
    const w = TimeWindows.parse({ TimeWindow: [{ Interval: '8:0:0-17:0:0' }] });
    expect(w.check(Date.UTC(2024, 2, 6, 8, 0, 0), NOW)).toBe(0);
    expect(w.check(Date.UTC(2024, 2, 6, 7, 59, 59), NOW)).toBe(1);
  });

  it('gives 1 outside every window', () => {
    const w = TimeWindows.parse({ TimeWindow: [{ Interval: '13:0:0-14:0:0', Threshold: '-300' }] });
    expect(w.check(NOW, NOW)).toBe(1);
  });

  it('crosses midnight when the end is before the start, starting the window the day before', () => {
    const w = TimeWindows.parse({ TimeWindow: [{ Interval: '22:0:0-6:0:0' }] });
    const at3am = Date.UTC(2024, 2, 6, 3, 0, 0);
    expect(w.activeWindow(new Date(at3am))?.start).toBe(Date.UTC(2024, 2, 5, 22, 0, 0));
    expect(w.activeWindow(new Date(NOW))).toBeUndefined();
  });

  it('honours WeekDay, Month and MonthDay', () => {
    const base = { TimeWindow: [{ Interval: '0:0:0-24:0:0', Threshold: '5' }] };
    expect(TimeWindows.parse({ ...base, WeekDay: [3] }).activeThreshold(new Date(NOW))).toEqual([5]);
    expect(TimeWindows.parse({ ...base, WeekDay: [1, 2] }).activeThreshold(new Date(NOW))).toBeUndefined();
    expect(TimeWindows.parse({ ...base, Month: ['3'], MonthDay: ['6'] }).activeThreshold(new Date(NOW))).toEqual([5]);
    expect(TimeWindows.parse({ ...base, Month: [4] }).activeThreshold(new Date(NOW))).toBeUndefined();
  });

  it('treats WeekDay 7 as Sunday', () => {
    const sunday = new Date(Date.UTC(2024, 2, 10, 12));
    expect(TimeWindows.parse({ TimeWindow: [{ Interval: '0:0:0-24:0:0', Threshold: '1' }], WeekDay: [7] }).activeThreshold(sunday)).toEqual([1]);
  });

  it('blacks out a date, a weekday and a time range', () => {
    const base = { TimeWindow: [{ Interval: '0:0:0-24:0:0', Threshold: '2' }] };
    expect(TimeWindows.parse({ ...base, Blackout: ['3/6'] }).activeWindow(new Date(NOW))).toBeUndefined();
    expect(TimeWindows.parse({ ...base, Blackout: ['3 11:0:0-13:0:0'] }).activeWindow(new Date(NOW))).toBeUndefined();
    expect(TimeWindows.parse({ ...base, Blackout: ['3 13:0:0-14:0:0'] }).activeWindow(new Date(NOW))).toBeDefined();
  });

  it('is blackout before StartTime and expired at StopTime', () => {
    const base = { TimeWindow: [{ Interval: '0:0:0-24:0:0', Threshold: '2' }] };
    expect(TimeWindows.parse({ ...base, StartTime: '2024/03/07 00:00:00 UTC' }).activeWindow(new Date(NOW))).toBeUndefined();
    expect(TimeWindows.parse({ ...base, StopTime: '2024/03/06 12:00:00 UTC' }).activeWindow(new Date(NOW))).toBeUndefined();
    expect(TimeWindows.parse({ ...base, StartTime: '2024/03/01 00:00:00 UTC' }).activeWindow(new Date(NOW))).toBeDefined();
  });

  it.each([
    [{}, /TimeWindow: is missing/],
    [{ TimeWindow: [{ Interval: '8:00' }] }, /bad interval/],
    [{ TimeWindow: [{ Interval: '0:0:0-1:0:0', Treshold: '1' }] }, /did you mean "Threshold"/],
    [{ TimeWindow: [{ Interval: '0:0:0-1:0:0' }], WeekDay: [8] }, /out of range/],
    [{ TimeWindow: [{ Interval: '0:0:0-1:0:0' }], Blackout: ['13/40'] }, /bad date/],
  ])('rejects %j at start-up', (config, message) => {
    expect(() => TimeWindows.parse(config, { ruleset: 'r', key: 'ActiveTime' })).toThrow(RuleConfigError);
    expect(() => TimeWindows.parse(config)).toThrow(message);
  });
});

describe('ActiveTime for JobNode dynamic thresholds', () => {
  it('returns the thresholds of the first window active now, from a list of window maps', () => {
    const active = ActiveTime.parse([
      { TimeWindow: [{ Interval: '0:0:0-6:0:0', Threshold: '1' }] },
      {
        TimeWindow: [
          { Interval: '8:0:0-18:0:0', Threshold: '4,8' },
          { Interval: '0:0:0-24:0:0', Threshold: '2' },
        ],
      },
    ]);
    expect(active.activeThreshold(new Date(NOW))).toEqual([4, 8]);
    expect(active.activeThreshold(new Date(Date.UTC(2024, 2, 6, 20)))).toEqual([2]);
  });

  it('returns undefined outside every window', () => {
    expect(ActiveTime.parse({ TimeWindow: [{ Interval: '1:0:0-2:0:0', Threshold: '3' }] }).activeThreshold(new Date(NOW))).toBeUndefined();
  });
});
