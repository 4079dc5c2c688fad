/**
 * The collector goes away under load (docs/operations.md#tracing): a real `xroute run` moving messages from one
 * RabbitMQ queue to another with every message traced, its OTLP export queue bounded small (500 spans) so the
 * outage fills it at once. Kept short (about 10 s): a batch moved with the collector up, the same batch with the
 * collector's port closed, then the collector back. The flow never waits for the exporter: the batch moves as fast,
 * memory stays flat, and the lost spans are counted and warned about. (That export resumes after such an outage
 * is not asserted here: docs/operations.md, "Tracing", says what is known of it.)
 */
import * as amqp from 'amqplib';
import { Admin, uniqueName } from '../amqp/amqp-kit';
import { waitFor } from '../../support/component-harness';
import { OtlpReceiver } from '../../support/otlp-receiver';
import { TracedRun, runTraced } from '../../support/traced-run';

jest.setTimeout(90_000);

const BATCH = 4000;
const BODY = Buffer.alloc(256, 'x');

describe('a collector that stops under load (RabbitMQ, real xroute run)', () => {
  let admin: Admin;
  let receiver: OtlpReceiver;
  let run: TracedRun | undefined;
  const source = uniqueName('outage.in');
  const target = uniqueName('outage.out');
  let moved = 0;
  const phases: Record<string, { perSecond: number; rssMb: number }> = {};
  let droppedBefore = 0;
  let droppedAfter = 0;

  /** Publishes BATCH messages, waits until all of them reached the target; the rate and the RSS after it. */
  async function moveBatch(name: string): Promise<void> {
    const goal = moved + BATCH;
    const started = performance.now();
    await admin.publishNumbered(source, BATCH, `${name}-`, BODY);
    await waitFor(
      () => moved >= goal,
      () => `${goal} messages moved (have ${moved}); output: ${run?.output().slice(-2000)}`,
      60_000,
    );
    const seconds = (performance.now() - started) / 1000;
    phases[name] = { perSecond: Math.round(BATCH / seconds), rssMb: Math.round((await run!.metric('process_resident_memory_bytes')) / 2 ** 20) };
  }

  beforeAll(async () => {
    admin = await Admin.open();
    await admin.queue(source, { durable: false });
    await admin.queue(target, { durable: false });
    receiver = await OtlpReceiver.start();
    const connection = { URI: 'amqp://127.0.0.1:5672/', Username: 'guest', Password: 'guest' };
    run = await runTraced(
      {
        Name: 'trace-outage',
        Capacity: '256',
        Receiver: ['rcvr'],
        Persister: ['pstr'],
        rcvr: { ClassName: 'receiver.AmqpReceiver', ...connection, QueueName: source, LinkName: 'moving', XAMode: '1' },
        pstr: { ClassName: 'persister.AmqpPersister', ...connection, ExchangeName: '', RoutingKey: target, LinkName: 'moving', MaxInFlight: '256' },
      },
      receiver,
      { OTEL_BSP_MAX_QUEUE_SIZE: '500', OTEL_EXPORTER_OTLP_TIMEOUT: '1000' },
    );
    const ch: amqp.Channel = await admin.conn.createChannel();
    await ch.prefetch(1000);
    await ch.consume(target, () => moved++, { noAck: true });

    await moveBatch('collector up');
    droppedBefore = await run.metric('xroute_trace_spans_dropped_total');
    await receiver.stop();
    await moveBatch('collector down');
    droppedAfter = await run.metric('xroute_trace_spans_dropped_total');
    await receiver.resume();
    console.log(`collector outage: ${JSON.stringify({ batch: BATCH, phases, droppedBefore, droppedAfter })}`);
  });

  afterAll(async () => {
    await run?.stop();
    await receiver?.stop();
    await admin?.cleanup();
  });

  it('moves messages as fast with the collector down as with it up', () => {
    // Within the noise of a loaded machine: the flow never waits for the exporter, so an outage cannot halve it.
    expect(phases['collector down'].perSecond).toBeGreaterThan(phases['collector up'].perSecond * 0.5);
  });

  it('keeps memory flat while spans cannot be exported (the export queue is bounded)', () => {
    expect(phases['collector down'].rssMb - phases['collector up'].rssMb).toBeLessThan(50);
  });

  it('counts the spans it dropped, and says so in a warning', () => {
    // Every message makes two spans; with the port closed nearly all of them are lost (the queue holds 500).
    expect(droppedAfter - droppedBefore).toBeGreaterThan(BATCH);
    expect(run!.output()).toMatch(/span\(s\) dropped/);
  });
});
