/**
 * CollectNode's configuration (the original's org.qbroker.node.CollectNode, operation `collect`) read into
 * typed settings: the outlink layout and the rulesets with their task lists.
 *
 * Outlinks by position: done (first: finished requests), failure (second), nohit (third); the rest are
 * collectibles: outlinks whose consumer "bounces" each message back by removing it (a MessageEvaluator),
 * after which the node reads the return code and routes the same message onward. The three fixed
 * outlinks may name the same link, as in the original.
 *
 * A ruleset routes the messages its filter selects to PreferredOutLink. When that is a collectible, each
 * bounced message is routed by its return code (0 SUCCESS, > 0 FAILURE, < 0 or absent EXCEPTION): with no
 * NextTask, SUCCESS goes to done and the rest to failure; with NextTask, task i says where the message
 * goes after its i-th bounce (Success / Failure / Exception, defaults done / failure / nohit).
 */
import { Message } from '../../src/message/message';
import { ComponentConfig, ConfigValue } from '../../src/runtime/component';
import { OutlinkEntries, readOutlinkEntries } from './outlink-entries';
import { NodeConfigError, rethrowAsNodeError } from './node-config-error';
import { ConfigReader } from '../support/config-values';
import { compileMessageFilter, MessageFilter } from '../../src/rules/message-filter';
import { Template } from '../../src/rules/template';
import { compileSubstitution, Substitution } from '../../src/rules/substitution';
import { writeField } from '../../src/rules/message-writer';
import { isRecord } from '../../src/rules/errors';
import { parseDisplayMask } from '../../src/logging/display';
import { closest } from '../../src/foundation/did-you-mean';

const NOHIT = 'nohit';
const DEFAULT_RC_FIELD = 'ReturnCode';
const DEFAULT_MAX_NUMBER_RULE = 512;
export const DONE_OUTLINK = 0;
export const FAILURE_OUTLINK = 1;
export const NOHIT_OUTLINK = 2;
export const FIRST_COLLECTIBLE = 3;

/** A CollectNode configuration value that cannot be used; `property` is a path such as "Ruleset/0/NextTask/1/Success". */
class CollectNodeConfigError extends NodeConfigError {
  override readonly name = 'CollectNodeConfigError';
}

/** Writes FieldName from Template (default `##FieldName##`) passed through Substitution. */
interface FieldFormat {
  readonly field: string;
  /** The formatted text, written into the message; throws when the template or substitution fails. */
  apply(msg: Message): string;
}

/** Where a bounced message goes, by return code, and what is done to it on the way. */
interface Task {
  readonly success: number;
  readonly failure: number;
  readonly exception: number;
  /** Written to RCField when the message leaves through failure or nohit after this task. */
  readonly errorCode: string | undefined;
  /** Applied (on SUCCESS) before the message is sent to this task's collectible. */
  readonly format: FieldFormat | undefined;
  readonly displayMask: number;
}

export interface CollectRuleset {
  readonly name: string;
  /** undefined for nohit. */
  readonly filter: MessageFilter | undefined;
  /** Outlink index of PreferredOutLink. */
  readonly preferred: number;
  /** Applied before the first send to a collectible. */
  readonly format: FieldFormat | undefined;
  /** The ruleset's own ErrorCode (for a message that leaves after the first bounce). */
  readonly errorCode: string | undefined;
  readonly tasks: readonly Task[];
  readonly displayMask: number;
  readonly stringProperty: readonly string[];
}

export interface CollectNodeSettings {
  readonly name: string;
  readonly rcField: string;
  /** When set, "ruleset:task" is written there before each send to a collectible. */
  readonly tidField: string | undefined;
  readonly displayMask: number;
  readonly stringProperty: readonly string[];
  /** rulesets[0] is nohit. */
  readonly rulesets: readonly CollectRuleset[];
  readonly outlinkNames: readonly string[];
  readonly outlinkPartitions: readonly (string | undefined)[];
}

export const RULESET_KEYS = [
  'Name',
  'Description',
  'PreferredOutLink',
  'NextTask',
  'FieldName',
  'Template',
  'Substitution',
  'ErrorCode',
  'DisplayMask',
  'StringProperty',
  'JMSPropertyGroup',
  'XJMSPropertyGroup',
  'PatternGroup',
  'XPatternGroup',
] as const;
export const TASK_KEYS = ['Description', 'Success', 'Failure', 'Exception', 'ErrorCode', 'FieldName', 'Template', 'Substitution', 'DisplayMask'] as const;

export interface SettingsOptions {
  clock?: () => number;
  warn?: (property: string, text: string) => void;
}

