/**
 * JobNode's own configuration schema (the loader adds the common properties) and the checks a schema
 * cannot express. Decision: an unknown key inside a Ruleset entry is an ERROR, with a "did you mean"
 * when a known key is close. The original ignores such keys silently; its own published sample spells
 * `KeyTemplat`, which quietly turns deduplication off, so a misspelt key must stop the load.
 */
import { ComponentConfig, ConfigIssue, JsonSchema } from '../../src/runtime/component';
import { enumStr, intStr, integerSchemas, str, strMap } from '../../src/foundation/schema-helpers';
import { closest } from '../../src/foundation/did-you-mean';
import { isRecord } from '../../src/rules/errors';
import { settingsIssues } from '../../src/config/config-issues';
import { outlinkListSchema } from './outlink-entries';
import { DUPLICATE_POLICIES, FAILED_JOB_POLICIES, JOB_NODE_INTEGERS, JOB_RULESET_INTEGERS, RULESET_KEYS, parseJobNodeSettings } from './job-node-config';

const secondsStr = (description: string): JsonSchema => ({ type: 'string', pattern: '^\\s*-?(\\d+(\\.\\d*)?|\\.\\d+)\\s*$', description });
const groupList = (description: string): JsonSchema => ({ type: 'array', description });

const RULESET_PROPERTIES: Record<string, JsonSchema> = {
  Name: str('the ruleset name (unique; "nohit" is reserved)'),
  Description: str(),
  PreferredOutLink: str('the bypass outlink name: makes this a bypass ruleset'),
  TimeToLive: secondsStr('seconds a job may stay active as a string, "0" = no limit'),
  Heartbeat: secondsStr('the query interval in seconds as a string; "0" or less = the node Heartbeat'),
  Priority: intStr('an integer as a string; larger is scheduled first'),
  ...integerSchemas(JOB_RULESET_INTEGERS),
  ActiveTime: {
    anyOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }],
    description: 'a time-window map {"TimeWindow": [{"Interval": "H:M:S-H:M:S", "Threshold": "n"}], ...} or a list of them',
  },
  KeyTemplate: str('a template such as "##JobID##" that makes the job key'),
  KeySubstitution: str('a substitution such as "s/-retry$//" applied to the key'),
  JMSPropertyGroup: groupList('a list of maps {property: pattern or list of intervals}'),
  XJMSPropertyGroup: groupList('a list of maps {property: pattern or list of intervals}'),
  PatternGroup: groupList('a list of maps {"Pattern": [regex, ...]}'),
  XPatternGroup: groupList('a list of maps {"Pattern": [regex, ...]}'),
  StringProperty: strMap('a map whose keys name the request properties copied onto escalations'),
  DisplayMask: intStr('"0" or "1": log this ruleset\'s escalations'),
  DuplicatePolicy: enumStr(DUPLICATE_POLICIES),
  FailedJobPolicy: enumStr(FAILED_JOB_POLICIES),
  MaxDispatch: intStr('an integer >= 1 as a string', { min: 1 }),
};

// Kept in step with job-node-config's list of keys the parser reads.
if (Object.keys(RULESET_PROPERTIES).sort().join() !== [...RULESET_KEYS].sort().join())
  throw new Error('JobNode ruleset schema and parser disagree on the ruleset keys');

export const RULESET_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'a ruleset map with Name',
  properties: RULESET_PROPERTIES,
  required: ['Name'],
  additionalProperties: false,
};

const OUTLINK_SCHEMA = outlinkListSchema(3, 'a list of outlinks: notice, bypass, then one or more workers (names or {Name, Capacity, Partition})');

export const JOB_NODE_SCHEMA: JsonSchema = {
  properties: {
    Heartbeat: secondsStr('the default query interval in seconds as a string, default "30"'),
    RCField: str('the property the worker sets to the return code, default ReturnCode'),
    SizeField: str('ignored (kept for old configurations)'),
    MaxNumberRule: intStr('an integer >= 1 as a string', { min: 1 }),
    DuplicatePolicy: enumStr(DUPLICATE_POLICIES, 'what to do with a job whose key is taken: "defer" (default, run it after) or "drop"'),
    FailedJobPolicy: enumStr(FAILED_JOB_POLICIES, 'a job whose worker failed: "redispatch" (default) or "report"'),
    ...integerSchemas(JOB_NODE_INTEGERS),
    SharedState: str('a Redis URL such as "redis://127.0.0.1:6379/0": thresholds and job keys hold across every instance using it'),
    SharedStateLease: secondsStr('seconds a dead instance keeps its shared slots and keys, default "15" (at least 1)'),
    SharedStateNamespace: str('the Redis key prefix shared by the instances, default "xroute:jobnode:<node name>"'),
    Ruleset: { type: 'array', items: RULESET_SCHEMA, description: 'a list of ruleset maps' },
    OutLink: OUTLINK_SCHEMA,
  },
  required: ['OutLink'],
};

/** Ruleset keys JobNode does not know (the settings reader passes over them), each with a "did you mean". */
export function unknownRulesetKeys(config: ComponentConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const list = config.Ruleset;
  if (!Array.isArray(list)) return issues;
  list.forEach((raw, i) => {
    if (!isRecord(raw)) return;
    for (const key of Object.keys(raw)) {
      if (RULESET_KEYS.includes(key)) continue;
      const guess = closest(key, RULESET_KEYS);
      issues.push({ property: `Ruleset/${i}/${key}`, message: `unknown property${guess ? `; did you mean ${guess}?` : ''}`, severity: 'error' });
    }
  });
  return issues;
}

/**
 * Everything the schema cannot check, for a configuration on its own: unknown ruleset keys, then what the
 * settings reader finds (patterns, templates, windows, outlink layout).
 */
export function validateJobNode(config: ComponentConfig, component = typeof config.Name === 'string' ? config.Name : 'JobNode'): ConfigIssue[] {
  const issues = unknownRulesetKeys(config);
  return [...issues, ...settingsIssues((warn) => parseJobNodeSettings(component, config, { warn }))];
}
