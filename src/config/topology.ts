/**
 * Loads a topology in QBroker's flow form (docs/topology.md) and checks it completely before
 * anything starts: every problem is collected and reported at once, each naming file, component,
 * property and what was expected.
 *
 * Link capacity rule: a link gets the Capacity given where it is first named with one — an OutLink map
 * entry, else the Capacity of a component reading it (the original sizes a node's input by the node),
 * else of the receiver writing it, else the flow's Capacity, else 256.
 */
import { integerAtLeast } from '../foundation/integer-text';
import { existsSync } from 'fs';
import * as path from 'path';
import { ComponentConfig, ComponentRegistry, Role } from '../runtime/component';
import { DEFAULT_POLICY, parseSupervision, SupervisionConfig, SupervisionPolicy } from '../runtime/supervision-policy';
import { ConfigError, ConfigProblem, describeFileError, describeValue, JsonSyntaxError, tooDeepAt, withoutContext } from './errors';
import { parseJsonText, readJsonFile } from './json-file';
import { tooDeepProblem, validateComponentConfig, validateFlowProperties } from './validate-component';
import { findCycles } from './link-cycles';
import { closest, didYouMean } from '../foundation/did-you-mean';
import { FLOW_PROPERTIES } from '../foundation/common-schema';
import type { ComponentSpec, LinkSpec, OutLinkSpec, Topology, TopologySource } from '../runtime/topology-types';
import { formatProblem } from './errors';
import { issueOf } from './config-issues';
import { readFileSync } from 'fs';
import { SupervisionConfigError } from '../runtime/errors';

const DEFAULT_LINK_CAPACITY = 256;

export type { Topology };

const LISTS: readonly { key: 'Receiver' | 'Node' | 'Persister'; role: Role }[] = [
  { key: 'Receiver', role: 'receiver' },
  { key: 'Node', role: 'node' },
  { key: 'Persister', role: 'persister' },
];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Is this JSON a topology (it lists components) rather than one component's configuration? */
export function isTopologyJson(json: unknown): boolean {
  return isRecord(json) && LISTS.some(({ key }) => Array.isArray(json[key]));
}

/** How a reload reads the next topology and words its problems: as loadTopology and `xroute validate` do. */
function topologySource(registry: ComponentRegistry): TopologySource {
  return {
    load: (file) => loadTopology(file, registry),
    describeLoadError: (e, file) => {
      if (e instanceof ConfigError)
        return e.problems
          .filter((p) => p.severity === 'error')
          .map(formatProblem)
          .join('\n');
      if (e instanceof JsonSyntaxError)
        return formatProblem({
          file,
          component: '',
          property: '',
          message: `invalid JSON at line ${e.line}, column ${e.column}: ${e.reason}`,
          severity: 'error',
        });
      return formatProblem({ file, component: '', property: '', message: describeFileError(e), severity: 'error' });
    },
    describeSettingsError: (e, spec) => {
      const issue = issueOf(e);
      return describeProblem(spec, issue.property, issue.message);
    },
    describeProblem,
  };
}

function describeProblem(where: { readonly file: string; readonly name: string }, property: string, message: string): string {
  return formatProblem({ file: where.file, component: where.name, property, message: withoutContext(where.name, property, message), severity: 'error' });
}

/** Loads and validates a topology file; throws ConfigError (every problem) or JsonSyntaxError. */
export function loadTopology(file: string, registry: ComponentRegistry): Topology {
  const abs = path.resolve(file);
  const json = readJsonFile(abs);
  return buildTopology(json, abs, registry);
}