function fieldFormat(component: string, ruleset: string, raw: Record<string, unknown>, clock: () => number): FieldFormat | undefined {
  const reader = new ConfigReader(component, raw as ComponentConfig);
  const field = reader.string('FieldName')?.trim();
  if (field === undefined || field === '') {
    for (const key of ['Template', 'Substitution']) {
      if (raw[key] !== undefined) throw new CollectNodeConfigError(component, key, 'has no FieldName to write', 'FieldName next to Template and Substitution');
    }
    return undefined;
  }
  const template = new Template(reader.string('Template') ?? `##${field}##`, { clock, where: { component, ruleset, key: 'Template' } });
  const substitution: Substitution | undefined =
    raw.Substitution === undefined ? undefined : compileSubstitution(raw.Substitution, { clock, where: { component, ruleset, key: 'Substitution' } });
  return {
    field,
    apply(msg) {
      const formatted = template.format(msg);
      const text = substitution === undefined ? formatted : substitution.apply(formatted);
      if (text === undefined) throw new Error(`substitution ${substitution?.source} failed on ${JSON.stringify(formatted)}`);
      writeField(msg, field, text, { clock });
      return text;
    },
  };
}

function outlinkIndex(component: string, property: string, value: string, names: readonly string[]): number {
  const i = names.indexOf(value.trim());
  if (i >= 0) return i;
  const guess = closest(value.trim(), [...names]);
  throw new CollectNodeConfigError(
    component,
    property,
    `${JSON.stringify(value)} is not one of the OutLink names${guess ? `; did you mean ${guess}?` : ''}`,
    `one of ${names.join(', ')}`,
  );
}

function parseTask(component: string, ruleset: string, raw: unknown, i: number, names: readonly string[], clock: () => number): Task {
  const where = `NextTask/${i}`;
  if (!isRecord(raw)) throw new CollectNodeConfigError(component, where, 'is not a map', 'a task map such as {"Success": "done", "Failure": "failure"}');
  try {
    const reader = new ConfigReader(component, raw as ComponentConfig);
    const link = (key: string, fallback: number) => {
      const v = reader.string(key);
      return v === undefined ? fallback : outlinkIndex(component, key, v, names);
    };
    return {
      success: link('Success', DONE_OUTLINK),
      failure: link('Failure', FAILURE_OUTLINK),
      exception: link('Exception', NOHIT_OUTLINK),
      errorCode: reader.string('ErrorCode') || undefined,
      format: fieldFormat(component, ruleset, raw, clock),
      displayMask: parseDisplayMask(reader.string('DisplayMask')),
    };
  } catch (e) {
    rethrowAsNodeError(CollectNodeConfigError, component, where, e);
  }
}

function namesOf(value: ConfigValue | undefined, component: string, property: string): string[] {
  if (value === undefined) return [];
  if (!isRecord(value)) throw new CollectNodeConfigError(component, property, 'is not a map', 'a map whose keys are property names (values are ignored)');
  return Object.keys(value);
}

function parseRuleset(
  component: string,
  raw: Record<string, unknown>,
  names: readonly string[],
  nodeMask: number,
  nodeNames: readonly string[],
  clock: () => number,
  warn: (text: string) => void,
): CollectRuleset {
  const reader = new ConfigReader(component, raw as ComponentConfig);
  const name = reader.required('Name').trim();
  if (name === NOHIT) throw new CollectNodeConfigError(component, 'Name', `"${NOHIT}" is reserved for the built-in ruleset`, 'another name');
  const preferred = outlinkIndex(component, 'PreferredOutLink', reader.required('PreferredOutLink'), names);
  const rawTasks = raw.NextTask ?? [];
  if (!Array.isArray(rawTasks)) throw new CollectNodeConfigError(component, 'NextTask', 'is not a list', 'a list of task maps');
  if (preferred < FIRST_COLLECTIBLE && (rawTasks.length > 0 || raw.FieldName !== undefined)) {
    warn(`PreferredOutLink ${names[preferred]} is a fixed outlink: messages go straight there, NextTask and FieldName are not used`);
  }
  return {
    name,
    filter: compileMessageFilter(raw, { component, ruleset: name }, { clock, warn }),
    preferred,
    format: fieldFormat(component, name, raw, clock),
    errorCode: reader.string('ErrorCode') || undefined,
    tasks: rawTasks.map((t, i) => parseTask(component, name, t, i, names, clock)),
    displayMask: reader.has('DisplayMask') ? parseDisplayMask(reader.string('DisplayMask')) : nodeMask,
    stringProperty: raw.StringProperty === undefined ? nodeNames : namesOf(raw.StringProperty as ConfigValue, component, 'StringProperty'),
  };
}

