/**
 * CollectNode's own configuration schema (the loader adds the common properties). Unknown keys in a
 * ruleset or a task are errors with a "did you mean": a misspelt Success or PreferredOutLink would
 * otherwise route messages somewhere nobody intended.
 */
import { JsonSchema } from '../../src/runtime/component';
import { intStr, str, strMap } from '../../src/foundation/schema-helpers';
import { RULESET_KEYS, TASK_KEYS } from './collect-node-config';
import { outlinkListSchema } from './outlink-entries';

const groupList = (description: string): JsonSchema => ({ type: 'array', description });

const FORMAT_PROPERTIES: Record<string, JsonSchema> = {
  FieldName: str('the field to write before the send: a property, a JMS header or body'),
  Template: str('the template of the value, default "##FieldName##"'),
  Substitution: str('a substitution such as "s/^/> /" applied to the formatted value'),
  ErrorCode: str('written to RCField when the message leaves through failure or nohit after this step'),
  DisplayMask: intStr('message fields to log'),
  Description: str(),
};

const TASK_PROPERTIES: Record<string, JsonSchema> = {
  ...FORMAT_PROPERTIES,
  Success: str('outlink for a message that came back with return code 0 (default: the first, done)'),
  Failure: str('outlink for a return code > 0 (default: the second, failure)'),
  Exception: str('outlink for a negative or absent return code (default: the third, nohit)'),
};

const RULESET_PROPERTIES: Record<string, JsonSchema> = {
  ...FORMAT_PROPERTIES,
  Name: str('the ruleset name (unique; "nohit" is reserved)'),
  PreferredOutLink: str('the first outlink of this ruleset: a collectible, or a fixed outlink to route without collecting'),
  NextTask: {
    type: 'array',
    items: { type: 'object', properties: TASK_PROPERTIES, additionalProperties: false, description: 'a task map' },
    description: 'a list of tasks: task i routes the message after its i-th return',
  },
  StringProperty: strMap('a map whose keys name the properties shown when a message is displayed'),
  JMSPropertyGroup: groupList('a list of maps {property: pattern or list of intervals}'),
  XJMSPropertyGroup: groupList('a list of maps {property: pattern or list of intervals}'),
  PatternGroup: groupList('a list of maps {"Pattern": [regex, ...]}'),
  XPatternGroup: groupList('a list of maps {"Pattern": [regex, ...]}'),
};

// Kept in step with collect-node-config's lists of keys the parser reads.
if (Object.keys(RULESET_PROPERTIES).sort().join() !== [...RULESET_KEYS].sort().join())
  throw new Error('CollectNode ruleset schema and parser disagree on the ruleset keys');
if (Object.keys(TASK_PROPERTIES).sort().join() !== [...TASK_KEYS].sort().join())
  throw new Error('CollectNode task schema and parser disagree on the task keys');

export const COLLECT_NODE_SCHEMA: JsonSchema = {
  properties: {
    RCField: str('the property holding the return code of a bounced message, default ReturnCode'),
    TidField: str('when set, "ruleset:task" is written there before each send to a collectible'),
    MaxNumberRule: intStr('an integer >= 1 as a string', { min: 1 }),
    Ruleset: {
      type: 'array',
      items: {
        type: 'object',
        properties: RULESET_PROPERTIES,
        required: ['Name', 'PreferredOutLink'],
        additionalProperties: false,
        description: 'a ruleset map with Name and PreferredOutLink',
      },
      description: 'a list of ruleset maps',
    },
    OutLink: outlinkListSchema(4, 'a list of outlinks: done, failure, nohit, then one or more collectibles (names or {Name, Capacity, Partition})'),
  },
  required: ['OutLink'],
};
