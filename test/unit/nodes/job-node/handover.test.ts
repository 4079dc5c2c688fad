/** The parts of a JobNode handover that need no actor: the inbox across the swap, and the refusal's reasons. */
import { JobEvent, JobInbox, replaceRefusal } from '../../../../actors/nodes/job-node-handover';
import { parseJobNodeSettings } from '../../../../actors/nodes/job-node-config';

const event = (n: number): JobEvent => ({ type: 'bypass-returned', request: { cell: n, item: undefined as never, generation: 1 }, outcome: 'done' });

describe('JobInbox', () => {
  it('keeps the events that arrive while no incarnation is attached and wakes the next one at once', () => {
    const inbox = new JobInbox();
    const old = {};
    inbox.attach(old, () => undefined);
    inbox.detach();
    inbox.push(event(1));
    inbox.push(event(2));
    const next = {};
    let wakes = 0;
    inbox.attach(next, () => wakes++);
    expect(wakes).toBe(1);
    expect(inbox.take(next).map((e) => (e.type === 'bypass-returned' ? e.request.cell : -1))).toEqual([1, 2]);
  });

  it('gives nothing to an incarnation that handed over', () => {
    const inbox = new JobInbox();
    const old = {};
    inbox.attach(old, () => undefined);
    inbox.push(event(1));
    inbox.attach({}, () => undefined);
    expect(inbox.take(old)).toEqual([]);
  });

  it('wakes its incarnation once until it takes', () => {
    const inbox = new JobInbox();
    const token = {};
    let wakes = 0;
    inbox.attach(token, () => wakes++);
    inbox.push(event(1));
    inbox.push(event(2));
    expect(wakes).toBe(1);
    inbox.take(token);
    inbox.push(event(3));
    expect(wakes).toBe(2);
  });
});

describe('replaceRefusal', () => {
  const settings = (rulesets: string[], workers: string[]) =>
    parseJobNodeSettings('jobs', { OutLink: ['notice', 'bypass', ...workers], Ruleset: rulesets.map((Name) => ({ Name })) });

  it('names a worker outlink with active jobs that the new configuration drops', () => {
    const reason = replaceRefusal('jobs', [{ ruleset: 'all', workerLink: 'w1' }], settings(['all'], ['w0']));
    expect(reason).toBe(
      'JobNode jobs cannot be replaced now: worker outlink "w1" runs 1 active job and is no worker outlink in the new configuration. Reload again once they have finished, or keep them.',
    );
  });

  it('allows worker outlinks in another order', () => {
    expect(replaceRefusal('jobs', [{ ruleset: 'all', workerLink: 'w1' }], settings(['all'], ['w1', 'w0']))).toBeUndefined();
  });

  it('allows any change while no job is active', () => {
    expect(replaceRefusal('jobs', [], settings(['other'], ['w9']))).toBeUndefined();
  });
});
