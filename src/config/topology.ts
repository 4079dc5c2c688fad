/**
 * Loads a topology in QBroker's flow form (design.md "Topology file") and checks it completely before
 * anything starts: every problem is collected and reported at once, each naming file, component,
 * property and what was expected.
 *
 * Link capacity rule: a link gets the Capacity given where it is first named with one — an OutLink map
 * entry, else the Capacity of a component reading it (the original sizes a node's input by the node),
 * else of the receiver writing it, else the flow's Capacity, else 256.
 */
import { existsSync } from 'fs';
import * as path from 'path';
import { AnyComponentDefinition, ComponentConfig, ComponentRegistry, Role } from '../runtime/component';
import { DEFAULT_POLICY, parseSupervision, SupervisionConfig, SupervisionPolicy } from '../runtime/supervision-policy';
import { ConfigError, ConfigProblem, JsonSyntaxError, withoutContext } from './errors';
import { parseJsonText, readJsonFile } from './json-file';
import { validateComponentConfig } from './validate-component';
import { closest } from './did-you-mean';
import { FLOW_PROPERTIES } from './common-schema';
import { readFileSync } from 'fs';

export const DEFAULT_LINK_CAPACITY = 256;

export interface OutLinkSpec {
  readonly name: string;
  readonly capacity?: number;
  readonly partition?: string;
}

export interface LinkSpec {
  readonly name: string;
  readonly capacity: number;
  readonly writers: string[];
  readonly readers: string[];
}

export interface ComponentSpec {
  readonly name: string;
  readonly role: Role;
  readonly definition: AnyComponentDefinition;
  readonly config: ComponentConfig;
  /** File holding this configuration; relative paths in it resolve against baseDir. */
  readonly file: string;
  readonly baseDir: string;
  readonly linkName: string;
  readonly outLinks: readonly OutLinkSpec[];
  readonly policy: SupervisionPolicy;
}

export interface Topology {
  readonly name: string;
  readonly file: string;
  readonly baseDir: string;
  readonly pluginDirs: readonly string[];
  readonly links: ReadonlyMap<string, LinkSpec>;
  /** In start order: persisters, then nodes, then receivers (consumers before producers). */
  readonly components: readonly ComponentSpec[];
  readonly warnings: readonly ConfigProblem[];
}

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

/** Loads and validates a topology file; throws ConfigError (every problem) or JsonSyntaxError. */
export function loadTopology(file: string, registry: ComponentRegistry): Topology {
  const abs = path.resolve(file);
  const json = readJsonFile(abs);
  return buildTopology(json, abs, registry);
}

