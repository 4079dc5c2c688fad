import { HopTrace } from '../bench/hop-trace';
import { hopRows } from '../bench/latency-bench';
import { bodyFor } from '../bench/latency';
import { Message } from '../../src/message/message';
import { XQueue } from '../../src/xqueue/xqueue';

describe('hop trace of the latency bench', () => {
  it('logs when each message is added to, taken from and removed from a watched link, in that order', () => {
    const trace = new HopTrace(3);
    const link = new XQueue<Message>('move', 4);
    trace.watch(link);
    const consumer = link.attach('test', () => undefined);
    for (let seq = 0; seq < 3; seq++) link.offer(Message.text(bodyFor(seq, 8)));
    for (let t = link.take(consumer); t; t = link.take(consumer)) link.remove(t);
    const events = trace.timeline(() => 0, 0).map((h) => [h.event, h.n]);
    expect(events).toEqual([
      ['move: added', 3],
      ['move: taken', 3],
      ['move: removed', 3],
    ]);
  });

  it('leaves a watched link working as before: the producer still hears of the removal', () => {
    const trace = new HopTrace(1);
    const link = new XQueue<Message>('move', 4);
    trace.watch(link);
    const done: string[] = [];
    link.offer(Message.text(bodyFor(0, 8)), (m, outcome) => done.push(`${m.bodyText()} ${outcome}`));
    const t = link.take(link.attach('test', () => undefined));
    expect(t && link.remove(t)).toBe(true);
    expect(done).toEqual(['0|xxxxxx done']);
  });

  it('ignores messages without a sequence number and keeps the first time of a redelivered one', () => {
    const trace = new HopTrace(2);
    trace.mark('seen', Message.text('no number here'), 5);
    trace.mark('seen', Message.text(bodyFor(1, 8)), 7);
    trace.mark('seen', Message.text(bodyFor(1, 8)), 9);
    expect(trace.timeline(() => 2, 0)).toEqual([{ event: 'seen', n: 1, p50: 5, p99: 5 }]);
  });

  it('prints each event with what it adds to the one before', () => {
    const rows = hopRows('path at 50 %', [
      { event: 'in: added', n: 1, p50: 1, p99: 2 },
      { event: 'arrived', n: 1, p50: 1.5, p99: 4 },
    ]);
    expect(rows.map((r) => [r.name, r.value])).toEqual([
      ['path at 50 %, hop 1: in: added (+1 ms; p99 2 ms)', 1],
      ['path at 50 %, hop 2: arrived (+0.5 ms; p99 4 ms)', 1.5],
    ]);
  });
});