export function buildTopology(json: unknown, file: string, registry: ComponentRegistry): Topology {
  const problems: ConfigProblem[] = [];
  const err = (component: string, property: string, message: string, f = file) => problems.push({ file: f, component, property, message, severity: 'error' });
  const warn = (component: string, property: string, message: string, f = file) =>
    problems.push({ file: f, component, property, message, severity: 'warning' });
  const baseDir = path.dirname(file);
  if (!isRecord(json)) throw new ConfigError([{ file, component: '(flow)', property: '', message: 'expected a JSON object', severity: 'error' }]);
  const FLOW = '(flow)';
  const deep = tooDeepAt(json);
  if (deep !== undefined) {
    const [first, ...rest] = deep.split('/');
    const inComponent = rest.length > 0 && LISTS.some(({ key }) => Array.isArray(json[key]) && (json[key] as unknown[]).includes(first));
    const p = tooDeepProblem(inComponent ? rest.join('/') : deep);
    throw new ConfigError([{ file, component: inComponent ? first : FLOW, property: p.property, message: p.message, severity: 'error' }]);
  }
  const flowName = typeof json.Name === 'string' ? json.Name : path.basename(file, '.json');

  // flow-level properties
  const flowProblems = validateFlowProperties(json);
  for (const p of flowProblems) err(FLOW, p.property, p.message);
  const flowCapacity = positiveInt(json.Capacity) ?? DEFAULT_LINK_CAPACITY;

  let flowPolicy = DEFAULT_POLICY;
  if (!flowProblems.some((p) => p.property.startsWith('Supervision')))
    flowPolicy = supervisionOf(json.Supervision, DEFAULT_POLICY, (m) => err(FLOW, 'Supervision', m));

  const pluginDirs = ([] as unknown[])
    .concat(json.PluginDir ?? [])
    .filter((d): d is string => typeof d === 'string')
    .map((d) => path.resolve(baseDir, d));
  const configDir = typeof json.ConfigDir === 'string' ? path.resolve(baseDir, json.ConfigDir) : baseDir;

  // the component lists
  const listed = new Map<string, Role>();
  for (const { key, role } of LISTS) {
    const list = json[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) continue; // reported above
    for (const name of list) {
      if (typeof name !== 'string') continue;
      if (listed.has(name)) err(name, '', `listed more than once (in ${key} and ${listed.get(name) === role ? key : listed.get(name)})`);
      else listed.set(name, role);
    }
  }
  if (listed.size === 0) err(FLOW, '', 'lists no component: expected Receiver, Node or Persister lists of component names');

  // keys that are neither flow properties nor listed components
  for (const key of Object.keys(json)) {
    if (key in FLOW_PROPERTIES || listed.has(key)) continue;
    if (isRecord(json[key]) && 'ClassName' in (json[key] as object)) {
      const guess = closest(key, listed.keys());
      warn(key, '', `a component configuration that no Receiver, Node or Persister list names${guess ? `; did you mean ${guess}?` : ''}`);
    } else {
      const guess = closest(key, Object.keys(FLOW_PROPERTIES));
      err(FLOW, key, `unknown flow property${guess ? `; did you mean ${guess}?` : ''}`);
    }
  }

  // each component
  const specs: ComponentSpec[] = [];
  for (const [name, role] of listed) {
    let config: unknown = json[name];
    let compFile = file;
    if (config === undefined) {
      compFile = path.join(configDir, `${name}.json`);
      if (!existsSync(compFile)) {
        err(name, '', `no inline configuration and no file ${compFile}`);
        continue;
      }
      try {
        config = parseJsonText(readFileSync(compFile, 'utf8'), compFile, false);
      } catch (e) {
        if (e instanceof JsonSyntaxError) err(name, '', `invalid JSON at line ${e.line}, column ${e.column}: ${e.reason}`, compFile);
        else if (e instanceof ConfigError) problems.push(...e.problems.map((p) => ({ ...p, component: name })));
        else err(name, '', describeFileError(e), compFile);
        continue;
      }
      const deepInFile = tooDeepAt(config);
      if (deepInFile !== undefined) {
        const p = tooDeepProblem(deepInFile);
        err(name, p.property, p.message, compFile);
        continue;
      }
    }
    if (!isRecord(config)) {
      err(name, '', 'expected a JSON object with the component properties', compFile);
      continue;
    }
    const className = config.ClassName;
    if (typeof className !== 'string' || className.trim() === '') {
      err(name, 'ClassName', 'is required: the implementation class, e.g. "org.qbroker.receiver.RMQReceiver"', compFile);
      continue;
    }
    const def = registry.find(className);
    if (!def) {
      err(name, 'ClassName', unknownClassMessage(className, registry), compFile);
      continue;
    }
    if (def.role !== role) {
      err(name, 'ClassName', `${className} is a ${def.role}, but ${name} is listed under ${LISTS.find((l) => l.role === role)!.key}`, compFile);
      continue;
    }
    if (typeof config.Name === 'string' && config.Name !== name)
      warn(name, 'Name', `differs from the component's key ${JSON.stringify(name)}; the key is used`, compFile);
    const compDir = path.dirname(compFile);
    const componentProblems = validateComponentConfig(def, config, compDir, { pluginDirs, registry });
    for (const p of componentProblems) {
      problems.push({ file: compFile, component: name, property: p.property, message: withoutContext(name, p.property, p.message), severity: p.severity });
    }
    const linkName = typeof config.LinkName === 'string' ? config.LinkName.trim() : '';
    if (linkName === '') err(name, 'LinkName', 'is required in a topology: the XQueue this component ' + (role === 'receiver' ? 'writes' : 'reads'), compFile);
    const outLinks: OutLinkSpec[] = [];
    if (role === 'node') {
      const raw = config.OutLink;
      if (!Array.isArray(raw) || raw.length === 0) {
        if (raw !== undefined && !Array.isArray(raw)) err(name, 'OutLink', 'expected a list of link names or {Name, Capacity, Partition} maps', compFile);
        else if (raw === undefined) err(name, 'OutLink', 'is required for a node: a list of link names or {Name, Capacity, Partition} maps', compFile);
      } else {
        raw.forEach((entry: unknown, i: number) => {
          if (typeof entry === 'string' && entry.trim() !== '') outLinks.push({ name: entry.trim() });
          else if (isRecord(entry) && typeof entry.Name === 'string' && entry.Name.trim() !== '') {
            let capacity: number | undefined;
            if (entry.Capacity !== undefined) {
              capacity = positiveInt(entry.Capacity);
              if (capacity === undefined)
                err(name, `OutLink/${i}/Capacity`, `${describeValue(entry.Capacity)}: expected a positive integer, e.g. "256"`, compFile);
            }
            outLinks.push({ name: entry.Name.trim(), capacity, partition: typeof entry.Partition === 'string' ? entry.Partition : undefined });
          } else err(name, `OutLink/${i}`, 'expected a link name or a map with Name (and optional Capacity, Partition)', compFile);
        });
      }
    }
    // a Supervision the schema refused is reported already; parsing it would only repeat that less clearly
    const policy = componentProblems.some((p) => p.property.startsWith('Supervision'))
      ? flowPolicy
      : supervisionOf(config.Supervision, flowPolicy, (m) => err(name, 'Supervision', m, compFile));
    specs.push({ name, role, definition: def, config: config as ComponentConfig, file: compFile, baseDir: compDir, linkName, outLinks, policy });
  }

  const links = buildLinks(specs, flowCapacity, err, warn);
  const order: Role[] = ['persister', 'node', 'receiver'];
  const components = order.flatMap((r) => specs.filter((s) => s.role === r));
  if (problems.some((p) => p.severity === 'error')) throw new ConfigError(problems);
  return { name: flowName, file, baseDir, pluginDirs, links, components, warnings: problems, source: topologySource(registry) };
}

