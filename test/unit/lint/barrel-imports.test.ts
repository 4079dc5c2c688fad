/**
 * The barrel rule of eslint.config.mjs, checked on snippets linted as files of this tree: a module of src/ or actors/
 * imports a name from the module that defines it, never through an index.ts that re-exports it (compiled to CommonJS,
 * each use of a re-exported name is a getter call, docs/operations.md#tracing). The package's entries and the component
 * registry may, a name an index defines itself may be imported from it, and tests import anything.
 */
import { rulesReported } from '../../support/lint-cases';

const importing = (names: string, from: string): string => `import { ${names} } from '${from}';\nexport const used = [${names}];\n`;
const BARREL_RULE = '@typescript-eslint/no-restricted-imports';

/** Each case: the file a snippet pretends to be, and what it imports. */
const CASES = {
  messageBarrel: { filePath: 'src/rules/barrel-probe.ts', code: importing('Message', '../message') },
  messageBarrelFromDeeper: { filePath: 'src/rules/kinds/barrel-probe.ts', code: importing('Message', '../../message') },
  messageBarrelByIndex: { filePath: 'src/transforms/barrel-probe.ts', code: importing('Message', '../message/index') },
  messageModule: { filePath: 'src/rules/barrel-probe.ts', code: importing('Message', '../message/message') },
  typeThroughBarrel: { filePath: 'src/transforms/barrel-probe.ts', code: `import type { Message } from '../message';\nexport type Used = Message;\n` },
  reexportThroughBarrel: { filePath: 'src/admin/barrel-probe.ts', code: `export { traceCounts } from '../tracing';\n` },
  cliThroughBarrel: { filePath: 'src/cli/barrel-probe.ts', code: importing('startTracing', '../tracing') },
  actorThroughSrcBarrel: { filePath: 'actors/persisters/barrel-probe.ts', code: importing('MessageEvaluatorEngine', '../../src/evaluator') },
  definedByIndex: { filePath: 'src/evaluator/barrel-probe.ts', code: importing('TRANSFORM_KINDS', '../transforms') },
  reexportedByThatIndex: { filePath: 'src/evaluator/barrel-probe.ts', code: importing('compileJsonataTemplate', '../transforms') },
  packageEntry: { filePath: 'src/internal.ts', code: `export * from './index';\nexport { Message } from './message';\n` },
  registry: { filePath: 'actors/index.ts', code: importing('jobNodeComponent', './nodes') },
  test: { filePath: 'test/unit/barrel-probe.test.ts', code: importing('Message', '../../src/message') },
};
type CaseName = keyof typeof CASES;

let reported: Record<CaseName, string[]>;

beforeAll(() => {
  reported = rulesReported(CASES);
}, 60_000);

describe('a module of src/ or actors/', () => {
  it('may not import through a barrel of a sibling folder', () => {
    expect(reported.messageBarrel).toEqual([BARREL_RULE]);
  });

  it('may not import through a barrel from a deeper folder', () => {
    expect(reported.messageBarrelFromDeeper).toEqual([BARREL_RULE]);
  });

  it('may not name the barrel’s index.ts either', () => {
    expect(reported.messageBarrelByIndex).toEqual([BARREL_RULE]);
  });

  it('imports from the module that defines the name', () => {
    expect(reported.messageModule).toEqual([]);
  });

  it('may not import even a type through a barrel', () => {
    expect(reported.typeThroughBarrel).toEqual([BARREL_RULE]);
  });

  it('may not re-export a name through a barrel', () => {
    expect(reported.reexportThroughBarrel).toEqual([BARREL_RULE]);
  });

  it('may not import through a barrel in src/cli either', () => {
    expect(reported.cliThroughBarrel).toEqual([BARREL_RULE]);
  });

  it('of actors/ may not import through a barrel of src/', () => {
    expect(reported.actorThroughSrcBarrel).toEqual([BARREL_RULE]);
  });

  it('may import from an index.ts a name that index defines itself', () => {
    expect(reported.definedByIndex).toEqual([]);
  });

  it('may not import from that index.ts a name it re-exports', () => {
    expect(reported.reexportedByThatIndex).toEqual([BARREL_RULE]);
  });
});

describe('the files that may import barrels', () => {
  it('include the package’s entries', () => {
    expect(reported.packageEntry).toEqual([]);
  });

  it('include the component registry, actors/index.ts', () => {
    expect(reported.registry).toEqual([]);
  });

  it('include tests', () => {
    expect(reported.test).toEqual([]);
  });
});
