/**
 * JobNode's configuration (docs/components/job-node.md) read into typed settings: node properties, the
 * outlink layout (notice, bypass, workers) and the rulesets, whose filters, key templates, key
 * substitutions and ActiveTime windows are compiled with the shared rules engine (src/rules).
 *
 * Units: Heartbeat and TimeToLive are seconds (decimals allowed, e.g. "0.5"), WaitTime milliseconds.
 */
import { Message } from '../../src/message/message';
import { ComponentConfig, ConfigValue } from '../../src/runtime/component';
import { OutlinkEntries, readOutlinkEntries } from './outlink-entries';
import { NodeConfigError, rethrowAsNodeError } from './node-config-error';
import { ConfigReader } from '../support/config-values';
import { integerSetting } from '../../src/foundation/schema-helpers';
import { compileMessageFilter, FILTER_KEYS, MessageFilter } from '../../src/rules/message-filter';
import { Template } from '../../src/rules/template';
import { compileSubstitution } from '../../src/rules/substitution';
import { ActiveTime } from '../../src/rules/time-windows';
import { isRecord } from '../../src/rules/errors';
import { parseDisplayMask } from '../../src/logging/display';
import { redactText } from '../../src/logging/redact';
import { DuplicatePolicy, FailedJobPolicy, GroupSpec, ThresholdProvider, fixedThreshold } from './job-node-scheduler';

const NOHIT = 'nohit';
const DEFAULT_HEARTBEAT_S = 30;
const DEFAULT_RC_FIELD = 'ReturnCode';
const DEFAULT_MAX_NUMBER_RULE = 512;
const DEFAULT_MAX_DISPATCH = 3;
const DEFAULT_WAIT_TIME_MS = 50;

/** The node's integer settings whose schema says a default: the schema (job-node-schema) and the reader's default. */
export const JOB_NODE_INTEGERS = {
  MaxDispatch: integerSetting('dispatches per job when workers fail, an integer >= 1 as a string, default "{default}"', DEFAULT_MAX_DISPATCH, { min: 1 }),
};

/** A ruleset's integer settings whose schema says a default. */
export const JOB_RULESET_INTEGERS = {
  Threshold: integerSetting('the maximum of active jobs as an integer string, default "{default}"', 1),
};
const DEFAULT_SHARED_LEASE_S = 15;
/** Outlinks by position (the layout of the original's documentation, docs/components/job-node.md). */
export const NOTICE_OUTLINK = 0;
export const BYPASS_OUTLINK = 1;
export const FIRST_WORKER_OUTLINK = 2;

export const DUPLICATE_POLICIES: readonly DuplicatePolicy[] = ['defer', 'drop'];
export const FAILED_JOB_POLICIES: readonly FailedJobPolicy[] = ['redispatch', 'report'];

/** Keys a ruleset map may hold. */
export const RULESET_KEYS: readonly string[] = [
  'Name',
  'Description',
  'PreferredOutLink',
  'TimeToLive',
  'Heartbeat',
  'Priority',
  'Threshold',
  'ActiveTime',
  'KeyTemplate',
  'KeySubstitution',
  ...FILTER_KEYS,
  'StringProperty',
  'DisplayMask',
  'DuplicatePolicy',
  'FailedJobPolicy',
  'MaxDispatch',
];

/** A JobNode configuration value that cannot be used; `property` is a path such as "Ruleset/0/Threshold". */
export class JobNodeConfigError extends NodeConfigError {
  override readonly name = 'JobNodeConfigError';
}

interface JobRuleset {
  readonly name: string;
  /** nohit and PreferredOutLink rulesets go straight to the bypass outlink. */
  readonly bypass: boolean;
  /** undefined for nohit. */
  readonly filter: MessageFilter | undefined;
  readonly spec: GroupSpec;
  /** KeyTemplate + KeySubstitution; undefined = no template (every job is unique). */
  readonly keyOf: ((msg: Message) => string | undefined) | undefined;
  /** Properties copied from the request onto this ruleset's escalations and queries. */
  readonly stringProperty: readonly string[];
  readonly displayMask: number;
}

