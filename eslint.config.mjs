// ESLint flat config: `npm run lint` (zero warnings allowed; `npm test` runs it after the build).
// typescript-eslint's recommended rules without type information (type-checked linting re-runs the
// compiler and takes minutes on a shared two-core machine; `tsc` already checks types), plus the layer
// boundaries of the source tree as `no-restricted-imports` rules per file glob, and the barrel rule (no module of src/
// or actors/ imports through an index.ts that re-exports).
import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Folders of actors/ that every actor folder may import: shared libraries, not components. */
const SHARED_ACTOR_FOLDERS = ['support', 'stream'];

/** Component folders of actors/ (nodes, persisters, ...), read from the tree so a new folder is fenced too. */
const ACTOR_FOLDERS = readdirSync(new URL('./actors/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !SHARED_ACTOR_FOLDERS.includes(entry.name))
  .map((entry) => entry.name);

/**
 * What a module re-exports, per module it re-exports from ('./job-node' -> the names, or '*' for `export *`), and the
 * names it defines itself. Read from the source text: the re-exports of this tree are one statement each.
 */
function readExports(file) {
  // `X as Y` is imported from its module as X; `type X` is X.
  const importedName = (specifier) =>
    specifier
      .trim()
      .replace(/^type\s+/, '')
      .split(/\s+as\s+/)[0];
  const text = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8');
  const from = new Map();
  for (const [, list, module] of text.matchAll(/^export (?:type )?\{([^}]*)\} from '([^']+)'/gm)) {
    const names = list
      .split(',')
      .map(importedName)
      .filter((n) => n !== '');
    const known = from.get(module);
    from.set(module, known === '*' ? '*' : [...(known ?? []), ...names]);
  }
  for (const [, module] of text.matchAll(/^export \* from '([^']+)'/gm)) from.set(module, '*');
  const defined = [...text.matchAll(/^export (?:declare )?(?:abstract )?(?:const|let|async function|function|class|enum|interface|type) (\w+)/gm)].map(
    (m) => m[1],
  );
  return { from, defined };
}

/** A relative import path that climbs into `folder` of actors/ and names a file there other than its public modules. */
const internalsOf = (folder, publicModules) => `^(\\.\\./)+(actors/)?${folder}/(?!(${['index', ...publicModules].join('|')})$)`;
/** A relative import path that climbs into `folder` of actors/ at all (index or file). */
const anyOf = (folder) => `^(\\.\\./)+(actors/)?${folder}(/|$)`;

const SRC_MESSAGE = 'src/ is the lower layer: it never imports actors/. Only the composition root (src/index.ts, src/internal.ts, src/cli/**) wires actors in.';

/** The pattern that keeps src/ below the composition root out of actors/. */
const SRC_INTO_ACTORS = { regex: '(^|/)actors(/|$)', message: SRC_MESSAGE };

/**
 * The lower layers of src/ and the src/ folders each may import (docs/architecture.md, "Layers"); the folders
 * above them may import these freely, and no folder may close a cycle (scripts/check-import-cycles.js).
 */
const SRC_LAYERS = {
  foundation: [],
  message: ['foundation'],
  xqueue: ['foundation'],
  jms: ['foundation'],
  xml: ['foundation'],
  logging: ['foundation', 'message'],
  errors: ['foundation', 'logging'],
  parking: ['foundation'],
  tracing: ['foundation', 'message', 'logging'],
  runtime: ['foundation', 'message', 'xqueue', 'logging', 'errors', 'parking', 'tracing'],
};

