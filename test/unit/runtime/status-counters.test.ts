/**
 * A component's status counters (src/runtime/component.ts StatusReporter): a receiver holds the counters it counts per
 * message (StatusReporter.counter) and counts the rest by name; both count the same counter, and the status lists a
 * counter once counted, in the order first counted.
 */
import { StatusReporter } from '../../../src/runtime/component';

describe('StatusReporter counters', () => {
  it('counts a held counter and the same name counted by name into one value', () => {
    const status = new StatusReporter();
    const received = status.counter('received');
    received.add();
    status.count('received', 2);
    received.add(3);
    expect(status.get().counters).toEqual({ received: 6 });
  });

  it('lists a counter only once counted (even by 0), in the order first counted', () => {
    const status = new StatusReporter();
    const acked = status.counter('acked');
    const received = status.counter('received');
    expect(status.get().counters).toEqual({});
    received.add();
    status.count('ackSkipped', 0);
    acked.add();
    expect(Object.entries(status.get().counters)).toEqual([
      ['received', 1],
      ['ackSkipped', 0],
      ['acked', 1],
    ]);
  });

  it('hands status listeners the counters as they were at the change', () => {
    const status = new StatusReporter();
    status.counter('received').add(4);
    const seen: Record<string, number>[] = [];
    status.onChange((s) => seen.push({ ...s.counters }));
    status.set('RUNNING');
    expect(seen).toEqual([{ received: 4 }]);
  });
});