export interface JobNodeSettings {
  readonly name: string;
  readonly heartbeatMs: number;
  readonly rcField: string;
  /** Names shown in pending-job summaries and in the node's display log. */
  readonly stringProperty: readonly string[];
  readonly displayMask: number;
  readonly waitTimeMs: number;
  /** rulesets[0] is nohit. */
  readonly rulesets: readonly JobRuleset[];
  readonly outlinkNames: readonly string[];
  /** Partition strings of the outlinks, by position (undefined = whole queue). */
  readonly outlinkPartitions: readonly (string | undefined)[];
  readonly workerCount: number;
  /** Cluster-wide limits (SharedState); undefined = this process alone. */
  readonly shared: SharedStateSettings | undefined;
}

export interface SharedStateSettings {
  /** redis://host:port/db */
  readonly url: string;
  /** Key prefix: instances with the same namespace share their limits. */
  readonly namespace: string;
  readonly leaseMs: number;
}

export interface SettingsOptions {
  /** Clock for templates (JMSAge) and filters; defaults to Date.now. */
  clock?: () => number;
  warn?: (property: string, text: string) => void;
}

function seconds(reader: ConfigReader, key: string): number | undefined {
  if (!reader.has(key)) return undefined;
  return reader.number(key, 0);
}

export function thresholdProvider(fixed: number, activeTime: ActiveTime | undefined): ThresholdProvider {
  if (activeTime === undefined) return fixedThreshold(fixed);
  return {
    dynamic: true,
    at(nowMs: number): number {
      const window = activeTime.activeThreshold(new Date(nowMs));
      if (window === undefined || window.length === 0) return fixed;
      // Inside a window its first number rules; 0 or less pauses the group.
      return window[0] > 0 ? window[0] : 0;
    },
  };
}

function namesOf(value: ConfigValue | undefined, component: string, property: string): string[] {
  if (value === undefined) return [];
  if (!isRecord(value)) throw new JobNodeConfigError(component, property, 'is not a map', 'a map whose keys are property names (values are ignored)');
  return Object.keys(value);
}

function keyFunction(component: string, name: string, raw: Record<string, unknown>, clock: () => number): JobRuleset['keyOf'] {
  if (raw.KeyTemplate === undefined) return undefined;
  if (typeof raw.KeyTemplate !== 'string') throw new JobNodeConfigError(component, 'KeyTemplate', 'is not a string', 'a template such as "##JobID##"');
  const template = new Template(raw.KeyTemplate, { clock, where: { component, ruleset: name, key: 'KeyTemplate' } });
  const substitution =
    raw.KeySubstitution === undefined
      ? undefined
      : compileSubstitution(raw.KeySubstitution, { clock, where: { component, ruleset: name, key: 'KeySubstitution' } });
  if (substitution === undefined) return (msg) => template.format(msg);
  return (msg) => {
    try {
      return substitution.apply(template.format(msg));
    } catch {
      return undefined; // a failed substitution makes the job unique, as a failed template does in the original
    }
  };
}

interface NodeDefaults {
  heartbeatMs: number;
  duplicates: DuplicatePolicy;
  failedJobs: FailedJobPolicy;
  maxDispatch: number;
}

