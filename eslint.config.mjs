// ESLint flat config: `npm run lint` (zero warnings allowed; `npm test` runs it after the build).
// typescript-eslint's recommended rules without type information (type-checked linting re-runs the
// compiler and takes minutes on a shared two-core machine; `tsc` already checks types), plus the layer
// boundaries of the source tree as `no-restricted-imports` rules per file glob.
import { readdirSync } from 'node:fs';
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

/** A relative import path that climbs into `folder` of actors/ and names a file there, not its index. */
const internalsOf = (folder) => `^(\\.\\./)+(actors/)?${folder}/(?!index$)`;
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

/** Rule (b): an actor folder imports another actor folder only through its index.ts. */
const actorFolderBoundaries = ACTOR_FOLDERS.map((folder) => ({
  name: `xroute/boundaries/actors/${folder}`,
  files: [`actors/${folder}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: ACTOR_FOLDERS.filter((other) => other !== folder).map((other) => ({
          regex: internalsOf(other),
          message: `actors/${folder} may import actors/${other} only through its public surface, actors/${other}/index.ts.`,
        })),
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
