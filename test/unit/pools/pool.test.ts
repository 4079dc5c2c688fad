import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Message } from '../../../src/message/message';
import { XQueue } from '../../../src/xqueue/xqueue';
import { PoolHandle } from '../../../actors/pools/pool-handle';
import { POOL_RC, PoolRequestError } from '../../../actors/pools/pool-request';
import { startPool, send, drain, waitFor, RunningPool } from './pool-support';
import { TcpPeer, startTcpPeer } from './peers';
import { freePort } from '../../support/free-port';
import { FlakyLog, flakyPersister } from './test-components';

let peer: TcpPeer;
let pool: RunningPool | undefined;
let tmp: string;

beforeEach(async () => {
  peer = await startTcpPeer();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'xroute-pool-'));
});

afterEach(async () => {
  await pool?.stop();
  pool = undefined;
  await peer.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function rejection(p: Promise<unknown>): Promise<PoolRequestError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof PoolRequestError) return e;
    throw e;
  }
  throw new Error('the request was not rejected');
}

/** Sends a raw request message into the pool link and resolves with the task map once the pool removed it. */
function rawRequest(input: XQueue<Message>, msg: Message): Promise<Message> {
  return new Promise((resolve, reject) => {
    input.put(msg, (m) => resolve(m)).catch(reject);
  });
}

describe('PersisterPool requests', () => {
  it('spawns a StreamPersister for a tcp URI and answers RC 0 with a handle', async () => {
    pool = startPool('persister', { Heartbeat: '60' });
    const handle = await pool.client.request({ URI: `${peer.uri}?Operation=request` });
    expect(handle).toBeInstanceOf(PoolHandle);
    expect(handle.className).toBe('persister.StreamPersister');
    const reply = await send(handle.transmit, 'hello\n');
    expect(reply.bodyText()).toBe('echo:hello');
    expect(reply.getProperty('ReturnCode')).toBe('0');
    expect(handle.status().state).toBe('running');
  });

  it('answers a raw request message written into its link, with RCField in the task map and on the message', async () => {
    pool = startPool('persister', {});
    const transmit = new XQueue<Message>('mine', 4);
    const task: Record<string, unknown> = { XQueue: transmit };
    const answered = await rawRequest(pool.input, Message.object(task, { URI: `${peer.uri}?Operation=request` }));
    expect(task.ReturnCode).toBe('0'); // a string, as on the message
    expect(answered.getProperty('ReturnCode')).toBe('0');
    expect(task.Handle).toBeInstanceOf(PoolHandle);
  });

  it('hands MaxIdleTime back in the task map', async () => {
    pool = startPool('persister', {});
    const transmit = new XQueue<Message>('mine', 4);
    const task: Record<string, unknown> = { XQueue: transmit, Properties: { MaxIdleTime: '900' } };
    await rawRequest(pool.input, Message.object(task, { URI: peer.uri }));
    expect(task.MaxIdleTime).toBe('900');
  });

  it('builds the URI from the pool Template when the request has no URI', async () => {
    pool = startPool('persister', { Template: 'tcp://127.0.0.1:##Port##?Operation=request' });
    const transmit = new XQueue<Message>('mine', 4);
    const task: Record<string, unknown> = { XQueue: transmit };
    await rawRequest(pool.input, Message.object(task, { Port: String(peer.port) }));
    expect((task.Handle as PoolHandle).uri).toBe(peer.uri);
  });

  it('merges request Properties < query pairs, then the scheme keys, then DefaultProperty for what is missing', async () => {
    pool = startPool('persister', {
      DefaultProperty: [
        {
          ClassName: 'org.qbroker.persister.StreamPersister',
          URI: 'tcp://ignored:1',
          ReceiveTime: '1000',
          EOTBytes: '0x0a',
          Template: '##body##\n',
          PoolSize: '8',
        },
      ],
    });
    const handle = await pool.client.request({
      URI: `${peer.uri}?Operation=request&ReceiveTime=3000`,
      Properties: { ReceiveTime: '2000', Template: '', HostName: 'mine' },
    });
    expect(handle.properties).toMatchObject({
      URI: peer.uri,
      Operation: 'request',
      ReceiveTime: '3000',
      Template: '##body##\n',
      EOTBytes: '0x0a',
      HostName: '127.0.0.1',
      Port: String(peer.port),
      LinkName: handle.transmit.name,
      Capacity: String(handle.transmit.capacity),
    });
    expect(handle.properties).not.toHaveProperty('PoolSize');
  });

  it("never lets one requester's properties become another's defaults (the original's leak bug)", async () => {
    pool = startPool('persister', {});
    const first = await pool.client.request({ URI: peer.uri, Properties: { Template: 'first:##body##\n', Username: 'alice' } });
    const second = await pool.client.request({ URI: peer.uri });
    expect(first.properties.Username).toBe('alice');
    expect(second.properties).not.toHaveProperty('Username');
    expect(second.properties).not.toHaveProperty('Template');
  });
});