function parseRuleset(component: string, raw: Record<string, unknown>, defaults: NodeDefaults, bypassName: string, options: SettingsOptions): JobRuleset {
  const clock = options.clock ?? Date.now;
  const reader = new ConfigReader(component, raw as ComponentConfig);
  const name = reader.required('Name').trim();
  if (name === NOHIT) throw new JobNodeConfigError(component, 'Name', `"${NOHIT}" is reserved for the built-in ruleset`, 'another name');
  const preferred = reader.string('PreferredOutLink');
  const bypass = preferred !== undefined;
  if (bypass && preferred.trim() !== bypassName)
    options.warn?.(
      'PreferredOutLink',
      `ruleset ${name}: PreferredOutLink ${JSON.stringify(preferred)} is not the bypass outlink ${JSON.stringify(bypassName)}; its messages go to ${bypassName}`,
    );
  const heartbeatS = seconds(reader, 'Heartbeat');
  const threshold = reader.integers(JOB_RULESET_INTEGERS).Threshold;
  const activeTime = raw.ActiveTime === undefined ? undefined : ActiveTime.parse(raw.ActiveTime, { component, ruleset: name, key: 'ActiveTime' });
  const spec: GroupSpec = {
    name,
    bypass,
    priority: reader.int('Priority', 0),
    // A static Threshold of 0 or less means 1, as in the original; a window value of 0 pauses the group.
    threshold: thresholdProvider(threshold > 0 ? threshold : 1, activeTime),
    heartbeatMs: heartbeatS !== undefined && heartbeatS > 0 ? heartbeatS * 1000 : defaults.heartbeatMs,
    ttlMs: Math.max(0, (seconds(reader, 'TimeToLive') ?? 0) * 1000),
    duplicates: reader.oneOf('DuplicatePolicy', DUPLICATE_POLICIES, defaults.duplicates),
    failedJobs: reader.oneOf('FailedJobPolicy', FAILED_JOB_POLICIES, defaults.failedJobs),
    maxDispatch: reader.int('MaxDispatch', defaults.maxDispatch, { min: 1 }),
  };
  return {
    name,
    bypass,
    filter: compileMessageFilter(raw, { component, ruleset: name }, { clock, warn: (text) => options.warn?.('', text) }),
    spec,
    keyOf: bypass ? undefined : keyFunction(component, name, raw, clock),
    stringProperty: namesOf(raw.StringProperty as ConfigValue | undefined, component, 'StringProperty'),
    displayMask: parseDisplayMask(reader.string('DisplayMask')),
  };
}

function outlinkEntries(component: string, value: ConfigValue | undefined): OutlinkEntries {
  const { names, partitions } = readOutlinkEntries(
    value,
    (property, problem, expected) => new JobNodeConfigError(component, property, problem, expected),
    'a list: notice, bypass, then at least one worker',
  );
  if (names.length <= FIRST_WORKER_OUTLINK)
    throw new JobNodeConfigError(component, 'OutLink', `has ${names.length} entries`, 'notice, bypass and at least one worker outlink');
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n))
      throw new JobNodeConfigError(
        component,
        'OutLink',
        `names ${JSON.stringify(n)} more than once`,
        'distinct outlink names (notice, bypass and workers must all differ)',
      );
    seen.add(n);
  }
  return { names, partitions };
}

