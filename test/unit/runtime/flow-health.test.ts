import { LinkFacts, flowHealth, stuckReason } from '../../../src/runtime/flow-health';

const link = (name: string, producers: string[], consumers: string[], size = 0, free = 4): LinkFacts => ({ name, producers, consumers, size, free });
// rcvr -> root -> node -> out -> pstr
const chain = (outSize: number, outFree: number) => [link('root', ['rcvr'], ['node'], 1, 3), link('out', ['node'], ['pstr'], outSize, outFree)];
const all = ['rcvr', 'node', 'pstr'];

describe('stuck links', () => {
  it('calls a full link stuck even while its consumer runs', () => {
    expect(stuckReason(link('l', ['a'], ['b'], 4, 0), () => true)).toBe('full');
  });

  it('calls a link holding messages stuck when none of its consumers runs', () => {
    expect(stuckReason(link('l', ['a'], ['b', 'c'], 1, 3), () => false)).toBe('consumer-not-running');
  });

  it('does not call an empty link stuck when its consumer is down', () => {
    expect(stuckReason(link('l', ['a'], ['b'], 0, 4), () => false)).toBeUndefined();
  });

  it('does not call a link stuck while one of its consumers runs', () => {
    expect(stuckReason(link('l', ['a'], ['b', 'c'], 2, 2), (c) => c === 'c')).toBeUndefined();
  });

  it('turns the stuck link red and everything upstream of it amber', () => {
    const h = flowHealth(chain(2, 2), all, (c) => c !== 'pstr');
    expect({
      out: h.links.get('out'),
      root: h.links.get('root'),
      node: h.components.get('node'),
      rcvr: h.components.get('rcvr'),
      pstr: h.components.get('pstr'),
    }).toEqual({
      out: { health: 'red', stuck: 'consumer-not-running' },
      root: { health: 'amber', blockedBy: 'out' },
      node: { health: 'amber', blockedBy: 'out' },
      rcvr: { health: 'amber', blockedBy: 'out' },
      pstr: { health: 'red' },
    });
  });

  it('leaves a flow whose links move all ok', () => {
    const h = flowHealth(chain(1, 3), all, () => true);
    expect([...h.links.values(), ...h.components.values()].every((x) => x.health === 'ok')).toBe(true);
  });

  it('ends at a cycle of links instead of looping', () => {
    const loop = [link('a', ['x'], ['y'], 4, 0), link('b', ['y'], ['x'], 1, 3)];
    expect(flowHealth(loop, ['x', 'y'], () => true).components.get('y')).toEqual({ health: 'amber', blockedBy: 'a' });
  });
});