const srcLayerBoundaries = Object.entries(SRC_LAYERS).map(([folder, allowed]) => ({
  name: `xroute/boundaries/src/${folder}`,
  files: [`src/${folder}/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          SRC_INTO_ACTORS,
          {
            // A sibling folder of src/ ('../x/...'); climbing out of src/ is the actors/ pattern's business.
            regex: `^\\.\\./(?!\\.\\./)${allowed.length === 0 ? '' : `(?!(${allowed.join('|')})(/|$))`}`,
            message: `src/${folder} may import ${allowed.length === 0 ? 'no other folder' : allowed.map((f) => `src/${f}`).join(', ')} (docs/architecture.md, "Layers").`,
          },
        ],
      },
    ],
  },
}));

/** Each actor folder's public surface: the modules its index.ts re-exports from, and the names it re-exports from each. */
const PUBLIC_SURFACE = new Map(
  ACTOR_FOLDERS.map((folder) => [
    folder,
    [...readExports(`actors/${folder}/index.ts`).from].map(([module, names]) => ({ module: posix.normalize(module), names })),
  ]),
);

/**
 * Rule (b): an actor folder imports from another actor folder only what that folder's index.ts names, from the module
 * that defines it (the index itself is a barrel, which the barrel rule below keeps out of src/ and actors/).
 */
const actorFolderBoundaries = ACTOR_FOLDERS.map((folder) => ({
  name: `xroute/boundaries/actors/${folder}`,
  files: [`actors/${folder}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: ACTOR_FOLDERS.filter((other) => other !== folder).flatMap((other) => {
          const surface = PUBLIC_SURFACE.get(other);
          const publicModules = surface.map((s) => s.module);
          const message = `actors/${folder} may import from actors/${other} only what actors/${other}/index.ts names, from the module that defines it.`;
          return [
            { regex: internalsOf(other, publicModules), message },
            ...surface.filter((s) => s.names !== '*').map((s) => ({ regex: `^(\\.\\./)+(actors/)?${other}/${s.module}$`, allowImportNames: s.names, message })),
          ];
        }),
      },
    ],
  },
}));

/** Files that may import a barrel: the package's entries, which are lists of re-exports by design, and the component registry. */
const BARREL_IMPORTERS = ['src/index.ts', 'src/internal.ts', 'actors/index.ts'];

/** `folder` and the folders under it, at every depth, as paths from the repository root. */
function foldersUnder(folder) {
  const below = readdirSync(new URL(`./${folder}/`, import.meta.url), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return [folder, ...below.flatMap((entry) => foldersUnder(`${folder}/${entry.name}`))];
}

/** The folders of src/ and actors/, at every depth. */
const SOURCE_FOLDERS = [...foldersUnder('src'), ...foldersUnder('actors')];

/**
 * The barrels of src/ and actors/: each index.ts that re-exports, and src/internal.ts (module path without `.ts`,
 * and the names it defines itself, which may be imported from it).
 */
const BARRELS = SOURCE_FOLDERS.flatMap((folder) => (readdirSync(new URL(`./${folder}/`, import.meta.url)).includes('index.ts') ? [`${folder}/index.ts`] : []))
  .concat('src/internal.ts')
  .map((file) => ({ file, ...readExports(file) }))
  .filter((barrel) => barrel.from.size > 0);

/** A relative import of `target` (a path from the root, without `.ts`) from a file in `folder`, as TypeScript writes it. */
function relativeImport(folder, target) {
  const rel = posix.relative(folder, target);
  if (rel === '') return '.';
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/**
 * The barrel rule: a module of src/ or actors/ imports a name from the module that defines it, never through a barrel.
 * Compiled to CommonJS, a re-export is a getter on the barrel's exports object: each use of the name through it is a
 * getter call the optimiser does not inline (about 15 ns, docs/operations.md#tracing). Tests may import barrels.
 * One block per folder, since the import paths are relative; @typescript-eslint's copy of no-restricted-imports, so
 * that these blocks and the layer blocks above (which own the core rule) do not replace each other's options.
 */
const barrelImports = SOURCE_FOLDERS.map((folder) => ({
  name: `xroute/barrels/${folder}`,
  files: [`${folder}/*.ts`],
  ignores: BARREL_IMPORTERS,
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: BARRELS.flatMap((barrel) => {
          const module = barrel.file.replace(/\.ts$/, '');
          const specifiers = module.endsWith('/index')
            ? [relativeImport(folder, posix.dirname(module)), relativeImport(folder, module)]
            : [relativeImport(folder, module)];
          const message = `${barrel.file} re-exports: import from the module that defines the name (a call through a re-export is a getter call, docs/operations.md#tracing).`;
          return specifiers.map((name) => ({ name, message, ...(barrel.defined.length > 0 ? { allowImportNames: barrel.defined } : {}) }));
        }),
      },
    ],
  },
}));

