import { buildTopology } from '../../../src/config/topology';
import { Flow } from '../../../src/runtime/flow';
import { Message } from '../../../src/message/message';
import { fakeRegistry } from './fake-components';
import { UnknownLinkError } from '../../../src/runtime/errors';

const topology = () =>
  buildTopology(
    {
      Name: 'flow',
      Receiver: ['rcvr'],
      Node: ['node'],
      Persister: ['pstr'],
      rcvr: { ClassName: 'receiver.IdleReceiver', LinkName: 'root' },
      node: { ClassName: 'node.ForwardNode', LinkName: 'root', Capacity: '4', OutLink: [{ Name: 'out', Capacity: '2' }] },
      pstr: { ClassName: 'persister.UpperPersister', LinkName: 'out' },
    },
    '/t/flow.json',
    fakeRegistry(),
  );

describe('Flow', () => {
  it('moves a message through a node to a persister and reports completion back to the sender', async () => {
    const flow = Flow.start(topology(), { registry: fakeRegistry() });
    const { outcome, message } = await flow.send('root', Message.text('hello'));
    expect(outcome).toBe('done');
    expect(message.bodyText()).toBe('HELLO');
    await flow.stop();
  });

  it('creates each link with its configured capacity', async () => {
    const flow = Flow.start(topology(), { registry: fakeRegistry() });
    expect([flow.link('root').capacity, flow.link('out').capacity]).toEqual([4, 2]);
    await flow.stop();
  });

  it('completes many messages with a link smaller than the load (back pressure, no loss)', async () => {
    const flow = Flow.start(topology(), { registry: fakeRegistry() });
    const results = await Promise.all(Array.from({ length: 500 }, (_, i) => flow.send('root', Message.text(`m${i}`))));
    expect(new Set(results.map((r) => r.message.bodyText())).size).toBe(500);
    expect(flow.link('root').stats().totalRemoved).toBe(500);
    await flow.stop();
  });

  it('names the links it has when asked for an unknown one', async () => {
    const flow = Flow.start(topology(), { registry: fakeRegistry() });
    expect(() => flow.link('nope')).toThrow(UnknownLinkError);
    await flow.stop();
  });

  it('reports every component with its actor state in status()', async () => {
    const flow = Flow.start(topology(), { registry: fakeRegistry() });
    await flow.send('root', Message.text('x'));
    expect(flow.status().components.map((c) => [c.name, c.actor])).toEqual([
      ['pstr', 'running'],
      ['node', 'running'],
      ['rcvr', 'running'],
    ]);
    await flow.stop();
  });

  it('stops every actor and leaves no timer behind', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const flow = Flow.start(topology(), { registry: fakeRegistry() });
    await flow.send('root', Message.text('x'));
    await flow.stop({ drainMs: 1000 });
    expect(flow.status().components.every((c) => c.actor === 'stopped')).toBe(true);
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBeLessThanOrEqual(before);
  });
});
