/**
 * JobNode: the default its schema states for an integer setting (the node's MaxDispatch, a ruleset's
 * Threshold) is the one the reader uses when it is absent.
 */
import { parseJobNodeSettings } from '../../../../actors/nodes/job-node-config';
import { JOB_NODE_SCHEMA, RULESET_SCHEMA } from '../../../../actors/nodes/job-node-schema';
import { ComponentConfig } from '../../../../src/runtime/component';
import { statedDefault } from '../../../support/stated-defaults';

describe('JobNode integer settings left out', () => {
  const s = parseJobNodeSettings('jobs', { Name: 'jobs', OutLink: ['notice', 'bypass', 'w0'], Ruleset: [{ Name: 'r1' }] } as ComponentConfig);
  const r1 = s.rulesets.find((r) => r.name === 'r1')!;

  it('give a ruleset the node MaxDispatch the node schema states', () => {
    expect(r1.spec.maxDispatch).toBe(statedDefault(JOB_NODE_SCHEMA, 'MaxDispatch'));
  });

  it('give a ruleset the Threshold the ruleset schema states', () => {
    expect(r1.spec.threshold.at(0)).toBe(statedDefault(RULESET_SCHEMA, 'Threshold'));
  });
});