export function buildTopology(json: unknown, file: string, registry: ComponentRegistry): Topology {
  const problems: ConfigProblem[] = [];
  const err = (component: string, property: string, message: string, f = file) => problems.push({ file: f, component, property, message, severity: 'error' });
  const warn = (component: string, property: string, message: string, f = file) => problems.push({ file: f, component, property, message, severity: 'warning' });
  const baseDir = path.dirname(file);
  if (!isRecord(json)) throw new ConfigError([{ file, component: '(flow)', property: '', message: 'expected a JSON object', severity: 'error' }]);
  const FLOW = '(flow)';
  const flowName = typeof json.Name === 'string' ? json.Name : path.basename(file, '.json');

  // flow-level scalar checks
  for (const [key, schema] of Object.entries(FLOW_PROPERTIES)) {
    const v = json[key];
    if (v === undefined) continue;
    const s = schema as { type?: string; pattern?: string; description?: string };
    if (s.type === 'string' && typeof v !== 'string') err(FLOW, key, `expected ${s.description ?? 'a string'}`);
    else if (s.type === 'string' && s.pattern && !new RegExp(s.pattern).test(v as string)) err(FLOW, key, `${JSON.stringify(v)}: expected ${s.description}`);
    else if (s.type === 'array' && (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))) err(FLOW, key, `expected ${s.description}`);
  }
  const flowCapacity = typeof json.Capacity === 'string' && /^\s*\d+\s*$/.test(json.Capacity) && Number(json.Capacity) > 0 ? Number(json.Capacity) : DEFAULT_LINK_CAPACITY;

  let flowPolicy = DEFAULT_POLICY;
  try {
    flowPolicy = parseSupervision(json.Supervision as SupervisionConfig | undefined);
  } catch (e) {
    err(FLOW, 'Supervision', (e as Error).message);
  }

  const pluginDirs = ([] as unknown[]).concat(json.PluginDir ?? []).filter((d): d is string => typeof d === 'string').map((d) => path.resolve(baseDir, d));
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
        config = parseJsonText(readFileSync(compFile, 'utf8'), compFile);
      } catch (e) {
        if (e instanceof JsonSyntaxError) err(name, '', `invalid JSON at line ${e.line}, column ${e.column}: ${e.reason}`, compFile);
        else err(name, '', (e as Error).message, compFile);
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
      err(name, 'ClassName', `unknown class ${JSON.stringify(className)}; known classes: ${registry.knownNames().join(', ')}`, compFile);
      continue;
    }
    if (def.role !== role) {
      err(name, 'ClassName', `${className} is a ${def.role}, but ${name} is listed under ${LISTS.find((l) => l.role === role)!.key}`, compFile);
      continue;
    }
    if (typeof config.Name === 'string' && config.Name !== name) warn(name, 'Name', `differs from the component's key ${JSON.stringify(name)}; the key is used`, compFile);
    const compDir = path.dirname(compFile);
    for (const p of validateComponentConfig(def, config, compDir, { pluginDirs, registry })) {
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
              if (typeof entry.Capacity === 'string' && /^\s*\d+\s*$/.test(entry.Capacity) && Number(entry.Capacity) > 0) capacity = Number(entry.Capacity);
              else err(name, `OutLink/${i}/Capacity`, `${JSON.stringify(entry.Capacity)}: expected a positive integer as a string`, compFile);
            }
            outLinks.push({ name: entry.Name.trim(), capacity, partition: typeof entry.Partition === 'string' ? entry.Partition : undefined });
          } else err(name, `OutLink/${i}`, 'expected a link name or a map with Name (and optional Capacity, Partition)', compFile);
        });
      }
    }
    let policy = flowPolicy;
    try {
      policy = parseSupervision(config.Supervision as SupervisionConfig | undefined, flowPolicy);
    } catch (e) {
      err(name, 'Supervision', (e as Error).message, compFile);
    }
    specs.push({ name, role, definition: def, config: config as ComponentConfig, file: compFile, baseDir: compDir, linkName, outLinks, policy });
  }

  const links = buildLinks(specs, flowCapacity, err, warn);
  const order: Role[] = ['persister', 'node', 'receiver'];
  const components = order.flatMap((r) => specs.filter((s) => s.role === r));
  if (problems.some((p) => p.severity === 'error')) throw new ConfigError(problems);
  return { name: flowName, file, baseDir, pluginDirs, links, components, warnings: problems };
}

type Report = (component: string, property: string, message: string) => void;

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
  const capacityOf = (s: ComponentSpec) => (typeof s.config.Capacity === 'string' && Number(s.config.Capacity) > 0 ? Number(s.config.Capacity) : undefined);

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
  for (const l of links.values()) {
    if (l.readers.length === 0) {
      for (const w of new Set(l.writers)) err(w, specs.find((s) => s.name === w)?.role === 'receiver' ? 'LinkName' : 'OutLink', `link ${JSON.stringify(l.name)} is read by no component (nothing would ever empty it)`);
    }
    if (l.writers.length === 0) for (const r of l.readers) warn(r, 'LinkName', `link ${JSON.stringify(l.name)} has no writer in this topology (only messages sent through the API arrive)`);
    out.set(l.name, { name: l.name, capacity: l.capacity ?? flowCapacity, writers: l.writers, readers: l.readers });
  }
  return out;
}

/** Validates a single component configuration (not a topology), e.g. one of the published samples. */
export function validateComponentFile(file: string, registry: ComponentRegistry): ConfigProblem[] {
  const abs = path.resolve(file);
  const json = readJsonFile(abs);
  return validateComponentJson(json, abs, registry);
}

export function validateComponentJson(json: unknown, file: string, registry: ComponentRegistry): ConfigProblem[] {
  const name = isRecord(json) && typeof json.Name === 'string' ? json.Name : path.basename(file, '.json');
  if (!isRecord(json)) return [{ file, component: name, property: '', message: 'expected a JSON object', severity: 'error' }];
  const className = json.ClassName;
  if (typeof className !== 'string') return [{ file, component: name, property: 'ClassName', message: 'is required: the implementation class', severity: 'error' }];
  const def = registry.find(className);
  if (!def) return [{ file, component: name, property: 'ClassName', message: `unknown class ${JSON.stringify(className)}; known classes: ${registry.knownNames().join(', ')}`, severity: 'error' }];
  return validateComponentConfig(def, json, path.dirname(file), { pluginDirs: [], registry }).map((p) => ({ file, component: name, property: p.property, message: withoutContext(name, p.property, p.message), severity: p.severity }));
}
