import { ComponentTotals } from '../../../src/runtime/component';
import type { ComponentTracer } from '../../../src/runtime/message-trace';
import { XQueue } from '../../../src/xqueue/xqueue';

/** A tracer that records what it is told, as "event link item". */
function recordingTracer(): { tracer: ComponentTracer; events: string[] } {
  const events: string[] = [];
  const tracer: ComponentTracer = {
    took: (link, item) => events.push(`took ${link} ${String(item)}`),
    finished: (link, item, outcome) => events.push(`finished ${link} ${String(item)} ${outcome}`),
    added: (link, item) => events.push(`added ${link} ${String(item)}`),
    delivered: (link, item, outcome) => events.push(`delivered ${link} ${String(item)} ${outcome}`),
    routed: () => undefined,
    reportDropped: () => undefined,
    close: () => undefined,
  };
  return { tracer, events };
}

/** One message from `producer` through a queue to a consumer counted in `consumer`, removed as `outcome`. */
function hop(item: string, producer: ComponentTotals, consumer: ComponentTotals, outcome: 'done' | 'failed' = 'done'): void {
  const q = new XQueue<string>('link', 4);
  const handle = q.attach('consumer', () => undefined, consumer);
  q.offer(item, undefined, undefined, producer);
  q.remove(q.take(handle)!, outcome);
}

describe('ComponentTotals trace', () => {
  it('tells the tracer of a traced consumer each message it takes and finishes, and of a traced producer each it adds and is delivered', () => {
    const producer = new ComponentTotals();
    const consumer = new ComponentTotals();
    const p = recordingTracer();
    const c = recordingTracer();
    producer.trace = p.tracer;
    consumer.trace = c.tracer;
    hop('m1', producer, consumer, 'failed');
    producer.trace = undefined;
    consumer.trace = undefined;
    expect([p.events, c.events]).toEqual([
      ['added link m1', 'delivered link m1 failed'],
      ['took link m1', 'finished link m1 failed'],
    ]);
  });

  it('tells a tracer nothing once its trace is cleared, while another tally is still traced', () => {
    const other = new ComponentTotals();
    other.trace = recordingTracer().tracer;
    const totals = new ComponentTotals();
    const t = recordingTracer();
    totals.trace = t.tracer;
    totals.trace = undefined;
    hop('m1', totals, totals);
    other.trace = undefined;
    expect([t.events, totals.trace, [totals.in, totals.done]]).toEqual([[], undefined, [2, 2]]);
  });
});
