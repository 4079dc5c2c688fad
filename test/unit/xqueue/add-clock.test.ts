import { AddClock } from '../../../src/xqueue/add-clock';

describe('AddClock', () => {
  it('dates a message by the first stamp taken after it was added', () => {
    const c = new AddClock();
    c.stamp(5, 1000, 0);
    c.stamp(9, 2000, 0);
    expect([c.addedBy(3), c.addedBy(5), c.addedBy(8)]).toEqual([1000, 2000, 2000]);
  });

  it('cannot date a message added after the last stamp', () => {
    const c = new AddClock();
    c.stamp(5, 1000, 0);
    expect(c.addedBy(5)).toBeUndefined();
  });

  it('forgets stamps that date only messages no longer present', () => {
    const c = new AddClock();
    c.stamp(5, 1000, 0);
    c.stamp(9, 2000, 0);
    c.stamp(12, 3000, 9);
    expect(c.addedBy(4)).toBe(3000);
  });

  it('keeps the oldest and the newest stamp exact when it thins out stamps of a long-stuck message', () => {
    const c = new AddClock();
    for (let i = 1; i <= 5000; i++) c.stamp(i, i * 1000, 0);
    expect([c.addedBy(0), c.addedBy(4999)]).toEqual([1000, 5_000_000]);
  });
});