describe('PersisterPool rejections', () => {
  it('rejects a scheme it does not support with RC 2 and a reason', async () => {
    pool = startPool('persister', {});
    const err = await rejection(pool.client.request({ URI: 'wmq://host:1414/QM1?QueueName=IN' }));
    expect(err.rc).toBe(POOL_RC.NOT_FOUND);
    expect(err.reason).toMatch(/scheme "wmq" is not supported/);
  });

  it('rejects a request without a URI with RC 2', async () => {
    pool = startPool('persister', {});
    const err = await rejection(pool.client.request({ URI: '' }));
    expect(err.rc).toBe(POOL_RC.NOT_FOUND);
    expect(err.reason).toMatch(/no URI/);
  });

  it('rejects a class that is not available with RC 2', async () => {
    pool = startPool('persister', {});
    const err = await rejection(pool.client.request({ URI: 'amqp://127.0.0.1' }));
    expect(err.rc).toBe(POOL_RC.NOT_FOUND);
    expect(err.reason).toMatch(/AmqpPersister is not available/);
  });

  it('rejects a message that is not an ObjectMessage with RC 4 on the message', async () => {
    pool = startPool('persister', {});
    const answered = await rawRequest(pool.input, Message.text(peer.uri));
    expect(answered.getProperty('ReturnCode')).toBe('4');
  });

  it('rejects a request without a transmit XQueue with RC 4', async () => {
    pool = startPool('persister', {});
    const task: Record<string, unknown> = { URI: peer.uri };
    await rawRequest(pool.input, Message.object(task));
    expect(task.ReturnCode).toBe(String(POOL_RC.REJECTED));
    expect(task.Reason).toMatch(/no transmit XQueue/);
  });

  it('rejects an operation the implementation does not support with RC 4', async () => {
    pool = startPool('persister', {});
    const err = await rejection(pool.client.request({ URI: `${peer.uri}?Operation=download` }));
    expect(err.rc).toBe(POOL_RC.REJECTED);
    expect(err.reason).toMatch(/does not support operation "download"/);
  });

  it('rejects properties the implementation cannot use with RC 4 naming the property', async () => {
    pool = startPool('persister', {});
    const err = await rejection(pool.client.request({ URI: `${peer.uri}?Operation=request&EOTBytes=zz` }));
    expect(err.rc).toBe(POOL_RC.REJECTED);
    expect(err.reason).toMatch(/EOTBytes/);
  });

  it('rejects a second request for a transmit queue that already has a child with RC 4', async () => {
    pool = startPool('persister', {});
    const transmit = new XQueue<Message>('shared', 4);
    await pool.client.request({ URI: peer.uri, XQueue: transmit });
    const err = await rejection(pool.client.request({ URI: peer.uri, XQueue: transmit }));
    expect(err.rc).toBe(POOL_RC.REJECTED);
    expect(err.reason).toMatch(/already has an active persister/);
  });

  it('rejects with RC 4 at MaxNumberPersister before spawning anything, and accepts again after a release', async () => {
    pool = startPool('persister', { MaxNumberPersister: '2' });
    const a = await pool.client.request({ URI: peer.uri });
    await pool.client.request({ URI: peer.uri });
    const err = await rejection(pool.client.request({ URI: peer.uri }));
    expect(err.rc).toBe(POOL_RC.REJECTED);
    expect(err.reason).toMatch(/MaxNumberPersister 2 reached/);
    expect(pool.harness.actor).toBeDefined();
    expect(pool.active()).toBe(2);
    await a.release();
    await expect(pool.client.request({ URI: peer.uri })).resolves.toBeInstanceOf(PoolHandle);
  });

  it('rejects with RC 4 when the class pool is at its PoolSize', async () => {
    pool = startPool('persister', { DefaultProperty: [{ ClassName: 'persister.StreamPersister', PoolSize: '1' }] });
    await pool.client.request({ URI: peer.uri });
    const err = await rejection(pool.client.request({ URI: peer.uri }));
    expect(err.rc).toBe(POOL_RC.REJECTED);
    expect(err.reason).toMatch(/PoolSize 1/);
  });

  it('limits each class by DefaultPoolSize when its entry has no PoolSize', async () => {
    pool = startPool('persister', { DefaultPoolSize: '1' });
    await pool.client.request({ URI: peer.uri });
    expect((await rejection(pool.client.request({ URI: peer.uri }))).rc).toBe(POOL_RC.REJECTED);
  });
});

