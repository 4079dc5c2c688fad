/**
 * Every file a topology reads (docs/operations.md#changing-a-running-flow): what `xroute run --watch` watches and
 * what a reload fingerprints to see that a component changed although its configuration did not.
 *
 * Found without running anything: the topology file, each component's own file (ConfigDir), every string under
 * a property named `...File` (TemplateFile, XSLFile, JTMPFile, JSONataFile, CertFile, KeyFile, CAFile, at any
 * depth: rulesets nest them), every `${file:...}` reference in those files, and every plugin module a nested
 * `ClassName` names inside the topology's PluginDir (looked up as the component would, never loaded).
 */
import { readFileSync } from 'fs';
import * as path from 'path';
import type { ComponentSpec, Topology } from './topology-types';
import { resolvePluginModule } from './plugin-module';

/** One file a component reads, and the property that names it ("Ruleset/0/XSLFile", "ClassName", "(file)"). */
export interface FileReference {
  readonly property: string;
  readonly file: string;
}

/** Properties whose value is a file the component reads (resolved against the component's directory). */
const FILE_PROPERTY = /File$/;
/** A `${file:...}` reference (src/config/references.ts), read when the configuration is loaded. */
const FILE_REFERENCE = /\$\{file:([^}]*)\}/g;

/** The files one component reads: its own configuration file and what that configuration names. */
export function componentFileReferences(spec: ComponentSpec, pluginDirs: readonly string[]): FileReference[] {
  const out: FileReference[] = [{ property: '(file)', file: spec.file }];
  const walk = (value: unknown, property: string, depth: number): void => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, join(property, String(i)), depth + 1));
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const at = join(property, key);
      if (typeof v === 'string' && v.trim() !== '') {
        if (FILE_PROPERTY.test(key)) out.push({ property: at, file: path.resolve(spec.baseDir, v) });
        else if (key === 'ClassName' && depth > 0) {
          const plugin = resolvePluginModule(v, pluginDirs);
          if (plugin !== undefined) out.push({ property: at, file: plugin });
        }
      } else walk(v, at, depth + 1);
    }
  };
  walk(spec.config, '', 0);
  for (const file of fileReferencesIn(spec.file)) out.push({ property: '${file:}', file });
  return dedupe(out);
}

/** Every file `topology` reads, absolute and sorted, each once. */
export function referencedFiles(topology: Topology): string[] {
  const files = new Set<string>([topology.file, ...fileReferencesIn(topology.file)]);
  for (const spec of topology.components) for (const ref of componentFileReferences(spec, topology.pluginDirs)) files.add(ref.file);
  return [...files].sort();
}

/** The files named by `${file:...}` in a configuration file (none when it cannot be read: the loader says why). */
function fileReferencesIn(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return [...text.matchAll(FILE_REFERENCE)].map((m) => path.resolve(path.dirname(file), m[1]));
}

function dedupe(refs: FileReference[]): FileReference[] {
  const seen = new Set<string>();
  return refs.filter((r) => {
    const key = `${r.property}\u0000${r.file}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function join(parent: string, key: string): string {
  return parent === '' ? key : `${parent}/${key}`;
}
