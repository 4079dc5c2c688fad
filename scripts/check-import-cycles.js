/**
 * The import-cycle gate of `npm run lint`: the files of src/, actors/ and test/ import one another without a
 * cycle, and so do their folders (a folder imports another when one of its files does), so the layers of
 * docs/architecture.md stay a DAG. A type-only import counts: it ties the two modules' designs together as much.
 *
 * Usage: node scripts/check-import-cycles.js [root]   (root: the repository, by default; exit 1 on a cycle)
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const SCANNED = ['src', 'actors', 'test'];
const SKIPPED = new Set(['node_modules', 'dist', 'fixtures']);

/** The .ts files under `dir`, test fixtures (data, not code) excepted. */
function sourceFiles(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) sourceFiles(full, out);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      out.push(full);
    }
  }
  return out;
}

/** The file a relative module specifier names, as TypeScript resolves it here; undefined for a package. */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base]) {
    if (candidate.endsWith('.ts') && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Every file's imports (import, export ... from, import type, require, import()) of other scanned files. */
function importGraph(root) {
  const files = SCANNED.flatMap((dir) => sourceFiles(path.join(root, dir)));
  const graph = new Map();
  for (const file of files) {
    const imported = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles;
    const targets = new Set();
    for (const { fileName } of imported) {
      const target = resolveSpecifier(file, fileName);
      if (target !== undefined && target !== file) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The folder graph: an edge per folder pair, with one file import that makes it (for the report). */
function folderGraph(root, files) {
  const graph = new Map();
  const witness = new Map();
  for (const [file, targets] of files) {
    const from = path.relative(root, path.dirname(file));
    if (!graph.has(from)) graph.set(from, new Set());
    for (const target of targets) {
      const to = path.relative(root, path.dirname(target));
      if (to === from) continue;
      graph.get(from).add(to);
      const key = `${from} -> ${to}`;
      if (!witness.has(key)) witness.set(key, `${path.relative(root, file)} imports ${path.relative(root, target)}`);
    }
  }
  return { graph, witness };
}

/** Strongly connected components with more than one member (Tarjan, iterative: deep graphs do not overflow). */
function cycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [{ node: start, next: [...(graph.get(start) ?? [])], i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.i < frame.next.length) {
        const w = frame.next[frame.i++];
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, next: [...(graph.get(w) ?? [])], i: 0 });
        } else if (onStack.has(w)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(w)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) low.set(work[work.length - 1].node, Math.min(low.get(work[work.length - 1].node), low.get(frame.node)));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          component.push(w);
        } while (w !== frame.node);
        if (component.length > 1) found.push(component);
      }
    }
  }
  return found;
}

/** One closed path through a component, for a readable report: a -> b -> ... -> a. */
function pathThrough(graph, component) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const route = [start];
        for (let at = node; at !== start; at = previous.get(at)) route.splice(1, 0, at);
        return [...route, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return component;
}

/** The cycles of the tree at `root`, each as lines of text; empty when the imports form a DAG. */
function findImportCycles(root) {
  const files = importGraph(root);
  const { graph: folders, witness } = folderGraph(root, files);
  const problems = [];
  for (const component of cycles(files)) {
    problems.push(
      `import cycle between files: ${pathThrough(files, component)
        .map((f) => path.relative(root, f))
        .join(' -> ')}`,
    );
  }
  for (const component of cycles(folders)) {
    const route = pathThrough(folders, component);
    const why = route.slice(1).map((to, i) => `  ${witness.get(`${route[i]} -> ${to}`)}`);
    problems.push([`import cycle between folders: ${route.join(' -> ')}`, ...why].join('\n'));
  }
  return problems;
}

if (require.main === module) {
  const root = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
  const problems = findImportCycles(root);
  for (const problem of problems) console.error(problem);
  process.exit(problems.length === 0 ? 0 : 1);
}

module.exports = { findImportCycles };