type Report = (component: string, property: string, message: string) => void;

/** A "Capacity"-like value: a positive integer written as a string, or undefined. */
function positiveInt(v: unknown): number | undefined {
  return typeof v === 'string' ? integerAtLeast(v, 1) : undefined;
}

/** The policy a Supervision map gives over `base`; a problem goes to `report` in words (the base policy stays). */
function supervisionOf(value: unknown, base: SupervisionPolicy, report: (message: string) => void): SupervisionPolicy {
  if (value === undefined) return base;
  try {
    return parseSupervision(value as SupervisionConfig, base);
  } catch (e) {
    report(
      e instanceof SupervisionConfigError
        ? withoutContext('', 'Supervision', e.message).replace(/^Supervision\./, '')
        : 'expected a map with Strategy, MaxRetry, WithinSeconds, Backoff, MaxMessageAttempts as strings',
    );
    return base;
  }
}

/** An unknown ClassName: a did-you-mean when a known class is close, and the known classes. */
function unknownClassMessage(className: string, registry: ComponentRegistry): string {
  const known = registry.knownNames();
  const guess = registry.suggestion(className);
  const suggestion = guess ? `; did you mean ${guess}?` : '';
  return `unknown class ${describeValue(className)}${suggestion}; known classes: ${known.join(', ')}`;
}

