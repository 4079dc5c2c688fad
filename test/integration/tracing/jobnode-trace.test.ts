/**
 * Tracing a JobNode (docs/operations.md#tracing) in a real `xroute run`: a request with a traceparent goes
 * AmqpReceiver -> JobNode -> a JobPersister worker that runs a child process for about 300 ms. The dispatch span
 * names the ruleset, group and worker; the job span is open for the job's active life and ends when the worker
 * finishes it; the receiver's span ends after that, when the request is acknowledged.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Admin, uniqueName } from '../amqp/amqp-kit';
import { waitFor } from '../../support/component-harness';
import { OtlpReceiver, ReceivedSpan, SPAN_KIND } from '../../support/otlp-receiver';
import { TracedRun, oneSpan, runTraced, upstreamContext } from '../../support/traced-run';

jest.setTimeout(60_000);

const WORKER_MS = 300;

describe('tracing a JobNode (RabbitMQ, real xroute run)', () => {
  let admin: Admin;
  let receiver: OtlpReceiver;
  let run: TracedRun | undefined;
  const jobs = uniqueName('trace.jobs');

  beforeAll(async () => {
    admin = await Admin.open();
    await admin.queue(jobs, { durable: true });
    receiver = await OtlpReceiver.start();
    const dir = mkdtempSync(path.join(tmpdir(), 'xroute-trace-jobs-'));
    const connection = { URI: 'amqp://127.0.0.1:5672/', Username: 'guest', Password: 'guest' };
    run = await runTraced(
      {
        Name: 'trace-jobs',
        Receiver: ['rcvr_jobs'],
        Node: ['node_jobs'],
        Persister: ['pstr_worker', 'pstr_notice', 'pstr_bypass'],
        rcvr_jobs: { ClassName: 'org.qbroker.receiver.RMQReceiver', ...connection, Operation: 'get', QueueName: jobs, LinkName: 'jobs', XAMode: '1' },
        node_jobs: {
          ClassName: 'org.qbroker.node.JobNode',
          Operation: 'schedule',
          LinkName: 'jobs',
          Heartbeat: '60',
          OutLink: ['notice', 'bypass', 'worker'],
          Ruleset: [{ Name: 'reports', Threshold: '1', JMSPropertyGroup: [{ kind: '^report$' }] }],
        },
        pstr_worker: {
          ClassName: 'org.qbroker.persister.JobPersister',
          Operation: 'execute',
          LinkName: 'worker',
          Script: ['node', '-e', `setTimeout(() => undefined, ${WORKER_MS})`],
          Timeout: '30000',
        },
        pstr_notice: {
          ClassName: 'org.qbroker.persister.StreamPersister',
          URI: `file://${dir}/notice.txt`,
          Operation: 'write',
          LinkName: 'notice',
          Template: '##body##\n',
        },
        pstr_bypass: {
          ClassName: 'org.qbroker.persister.StreamPersister',
          URI: `file://${dir}/bypass.txt`,
          Operation: 'write',
          LinkName: 'bypass',
          Template: '##body##\n',
        },
      },
      receiver,
    );
  });

  afterAll(async () => {
    await run?.stop();
    await receiver?.stop();
    await admin?.cleanup();
  });

  it('ends the job span when the worker finishes, inside the receiver span, under a dispatch span naming ruleset, group and worker', async () => {
    const upstream = upstreamContext();
    await admin.publish('', jobs, ['report sales'], { messageId: 'job-1', headers: { kind: 'report', traceparent: upstream.traceparent } });
    const isConsumer = (s: ReceivedSpan) => s.kind === SPAN_KIND.consumer && s.traceId === upstream.traceId;
    await waitFor(
      () => receiver.spans.some(isConsumer),
      () => `the CONSUMER span of the job; output: ${run?.output()}`,
      20_000,
    );
    const spans = receiver.spansOf(upstream.traceId);
    const consumer = oneSpan(spans, 'process');
    const dispatch = oneSpan(spans, 'dispatch');
    const job = oneSpan(spans, 'job');
    expect([dispatch.parentSpanId, job.parentSpanId]).toEqual([consumer.spanId, dispatch.spanId]);
    expect(dispatch.attributes).toMatchObject({
      'xroute.ruleset': 'reports',
      'xroute.job.group': 1,
      'xroute.job.worker': 'worker',
      'xroute.component': 'node_jobs',
    });
    expect(job.attributes).toMatchObject({ 'xroute.job.end': 'completed', 'xroute.ruleset': 'reports' });
    expect(Number(job.endNs - job.startNs) / 1e6).toBeGreaterThanOrEqual(WORKER_MS);
    // The receiver settles right after the job ends, often within a millisecond; each span turns performance time
    // into epoch time with an offset read (at Date.now()'s 1 ms resolution) when it started, so two ends that close
    // can swap by about a millisecond. Later by more than that would be a real misordering.
    expect(Number(consumer.endNs - job.endNs) / 1e6).toBeGreaterThanOrEqual(-2);
  });
});
