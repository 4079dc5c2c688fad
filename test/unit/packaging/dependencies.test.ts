/**
 * No unused dependency: every runtime dependency in package.json is imported by the shipped code (src/,
 * actors/), and every devDependency is used by the tests or the build (imported by a test or by a tool's
 * configuration file such as eslint.config.mjs, named in an npm script or the jest configuration, or a type package tsconfig.json loads or whose library is imported and
 * ships no declarations of its own).
 * A dependency nothing uses is dead weight for every installation; remove it instead of keeping it here.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
  jest: unknown;
};
const tsconfig = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: { types?: string[] } };

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' || e.name === 'node_modules' ? [] : sourceFiles(rel);
    return /\.(ts|js|mjs|cjs)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** The packages a file imports or requires (the package name of each non-relative specifier). */
function importedPackages(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\brequire\(\s*|\bimport\(\s*|^import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]);
  return specifiers
    .filter((s) => !s.startsWith('.') && !s.startsWith('node:'))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]));
}

/** A library that ships its own declarations needs no @types package (amqplib 2 does, for example). */
function shipsOwnTypes(name: string): boolean {
  const dir = path.join(ROOT, 'node_modules', name);
  if (!fs.existsSync(path.join(dir, 'package.json'))) return false;
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { types?: string; typings?: string };
  return meta.types !== undefined || meta.typings !== undefined || fs.existsSync(path.join(dir, 'index.d.ts'));
}

function importsUnder(...dirs: string[]): Set<string> {
  return new Set(dirs.flatMap(sourceFiles).flatMap(importedPackages));
}

/** The tools' configuration files at the top of the repository (eslint.config.mjs). */
function toolConfigFiles(): string[] {
  return fs.readdirSync(ROOT).filter((name) => /\.config\.(ts|js|mjs|cjs)$/.test(name));
}

describe('package.json dependencies', () => {
  const shipped = importsUnder('src', 'actors');
  const testsAndBuild = new Set([...importsUnder('test'), ...toolConfigFiles().flatMap(importedPackages)]);
  const configText = JSON.stringify(pkg.scripts) + JSON.stringify(pkg.jest);
  const loadedTypes = new Set(tsconfig.compilerOptions.types ?? []);

  it.each(Object.keys(pkg.dependencies))('uses the runtime dependency %s in src/ or actors/', (name) => {
    expect(shipped).toContain(name);
  });

  it.each(Object.keys(pkg.devDependencies))('uses the devDependency %s in the tests or the build', (name) => {
    const typesOf = name.startsWith('@types/') ? name.slice('@types/'.length) : undefined;
    const binary = name === 'typescript' ? 'tsc' : name;
    const used =
      testsAndBuild.has(name) ||
      configText.includes(binary) ||
      (typesOf !== undefined && (loadedTypes.has(typesOf) || ((shipped.has(typesOf) || testsAndBuild.has(typesOf)) && !shipsOwnTypes(typesOf))));
    expect(used ? name : `${name} (unused)`).toBe(name);
  });

  it('does not list a package both as a dependency and a devDependency', () => {
    expect(Object.keys(pkg.dependencies).filter((d) => d in pkg.devDependencies)).toEqual([]);
  });
});