/** Reads and compiles a JobNode configuration. Throws JobNodeConfigError (or a rules-engine error) when unusable. */
export function parseJobNodeSettings(component: string, config: ComponentConfig, options: SettingsOptions = {}): JobNodeSettings {
  const reader = new ConfigReader(component, config);
  let node: NodeDefaults & { rcField: string; displayMask: number; waitTimeMs: number; maxRules: number };
  try {
    const heartbeatS = seconds(reader, 'Heartbeat');
    if (heartbeatS !== undefined && heartbeatS <= 0) options.warn?.('Heartbeat', `Heartbeat ${heartbeatS} means the default ${DEFAULT_HEARTBEAT_S} s`);
    node = {
      heartbeatMs: (heartbeatS !== undefined && heartbeatS > 0 ? heartbeatS : DEFAULT_HEARTBEAT_S) * 1000,
      duplicates: reader.oneOf('DuplicatePolicy', DUPLICATE_POLICIES, 'defer'),
      failedJobs: reader.oneOf('FailedJobPolicy', FAILED_JOB_POLICIES, 'redispatch'),
      maxDispatch: reader.integers(JOB_NODE_INTEGERS).MaxDispatch,
      rcField: reader.string('RCField', DEFAULT_RC_FIELD).trim() || DEFAULT_RC_FIELD,
      displayMask: parseDisplayMask(reader.string('DisplayMask')),
      waitTimeMs: reader.int('WaitTime', DEFAULT_WAIT_TIME_MS, { min: 1 }),
      maxRules: reader.int('MaxNumberRule', DEFAULT_MAX_NUMBER_RULE, { min: 1 }),
    };
  } catch (e) {
    rethrowAsNodeError(JobNodeConfigError, component, '', e);
  }
  if (config.SizeField !== undefined) options.warn?.('SizeField', 'SizeField is ignored: query results are always escalated (docs/components/job-node.md)');
  const shared = sharedStateSettings(component, reader);
  const { names, partitions } = outlinkEntries(component, config.OutLink);
  const rawRulesets = config.Ruleset ?? [];
  if (!Array.isArray(rawRulesets)) throw new JobNodeConfigError(component, 'Ruleset', 'is not a list', 'a list of ruleset maps');
  if (rawRulesets.length + 1 > node.maxRules)
    throw new JobNodeConfigError(component, 'Ruleset', `has ${rawRulesets.length} rulesets plus ${NOHIT}`, `at most MaxNumberRule = ${node.maxRules}`);
  const nohit: JobRuleset = {
    name: NOHIT,
    bypass: true,
    filter: undefined,
    spec: {
      name: NOHIT,
      bypass: true,
      priority: 0,
      threshold: fixedThreshold(0),
      heartbeatMs: node.heartbeatMs,
      ttlMs: 0,
      duplicates: 'defer',
      failedJobs: 'report',
      maxDispatch: 1,
    },
    keyOf: undefined,
    stringProperty: [],
    displayMask: 0,
  };
  const rulesets: JobRuleset[] = [nohit];
  const seen = new Set<string>();
  rawRulesets.forEach((raw, i) => {
    if (!isRecord(raw)) throw new JobNodeConfigError(component, `Ruleset/${i}`, 'is not a map', 'a ruleset map with Name');
    let rs: JobRuleset;
    try {
      rs = parseRuleset(component, raw, node, names[BYPASS_OUTLINK], { ...options, warn: (p, t) => options.warn?.(`Ruleset/${i}${p ? `/${p}` : ''}`, t) });
    } catch (e) {
      rethrowAsNodeError(JobNodeConfigError, component, `Ruleset/${i}`, e);
    }
    if (seen.has(rs.name))
      throw new JobNodeConfigError(component, `Ruleset/${i}/Name`, `${JSON.stringify(rs.name)} is used by an earlier ruleset`, 'unique ruleset names');
    seen.add(rs.name);
    rulesets.push(rs);
  });
  return {
    name: component,
    heartbeatMs: node.heartbeatMs,
    rcField: node.rcField,
    stringProperty: namesOf(config.StringProperty, component, 'StringProperty'),
    displayMask: node.displayMask,
    waitTimeMs: node.waitTimeMs,
    rulesets,
    outlinkNames: names,
    outlinkPartitions: partitions,
    workerCount: names.length - FIRST_WORKER_OUTLINK,
    shared,
  };
}

function sharedStateSettings(component: string, reader: ConfigReader): SharedStateSettings | undefined {
  let url: string | undefined;
  let leaseS: number;
  let namespace: string;
  try {
    url = reader.string('SharedState')?.trim();
    leaseS = seconds(reader, 'SharedStateLease') ?? DEFAULT_SHARED_LEASE_S;
    namespace = reader.string('SharedStateNamespace', `xroute:jobnode:${component}`).trim();
  } catch (e) {
    rethrowAsNodeError(JobNodeConfigError, component, '', e);
  }
  if (url === undefined || url === '') return undefined;
  if (!/^rediss?:\/\//.test(url))
    throw new JobNodeConfigError(component, 'SharedState', `${JSON.stringify(redactText(url))} is not a Redis URL`, 'redis://host:port/db');
  if (leaseS < 1) throw new JobNodeConfigError(component, 'SharedStateLease', `${leaseS} s is too short`, 'at least 1 second');
  return { url, namespace, leaseMs: leaseS * 1000 };
}