describe('PersisterPool children', () => {
  it('lets the requester pause and resume the child through its transmit queue', async () => {
    pool = startPool('persister', {});
    const handle = await pool.client.request({ URI: `${peer.uri}?Operation=request` });
    await send(handle.transmit, 'one\n');
    handle.pause();
    expect(handle.status().state).toBe('paused');
    const pending = handle.transmit.offer(Message.text('two\n'));
    expect(pending).toBe(-1);
    const late = send(handle.transmit, 'two\n');
    await waitFor(() => handle.transmit.stats().waitingProducers === 1, 'the second message waiting for the paused queue');
    expect(peer.received).toEqual(['one']);
    handle.resume();
    expect((await late).bodyText()).toBe('echo:two');
    expect(handle.status().state).toBe('running');
  });

  it('checks the child in when the requester stops the transmit queue', async () => {
    pool = startPool('persister', {});
    const handle = await pool.client.request({ URI: peer.uri });
    handle.stop();
    await handle.closed();
    expect(handle.status().state).toBe('closed');
    expect(pool.active()).toBe(0);
  });

  it('checks the child in and stops it on release()', async () => {
    pool = startPool('persister', {});
    const handle = await pool.client.request({ URI: peer.uri });
    await handle.release();
    expect(handle.status()).toMatchObject({ state: 'closed', component: 'CLOSED' });
    expect(pool.active()).toBe(0);
  });

  it('shows a child that cannot connect as RETRYING with the reason, never silently', async () => {
    const port = await freePort();
    pool = startPool('persister', {});
    const handle = await pool.client.request({ URI: `tcp://127.0.0.1:${port}?PauseTime=20&StandbyTime=50` });
    await waitFor(() => /ECONNREFUSED/.test(handle.status().detail ?? ''), 'a connect error in the status');
    expect(handle.status()).toMatchObject({ state: 'running', component: 'RETRYING' });
  });

  it('stops a child that stays RETRYING longer than RetryTimeout, at a heartbeat', async () => {
    const port = await freePort();
    pool = startPool('persister', { Heartbeat: '0.05' });
    const handle = await pool.client.request({ URI: `tcp://127.0.0.1:${port}?PauseTime=20&StandbyTime=50&RetryTimeout=0.2` });
    await handle.closed();
    expect(handle.status().state).toBe('failed');
    expect(handle.status().detail).toMatch(/RetryTimeout/);
    expect(pool.active()).toBe(0);
  });

  it('retires a child idle for MaxIdleTime and stops its transmit queue', async () => {
    pool = startPool('persister', { Heartbeat: '0.05' });
    const handle = await pool.client.request({ URI: `${peer.uri}?Operation=request&MaxIdleTime=0.3` });
    await send(handle.transmit, 'x\n');
    const t0 = Date.now();
    await handle.closed();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(handle.status()).toMatchObject({ state: 'closed' });
    expect(handle.status().detail).toMatch(/idle/);
    await waitFor(() => handle.transmit.state === 'stopped', 'the transmit queue stopped');
  });

  it('checks in a child that stopped by itself at the next heartbeat, even under a steady stream of requests', async () => {
    const file = path.join(tmp, 'in.txt');
    fs.writeFileSync(file, 'a\nb\n');
    pool = startPool('receiver', { Heartbeat: '0.2' });
    const p = pool;
    const handle = await p.client.request({ URI: `file://${file}` });
    const msgs = await drain(handle.transmit, 2);
    expect(msgs.map((m) => m.bodyText())).toEqual(['a', 'b']);
    await waitFor(() => handle.status().component === 'STOPPED' || handle.status().state === 'closed', 'the receiver done');
    let stream = true;
    const flood = (async () => {
      while (stream) {
        await rejection(p.client.request({ URI: 'wmq://x' }));
        await new Promise((r) => setImmediate(r));
      }
    })();
    await handle.closed();
    stream = false;
    await flood;
    expect(handle.status().state).toBe('closed');
    expect(p.active()).toBe(0);
  });

  it('restarts a crashed child from the same merged properties and finishes the message that crashed it', async () => {
    const log: FlakyLog = { built: [], crashedOnce: false };
    pool = startPool('persister', {}, [flakyPersister(log)]);
    const handle = await pool.client.request({ URI: 'file://-', Properties: { ClassName: 'persister.FlakyPersister', Marker: 'm1' } });
    const done = new Promise<void>((resolve) => handle.transmit.put(Message.text('boom', { crash: 'once' }), () => resolve()));
    await done;
    expect(handle.status().restarts).toBe(1);
    expect(log.built).toHaveLength(2);
    expect(log.built[1]).toBe(log.built[0]);
    expect(log.built[1].Marker).toBe('m1');
    expect(handle.status().state).toBe('running');
  });

  it('gives a child up after MaxRetry restarts: FAILED, checked in, and its transmit queue keeps every message', async () => {
    const log: FlakyLog = { built: [], crashedOnce: false };
    pool = startPool('persister', { MaxRetry: '2', Heartbeat: '0.05' }, [flakyPersister(log)]);
    const handle = await pool.client.request({ URI: 'file://-', Properties: { ClassName: 'persister.FlakyPersister', CrashOnStart: 'true' } });
    for (const t of ['a', 'b', 'c']) handle.transmit.offer(Message.text(t));
    await handle.closed();
    expect(handle.status().state).toBe('failed');
    expect(handle.status().detail).toMatch(/MaxRetry 2/);
    expect(log.built).toHaveLength(3);
    expect(handle.status().restarts).toBe(2);
    expect(handle.transmit.stats()).toMatchObject({ depth: 3, inFlight: 0 });
    expect(pool.active()).toBe(0);
  });

  it('pauses every transmit queue and closes every handle when the pool stops', async () => {
    pool = startPool('persister', {});
    const a = await pool.client.request({ URI: peer.uri });
    const b = await pool.client.request({ URI: peer.uri });
    await pool.stop();
    pool = undefined;
    expect([a.transmit.state, b.transmit.state]).toEqual(['paused', 'paused']);
    expect([a.status().state, b.status().state]).toEqual(['closed', 'closed']);
  });
});