export default defineConfig(
  // Build output, scratch space, and test fixtures (data: plugins that are meant to be broken or hostile).
  globalIgnores(['dist/**', '.tmp/**', 'coverage/**', 'test/fixtures/**'], 'xroute/ignores'),
  {
    name: 'xroute/files',
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    name: 'xroute/language',
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.node },
    },
    linterOptions: {
      // A disable comment that no longer suppresses anything is reported, so stale ones cannot pile up.
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // `import rhea = require('rhea')` is TypeScript's typed import of an `export =` module; plain require() stays an error.
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
      // Generated code must say why it is safe: codegen.ts compiles rules to functions on purpose.
      'no-new-func': 'error',
      'no-implied-eval': 'error',
      // `_`-prefixed names mark parameters and destructured values kept on purpose (interface shapes).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    name: 'xroute/commonjs-scripts',
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: {
      // The plain .js files are CommonJS scripts run by node directly (test runner, jest setup, brokers).
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    name: 'xroute/tests',
    // The test/**/*.js files are scripts (runner, jest global setup, broker control), not test files.
    files: ['test/**/*.ts'],
    languageOptions: { globals: { ...globals.jest } },
    rules: {
      // Actors stopped after fake timers call Node's real clearImmediate on a fake immediate: that corrupts Node's
      // count of pending immediates for the rest of the jest worker, whose later test files then crawl (one
      // setImmediate turn per timer wake-up). Tests use real timers with short intervals instead.
      'no-restricted-properties': [
        'error',
        {
          object: 'jest',
          property: 'useFakeTimers',
          message: 'fake timers corrupt the jest worker once an actor is stopped; use real timers with short intervals',
        },
      ],
    },
  },
  {
    name: 'xroute/unit-tests-never-sleep',
    // A unit test waits for a condition (test/support/wait.ts waitFor) or moves a virtual clock
    // (test/support/virtual-clock.ts), never for wall-clock time: a fixed sleep is slow when idle and flaky under load
    // (docs/development.md "Time in tests"). Node's timers are reached only through test/support and the Clock.
    files: ['test/unit/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        {
          name: 'setTimeout',
          message: 'unit tests never sleep: wait for a condition (waitFor) or advance a VirtualClock (docs/development.md "Time in tests")',
        },
        {
          name: 'setInterval',
          message: 'unit tests never sleep: wait for a condition (waitFor) or advance a VirtualClock (docs/development.md "Time in tests")',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'timers/promises', message: 'unit tests never sleep: wait for a condition (waitFor) or advance a VirtualClock' },
            { name: 'node:timers/promises', message: 'unit tests never sleep: wait for a condition (waitFor) or advance a VirtualClock' },
          ],
          patterns: [
            {
              regex: '(^|/)support/wait$',
              importNames: ['sleep'],
              message: 'sleep is for integration and fault tests; a unit test waits for a condition (waitFor) or advances a VirtualClock',
            },
          ],
        },
      ],
    },
  },
  {
    name: 'xroute/boundaries/src',
    files: ['src/**/*.ts'],
    ignores: ['src/index.ts', 'src/internal.ts', 'src/cli/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SRC_INTO_ACTORS] }],
    },
  },
  ...srcLayerBoundaries,
  ...actorFolderBoundaries,
  ...barrelImports,
  {
    name: 'xroute/boundaries/actors-shared',
    files: SHARED_ACTOR_FOLDERS.map((folder) => `actors/${folder}/**/*.ts`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: ACTOR_FOLDERS.map((other) => ({
            regex: anyOf(other),
            message: `actors/support and actors/stream are libraries for the actor folders; they never import a component folder such as actors/${other}.`,
          })),
        },
      ],
    },
  },
);
