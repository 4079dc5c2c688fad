/**
 * Finding, loading and starting plugin modules (the factory each exports), for every component that
 * takes plugins (MessageEvaluator formatters, StreamPersister parsers). A module is looked up ONLY inside
 * the topology's `PluginDir`
 * directories: `<dir>/<ClassName>`, then with each source extension (`.js`, `.cjs`, `.ts`, `.cts`), then
 * with dots as path separators (`org.example.Upper` → `<dir>/org/example/Upper.js`, `.ts`, ...). A name
 * that would leave the directory (absolute, `..`, a symlink pointing outside) is never resolved.
 *
 * JavaScript modules are loaded with `require`. TypeScript modules are transpiled in memory with the
 * `typescript` package (types are erased, nothing is type-checked) and compiled as CommonJS modules in
 * their own directory, so their relative imports and node_modules resolve as for a `.js` file next to
 * them; each file is transpiled once per process.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import Module from 'node:module';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type * as TypeScript from 'typescript';
import { PluginLoadError } from './errors';

const SOURCE_EXTENSIONS = ['.js', '.cjs', '.ts', '.cts'];
const TYPESCRIPT = /\.c?ts$/;

function isInside(dir: string, file: string): boolean {
  const rel = relative(dir, file);
  return rel !== '' && !rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel);
}

/** Finds the plugin module inside one of the plugin directories; undefined when none holds it. */
export function resolvePluginModule(className: string, pluginDirs: readonly string[]): string | undefined {
  if (className === '' || isAbsolute(className) || className.split(/[\\/]/).includes('..')) return undefined;
  const dotted = className.replace(/\./g, '/');
  const candidates = [className, ...SOURCE_EXTENSIONS.map((e) => className + e), ...SOURCE_EXTENSIONS.map((e) => dotted + e)];
  for (const dir of pluginDirs) {
    if (!existsSync(dir)) continue;
    const realDir = realpathSync(dir);
    for (const c of candidates) {
      const file = resolve(realDir, c);
      if (!isInside(realDir, file) || !existsSync(file) || !statSync(file).isFile()) continue;
      if (isInside(realDir, realpathSync(file))) return realpathSync(file);
    }
  }
  return undefined;
}

const transpiled = new Map<string, unknown>();

function typescript(file: string): typeof TypeScript {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a .ts plugin appears, and may be absent (reported below)
    return require('typescript') as typeof TypeScript;
  } catch (e) {
    throw new PluginLoadError(
      file,
      `plugin ${file} is TypeScript, and the typescript package is not installed`,
      'npm install typescript, or a plugin compiled to .js',
      e,
    );
  }
}

/** Transpiles and runs a TypeScript module as CommonJS in its own directory; its exports. */
function loadTypeScript(file: string): unknown {
  const known = transpiled.get(file);
  if (known !== undefined) return known;
  const ts = typescript(file);
  const out = ts.transpileModule(readFileSync(file, 'utf8'), {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true, sourceMap: false },
  });
  const problem = out.diagnostics?.[0];
  if (problem !== undefined) {
    const at = problem.file && problem.start !== undefined ? problem.file.getLineAndCharacterOfPosition(problem.start) : undefined;
    const where = at ? ` (line ${at.line + 1}, column ${at.character + 1})` : '';
    throw new PluginLoadError(file, `cannot load plugin ${file}: ${ts.flattenDiagnosticMessageText(problem.messageText, '; ')}${where}`);
  }
  // Node's own CommonJS loader, as for a .js file in the same place (its require, paths and cache rules).
  const loader = Module as unknown as { _nodeModulePaths(dir: string): string[] };
  const m = new Module(file, module) as Module & { _compile(code: string, filename: string): void };
  m.filename = file;
  m.paths = loader._nodeModulePaths(dirname(file));
  m._compile(out.outputText, file);
  transpiled.set(file, m.exports);
  return m.exports;
}

/** The exports of a module found by resolvePluginModule; PluginLoadError when it cannot be loaded. */
function loadPluginModule(file: string): unknown {
  if (TYPESCRIPT.test(file)) return loadTypeScript(file);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a plugin's path is known only at run time, from the configuration
    return require(file);
  } catch (e) {
    throw new PluginLoadError(file, `cannot load plugin ${file}: ${(e as Error).message}`, undefined, e);
  }
}

/**
 * Loads a plugin module found by resolvePluginModule and calls its factory (the module itself, `default`
 * or `create`; a class is constructed) with `argument`. Shared by every component that takes plugins.
 */
export function createPluginInstance(file: string, argument: unknown): unknown {
  const mod = loadPluginModule(file);
  const m = mod as { default?: unknown; create?: unknown };
  const factory = typeof mod === 'function' ? mod : typeof m.default === 'function' ? m.default : m.create;
  if (typeof factory !== 'function')
    throw new PluginLoadError(file, `plugin ${file} exports no factory`, 'module.exports = (argument) => ({ format(msg) { ... } })');
  try {
    const isClass = /^class[\s{]/.test(Function.prototype.toString.call(factory));
    return isClass ? new (factory as new (a: unknown) => unknown)(argument) : (factory as (a: unknown) => unknown)(argument);
  } catch (e) {
    throw new PluginLoadError(file, `plugin ${file} failed to start: ${(e as Error).message}`, undefined, e);
  }
}
