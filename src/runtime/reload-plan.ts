/**
 * The plan of a reload (docs/operations.md#changing-a-running-flow): per component by name, on its normalised
 * configuration plus the content of the files it reads, and per link by name and capacity. Pure: it reads files
 * to fingerprint them and changes nothing.
 */
import { createHash } from 'crypto';
import { readFileSync } from 'fs';
import type { ComponentSpec, Topology } from './topology-types';
import { componentFileReferences } from './referenced-files';
import type { ComponentChange, LinkChange, ReloadPlan } from './reload-receipt';

/** What a component is compared on: its configuration (keys sorted) and a hash per file it reads. */
export interface ComponentFingerprint {
  readonly className: string;
  readonly role: string;
  readonly config: string;
  readonly policy: string;
  /** Property naming the file -> "path sha256" (or "path missing"). */
  readonly files: ReadonlyMap<string, string>;
}

/** The definition a running flow was started or last reloaded with, as a plan compares it. */
export interface RunningDefinition {
  readonly topology: Topology;
  readonly fingerprints: ReadonlyMap<string, ComponentFingerprint>;
  /** Messages a link holds now (for the plan's LinkChange.held). */
  readonly held: (link: string) => number;
}

/** At most this many differing properties are named per component (the receipt stays one readable line). */
const MAX_CHANGES_LISTED = 12;

export function fingerprintComponent(spec: ComponentSpec, pluginDirs: readonly string[]): ComponentFingerprint {
  const files = new Map<string, string>();
  // The component's own file is compared through its configuration: an inline component's file is the topology.
  for (const ref of componentFileReferences(spec, pluginDirs)) if (ref.property !== '(file)') files.set(ref.property, `${ref.file} ${contentHash(ref.file)}`);
  return { className: spec.definition.className, role: spec.role, config: canonicalJson(spec.config), policy: canonicalJson(spec.policy), files };
}

export function fingerprintTopology(topology: Topology): Map<string, ComponentFingerprint> {
  return new Map(topology.components.map((spec) => [spec.name, fingerprintComponent(spec, topology.pluginDirs)]));
}

/** What differs between two fingerprints of one component: property paths, "<property> content", or [] when equal. */
function fingerprintChanges(before: ComponentFingerprint, after: ComponentFingerprint): string[] {
  const out: string[] = [];
  if (before.className !== after.className) out.push('ClassName');
  if (before.role !== after.role) out.push('role');
  if (before.config !== after.config) diffPaths(JSON.parse(before.config) as unknown, JSON.parse(after.config) as unknown, '', out);
  if (before.policy !== after.policy && !out.includes('Supervision')) out.push('Supervision');
  for (const property of new Set([...before.files.keys(), ...after.files.keys()])) {
    const a = before.files.get(property);
    const b = after.files.get(property);
    if (a === b) continue;
    const sameFile = a !== undefined && b !== undefined && a.split(' ')[0] === b.split(' ')[0];
    const label = `${property} content`;
    if (sameFile && !out.includes(label)) out.push(label);
    else if (!sameFile && !out.includes(property)) out.push(property);
  }
  return out.length > MAX_CHANGES_LISTED ? [...out.slice(0, MAX_CHANGES_LISTED), `and ${out.length - MAX_CHANGES_LISTED} more`] : out;
}

/** The plan from `current` to `next` (whose fingerprints are `nextFingerprints`). */
export function planReload(current: RunningDefinition, next: Topology, nextFingerprints: ReadonlyMap<string, ComponentFingerprint>): ReloadPlan {
  const components: ComponentChange[] = [];
  for (const spec of next.components) {
    const before = current.fingerprints.get(spec.name);
    const after = nextFingerprints.get(spec.name)!;
    if (before === undefined) {
      components.push({ name: spec.name, className: spec.definition.className, action: 'added' });
      continue;
    }
    const changed = fingerprintChanges(before, after);
    components.push(
      changed.length === 0
        ? { name: spec.name, className: spec.definition.className, action: 'kept' }
        : { name: spec.name, className: spec.definition.className, action: 'replaced', changed },
    );
  }
  for (const spec of current.topology.components) {
    if (!nextFingerprints.has(spec.name)) components.push({ name: spec.name, className: spec.definition.className, action: 'removed' });
  }
  const links: LinkChange[] = [];
  for (const link of next.links.values()) {
    const before = current.topology.links.get(link.name);
    if (before === undefined) links.push({ name: link.name, action: 'added', capacity: { to: link.capacity } });
    else if (before.capacity === link.capacity) links.push({ name: link.name, action: 'kept', capacity: { from: before.capacity, to: link.capacity } });
    else links.push({ name: link.name, action: 'resized', capacity: { from: before.capacity, to: link.capacity }, held: current.held(link.name) });
  }
  for (const link of current.topology.links.values()) {
    if (!next.links.has(link.name)) links.push({ name: link.name, action: 'removed', capacity: { from: link.capacity }, held: current.held(link.name) });
  }
  return { flow: current.topology.name, components, links };
}

/** Nothing in the plan changes anything. */
export function planIsEmpty(plan: ReloadPlan): boolean {
  return plan.components.every((c) => c.action === 'kept') && plan.links.every((l) => l.action === 'kept');
}

function contentHash(file: string): string {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return 'missing';
  }
}

/** JSON with object keys sorted, so that two equal configurations compare equal whatever their key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((k) => [k, sortKeys(record[k])]),
  );
}

/** Paths (a/0/b) where two JSON values differ, deepest first named; values are never listed (they may be secrets). */
function diffPaths(a: unknown, b: unknown, at: string, out: string[]): void {
  if (out.length > MAX_CHANGES_LISTED) return;
  const bothObjects = typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && Array.isArray(a) === Array.isArray(b);
  if (!bothObjects) {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(at === '' ? '(configuration)' : at);
    return;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
    diffPaths(ra[key], rb[key], at === '' ? key : `${at}/${key}`, out);
  }
}
