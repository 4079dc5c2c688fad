/**
 * The garbage collector in tests, reachable without starting node with --expose-gc: for tests that show an object
 * is let go (a WeakRef emptied) or that memory does not grow.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { waitFor } from './wait';

/** The garbage collector (`global.gc` of a node started with --expose-gc). */
export function gcFunction(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/** Resolves once what `ref` points to has been collected, collecting at each poll; rejects after `timeoutMs`. */
export async function untilCollected(ref: WeakRef<object>, what: string, timeoutMs = 3_000): Promise<void> {
  const gc = gcFunction();
  await waitFor(
    () => {
      gc();
      return ref.deref() === undefined;
    },
    `${what} garbage-collected`,
    timeoutMs,
  );
}
