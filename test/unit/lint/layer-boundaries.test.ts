/**
 * The layer boundaries eslint.config.mjs enforces, checked on snippets linted as files of this tree:
 * src/ below its composition root never imports actors/; the lower layers of src/ (foundation, message, xqueue,
 * jms, xml, logging, errors, runtime) import only the folders below them; an actor folder imports from another only
 * the names its index.ts lists, from the modules that define them (actors/support and actors/stream are libraries
 * every actor folder may use, and they import no component folder); tests import anything. Barrels: barrel-imports.test.ts.
 */
import { rulesReported } from '../../support/lint-cases';

const importing = (from: string): string => `import { thing } from '${from}';\nexport const used = thing;\n`;

/** Each case: the file a snippet pretends to be, and the module it imports. */
const CASES = {
  srcIntoActors: { filePath: 'src/rules/boundary-probe.ts', code: importing('../../actors') },
  srcIntoActorFile: { filePath: 'src/evaluator/boundary-probe.ts', code: importing('../../actors/persisters/message-evaluator') },
  cliIntoActors: { filePath: 'src/cli/boundary-probe.ts', code: importing('../../actors') },
  entryIntoActorFile: { filePath: 'src/index.ts', code: importing('../actors/pools/pool-client') },
  actorIntoOtherInternals: { filePath: 'actors/persisters/boundary-probe.ts', code: importing('../nodes/job-node-events') },
  actorIntoOtherInternalsViaRoot: { filePath: 'actors/receivers/boundary-probe.ts', code: importing('../../actors/pools/pool-client') },
  actorIntoOtherIndex: { filePath: 'actors/persisters/boundary-probe.ts', code: importing('../nodes') },
  actorIntoOtherPublicName: {
    filePath: 'actors/persisters/boundary-probe.ts',
    code: `import { isJobQuery } from '../nodes/job-event-protocol';\nexport const used = isJobQuery;\n`,
  },
  actorIntoOtherUnlistedName: {
    filePath: 'actors/persisters/boundary-probe.ts',
    code: `import type { EventPriority } from '../nodes/job-event-protocol';\nexport type Used = EventPriority;\n`,
  },
  actorIntoOwnFile: { filePath: 'actors/nodes/boundary-probe.ts', code: importing('./job-node-events') },
  actorIntoSharedLibraries: {
    filePath: 'actors/persisters/boundary-probe.ts',
    code: `${importing('../support/config-values')}export { framing } from '../stream/framing';\n`,
  },
  sharedIntoComponentFolder: { filePath: 'actors/support/boundary-probe.ts', code: importing('../nodes/job-node') },
  testIntoInternals: { filePath: 'test/unit/boundary-probe.test.ts', code: importing('../../actors/nodes/job-node-events') },
  foundationIntoLogging: { filePath: 'src/foundation/boundary-probe.ts', code: importing('../logging/logger') },
  xmlIntoTransforms: { filePath: 'src/xml/boundary-probe.ts', code: importing('../transforms/errors') },
  xmlIntoFoundation: { filePath: 'src/xml/boundary-probe.ts', code: importing('../foundation/xroute-error') },
  runtimeIntoConfig: { filePath: 'src/runtime/boundary-probe.ts', code: importing('../config/topology') },
  runtimeIntoLowerLayers: {
    filePath: 'src/runtime/boundary-probe.ts',
    code: `${importing('../foundation/backoff')}export { XQueue } from '../xqueue/xqueue';\n`,
  },
  runtimeIntoActors: { filePath: 'src/runtime/boundary-probe.ts', code: importing('../../actors') },
  configIntoRuntime: { filePath: 'src/config/boundary-probe.ts', code: importing('../runtime/component') },
};
type CaseName = keyof typeof CASES;

let reported: Record<CaseName, string[]>;

beforeAll(() => {
  reported = rulesReported(CASES);
}, 60_000);

describe('src/ below the composition root', () => {
  it('may not import the actors/ tree', () => {
    expect(reported.srcIntoActors).toEqual(['no-restricted-imports']);
  });

  it('may not import a file of an actor folder', () => {
    expect(reported.srcIntoActorFile).toEqual(['no-restricted-imports']);
  });
});

describe('the lower layers of src/ (docs/architecture.md, "Layers")', () => {
  it('keep src/foundation from importing any other folder', () => {
    expect(reported.foundationIntoLogging).toEqual(['no-restricted-imports']);
  });

  it('keep the XML engine (src/xml) from importing the kinds that use it', () => {
    expect(reported.xmlIntoTransforms).toEqual(['no-restricted-imports']);
  });

  it('let the XML engine import src/foundation', () => {
    expect(reported.xmlIntoFoundation).toEqual([]);
  });

  it('keep src/runtime from importing the configuration loader', () => {
    expect(reported.runtimeIntoConfig).toEqual(['no-restricted-imports']);
  });

  it('let src/runtime import the layers below it', () => {
    expect(reported.runtimeIntoLowerLayers).toEqual([]);
  });

  it('still keep src/runtime out of actors/', () => {
    expect(reported.runtimeIntoActors).toEqual(['no-restricted-imports']);
  });

  it('let src/config, above the runtime, import it', () => {
    expect(reported.configIntoRuntime).toEqual([]);
  });
});

describe('the composition root (src/cli, src/index.ts)', () => {
  it('lets src/cli import actors/', () => {
    expect(reported.cliIntoActors).toEqual([]);
  });

  it('lets src/index.ts import an actor file', () => {
    expect(reported.entryIntoActorFile).toEqual([]);
  });
});

describe('an actor folder', () => {
  it('may not import a file of another actor folder', () => {
    expect(reported.actorIntoOtherInternals).toEqual(['no-restricted-imports']);
  });

  it("may not reach another folder's file through the actors/ root either", () => {
    expect(reported.actorIntoOtherInternalsViaRoot).toEqual(['no-restricted-imports']);
  });

  it('may import a name the index.ts of another actor folder lists, from the module that defines it', () => {
    expect(reported.actorIntoOtherPublicName).toEqual([]);
  });

  it('may not import a name that index.ts does not list, even from a module it lists', () => {
    expect(reported.actorIntoOtherUnlistedName).toEqual(['no-restricted-imports']);
  });

  it('may not import another actor folder through its index.ts, a barrel', () => {
    expect(reported.actorIntoOtherIndex).toEqual(['@typescript-eslint/no-restricted-imports']);
  });

  it('may import its own files', () => {
    expect(reported.actorIntoOwnFile).toEqual([]);
  });

  it('may import the shared libraries actors/support and actors/stream', () => {
    expect(reported.actorIntoSharedLibraries).toEqual([]);
  });
});

describe('the shared libraries actors/support and actors/stream', () => {
  it('may not import a component folder', () => {
    expect(reported.sharedIntoComponentFolder).toEqual(['no-restricted-imports']);
  });
});

describe('tests', () => {
  it('may import any file', () => {
    expect(reported.testIntoInternals).toEqual([]);
  });
});
