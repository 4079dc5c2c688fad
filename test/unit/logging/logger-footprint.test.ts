/**
 * What a logger keeps (issue 32): every actor keeps a child logger, a pool 512 of them, so a logger's methods live on a
 * prototype shared by all loggers, not in closures made per logger (src/logging/logger.ts).
 */
import { createLogger, Logger, memoryLogger } from '../../../src/logging/logger';

/** The names of the functions a logger holds as its own properties (closures made for it alone). */
function ownFunctions(logger: Logger): string[] {
  return Object.entries(logger)
    .filter(([, v]) => typeof v === 'function')
    .map(([k]) => k);
}

describe('a child logger', () => {
  it('of a winston logger keeps no function of its own and shares its methods with its parent', () => {
    const parent = createLogger({ silent: true });
    const child = parent.child({ actor: 'a' });
    expect([ownFunctions(child), child.info === parent.info, child.child === parent.child]).toEqual([[], true, true]);
  });

  it('of a memory logger keeps no function of its own and still records with its parent’s fields and its own', () => {
    const parent = memoryLogger([], { flow: 'f' });
    const child = parent.child({ actor: 'a' });
    child.warn('careful', { n: 1 });
    expect([ownFunctions(child), child.warn === parent.warn, parent.entries]).toEqual([
      [],
      true,
      [{ level: 'warn', message: 'careful', meta: { flow: 'f', actor: 'a', n: 1 } }],
    ]);
  });
});
