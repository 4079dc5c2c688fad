type FilterModule = typeof import('../../../src/transports/rhea-console-filter');

/** Installs a fresh copy of the filter over a spy standing for the real console.error. */
function withFilter(run: (filter: FilterModule, spy: jest.SpyInstance) => void): void {
  const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh module instance per test, which only require inside isolateModules gives
      const filter = require('../../../src/transports/rhea-console-filter') as FilterModule;
      filter.installRheaConsoleFilter();
      run(filter, spy);
    });
  } finally {
    spy.mockRestore();
  }
}

describe("rhea's credit-overrun console line", () => {
  it('is dropped and counted', () => {
    withFilter((filter, spy) => {
      console.error('Received transfer when credit was %d', 0);
      expect([filter.rheaCreditOverruns(), spy.mock.calls.length]).toEqual([1, 0]);
    });
  });

  it('lets every other console.error through', () => {
    withFilter((filter, spy) => {
      console.error('something else %d', 1);
      expect([filter.rheaCreditOverruns(), spy.mock.calls]).toEqual([0, [['something else %d', 1]]]);
    });
  });
});