function outlinkEntries(component: string, value: ConfigValue | undefined): OutlinkEntries {
  const { names, partitions } = readOutlinkEntries(
    value,
    (property, problem, expected) => new CollectNodeConfigError(component, property, problem, expected),
    'a list: done, failure, nohit, then at least one collectible',
  );
  if (names.length <= FIRST_COLLECTIBLE)
    throw new CollectNodeConfigError(component, 'OutLink', `has ${names.length} entries`, 'done, failure, nohit and at least one collectible outlink');
  const fixed = new Set(names.slice(0, FIRST_COLLECTIBLE));
  const seen = new Set<string>();
  names.slice(FIRST_COLLECTIBLE).forEach((n, k) => {
    if (fixed.has(n) || seen.has(n))
      throw new CollectNodeConfigError(
        component,
        `OutLink/${FIRST_COLLECTIBLE + k}`,
        `names ${JSON.stringify(n)} again`,
        'collectible outlinks distinct from each other and from done, failure and nohit',
      );
    seen.add(n);
  });
  return { names, partitions };
}

/** Reads and compiles a CollectNode configuration. Throws CollectNodeConfigError when unusable. */
export function parseCollectNodeSettings(component: string, config: ComponentConfig, options: SettingsOptions = {}): CollectNodeSettings {
  const clock = options.clock ?? Date.now;
  const reader = new ConfigReader(component, config);
  let node: { rcField: string; tidField: string | undefined; displayMask: number; maxRules: number; stringProperty: string[] };
  try {
    node = {
      rcField: reader.string('RCField', DEFAULT_RC_FIELD).trim() || DEFAULT_RC_FIELD,
      tidField: reader.string('TidField')?.trim() || undefined,
      displayMask: parseDisplayMask(reader.string('DisplayMask')),
      maxRules: reader.int('MaxNumberRule', DEFAULT_MAX_NUMBER_RULE, { min: 1 }),
      stringProperty: namesOf(config.StringProperty, component, 'StringProperty'),
    };
  } catch (e) {
    rethrowAsNodeError(CollectNodeConfigError, component, '', e);
  }
  const { names, partitions } = outlinkEntries(component, config.OutLink);
  const rawRulesets = config.Ruleset ?? [];
  if (!Array.isArray(rawRulesets)) throw new CollectNodeConfigError(component, 'Ruleset', 'is not a list', 'a list of ruleset maps');
  if (rawRulesets.length + 1 > node.maxRules)
    throw new CollectNodeConfigError(component, 'Ruleset', `has ${rawRulesets.length} rulesets plus ${NOHIT}`, `at most MaxNumberRule = ${node.maxRules}`);
  const nohit: CollectRuleset = {
    name: NOHIT,
    filter: undefined,
    preferred: NOHIT_OUTLINK,
    format: undefined,
    errorCode: undefined,
    tasks: [],
    displayMask: node.displayMask,
    stringProperty: node.stringProperty,
  };
  const rulesets: CollectRuleset[] = [nohit];
  const seen = new Set<string>();
  rawRulesets.forEach((raw, i) => {
    if (!isRecord(raw)) throw new CollectNodeConfigError(component, `Ruleset/${i}`, 'is not a map', 'a ruleset map with Name and PreferredOutLink');
    let rs: CollectRuleset;
    try {
      rs = parseRuleset(component, raw, names, node.displayMask, node.stringProperty, clock, (t) => options.warn?.(`Ruleset/${i}`, t));
    } catch (e) {
      rethrowAsNodeError(CollectNodeConfigError, component, `Ruleset/${i}`, e);
    }
    if (seen.has(rs.name))
      throw new CollectNodeConfigError(component, `Ruleset/${i}/Name`, `${JSON.stringify(rs.name)} is used by an earlier ruleset`, 'unique ruleset names');
    seen.add(rs.name);
    rulesets.push(rs);
  });
  return {
    name: component,
    rcField: node.rcField,
    tidField: node.tidField,
    displayMask: node.displayMask,
    stringProperty: node.stringProperty,
    rulesets,
    outlinkNames: names,
    outlinkPartitions: partitions,
  };
}

/** The return code a bounced message carries: an integer, or -1 (EXCEPTION) when absent or not a number. */
export function returnCode(msg: Message, rcField: string): number {
  const text = msg.getField(rcField)?.trim();
  if (text === undefined || !/^[-+]?\d+$/.test(text)) return -1;
  return Number(text);
}