function buildLinks(specs: ComponentSpec[], flowCapacity: number, err: Report, warn: Report): Map<string, LinkSpec> {
  const links = new Map<string, { name: string; capacity?: number; from?: string; writers: string[]; readers: string[] }>();
  const link = (name: string) => {
    let l = links.get(name);
    if (!l) links.set(name, (l = { name, writers: [], readers: [] }));
    return l;
  };
  const setCapacity = (name: string, capacity: number | undefined, from: string) => {
    if (capacity === undefined) return;
    const l = link(name);
    if (l.capacity === undefined) {
      l.capacity = capacity;
      l.from = from;
    } else if (l.capacity !== capacity) warn(from, 'Capacity', `link ${name} already has Capacity ${l.capacity} from ${l.from}; ${capacity} is ignored`);
  };
  const capacityOf = (s: ComponentSpec) => positiveInt(s.config.Capacity);

  for (const s of specs) {
    if (s.linkName === '') continue;
    if (s.role === 'receiver') link(s.linkName).writers.push(s.name);
    else link(s.linkName).readers.push(s.name);
    const seen = new Set<string>();
    const repeatable = s.definition.repeatableOutlinks ?? 0;
    s.outLinks.forEach((o, i) => {
      if (seen.has(o.name) && i >= repeatable) err(s.name, 'OutLink', `names link ${o.name} more than once; outlink names must be distinct`);
      if (!seen.has(o.name)) link(o.name).writers.push(s.name);
      seen.add(o.name);
    });
  }
  // precedence: OutLink map entries, readers' Capacity, writers' (receivers') Capacity, flow default
  for (const s of specs) for (const o of s.outLinks) setCapacity(o.name, o.capacity, s.name);
  for (const s of specs) if (s.role !== 'receiver' && s.linkName) setCapacity(s.linkName, capacityOf(s), s.name);
  for (const s of specs) if (s.role === 'receiver' && s.linkName) setCapacity(s.linkName, capacityOf(s), s.name);

  const out = new Map<string, LinkSpec>();
  // A link is created by being named, so a misspelt name makes two half links: one nobody reads, one nobody writes.
  const unread = [...links.values()].filter((l) => l.readers.length === 0).map((l) => l.name);
  const unwritten = [...links.values()].filter((l) => l.writers.length === 0).map((l) => l.name);
  for (const l of links.values()) {
    if (l.readers.length === 0) {
      const hint = didYouMean(l.name, unwritten);
      for (const w of new Set(l.writers))
        err(
          w,
          specs.find((s) => s.name === w)?.role === 'receiver' ? 'LinkName' : 'OutLink',
          `link ${JSON.stringify(l.name)} is read by no component (nothing would ever empty it)${hint}`,
        );
    }
    if (l.writers.length === 0) {
      const hint = didYouMean(l.name, unread);
      for (const r of l.readers)
        warn(r, 'LinkName', `link ${JSON.stringify(l.name)} has no writer in this topology (only messages sent through the API arrive)${hint}`);
    }
    out.set(l.name, { name: l.name, capacity: l.capacity ?? flowCapacity, writers: l.writers, readers: l.readers });
  }
  for (const cycle of findCycles(out)) {
    const around = cycle.map((step) => `${step.component} -> ${step.link}`).join(' -> ');
    err(
      cycle[0].component,
      'OutLink',
      `links form a cycle: ${around} -> ${cycle[0].component}. A message could circle for ever and the full links would wait on each other; expected links that lead away to a persister`,
    );
  }
  return out;
}

export function validateComponentJson(json: unknown, file: string, registry: ComponentRegistry): ConfigProblem[] {
  const name = isRecord(json) && typeof json.Name === 'string' ? json.Name : path.basename(file, '.json');
  if (!isRecord(json))
    return [{ file, component: name, property: '', message: 'expected a JSON object: a topology or a component configuration', severity: 'error' }];
  const className = json.ClassName;
  if (className === undefined) {
    return [
      {
        file,
        component: '',
        property: '',
        message: 'is neither a topology (it has no Receiver, Node or Persister list of component names) nor a component configuration (it has no ClassName)',
        severity: 'error',
      },
    ];
  }
  if (typeof className !== 'string')
    return [
      {
        file,
        component: name,
        property: 'ClassName',
        message: `${describeValue(className)}: expected the implementation class as a string, e.g. "org.qbroker.receiver.RMQReceiver"`,
        severity: 'error',
      },
    ];
  const deep = tooDeepAt(json);
  if (deep !== undefined) {
    const p = tooDeepProblem(deep);
    return [{ file, component: name, property: p.property, message: p.message, severity: 'error' }];
  }
  const def = registry.find(className);
  if (!def) return [{ file, component: name, property: 'ClassName', message: unknownClassMessage(className, registry), severity: 'error' }];
  return validateComponentConfig(def, json, path.dirname(file), { pluginDirs: [], registry }).map((p) => ({
    file,
    component: name,
    property: p.property,
    message: withoutContext(name, p.property, p.message),
    severity: p.severity,
  }));
}
