/**
 * A password the configuration holds never reaches a log line or a status detail, even when a peer
 * echoes it back: a StreamPersister in a running flow logs in (ConnectionRequest) with a password, and
 * the peer refuses the login quoting the whole request line in its error answer.
 */
import net from 'node:net';
import { buildTopology } from '../../../src/config/topology';
import { Flow } from '../../../src/runtime/flow';
import { memoryLogger, LogEntry } from '../../../src/logging/logger';
import { defaultRegistry } from '../../../actors';
import { waitFor } from '../../support/component-harness';
import { componentOf } from '../../support/flow-harness';

const SECRET = 'Echoed-S3cret-pw';

it('masks a password that a refusing login peer echoes back, in logs and in the status detail', async () => {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => socket.write(`ERR login refused for "${chunk.toString('utf8').trim()}"\n`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const entries: LogEntry[] = [];
  const registry = defaultRegistry();
  const topology = buildTopology(
    {
      Name: 'echo',
      Persister: ['pstr_login'],
      pstr_login: {
        ClassName: 'org.qbroker.persister.StreamPersister',
        URI: `tcp://127.0.0.1:${port}`,
        Operation: 'request',
        LinkName: 'out',
        ConnectionRequest: [`LOGIN app ${SECRET}`],
        Password: SECRET,
        Pattern: 'OK|ERR',
        ErrorResponse: ['ERR'],
        PauseTime: '50',
        StandbyTime: '100',
      },
    },
    '/t/flow.json',
    registry,
  );
  const flow = Flow.start(topology, { registry, logger: memoryLogger(entries) });
  try {
    await waitFor(() => /ErrorResponse/.test(componentOf(flow, 'pstr_login')?.detail ?? ''), 'the refused login in the status', 10_000);
    const detail = componentOf(flow, 'pstr_login')?.detail ?? '';
    expect(detail).toContain('login refused');
    expect(detail).not.toContain(SECRET);
    const logged = JSON.stringify(entries);
    expect(logged).toContain('login refused');
    expect(logged).not.toContain(SECRET);
  } finally {
    await flow.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}, 20_000);
