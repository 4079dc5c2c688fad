/**
 * Paths into a JSONT document, as the original's JSONT resolves `##.a.b##` placeholders
 * (docs/evaluator/transforms.md): a leading `.` is optional and `.` alone is the document; `[n]` is
 * read as `.n`; a missing key, an index out of range, or a null or scalar met on the way gives
 * nothing; a list step that is not a whole number is an error (the original's EXCEPTION). This is
 * the original's older path dialect, kept apart from the JSONPath of the other JSON kinds, which
 * follows its later one (negative indexes, selectors).
 */
import type { JsontMap, JsontValue } from './jsont-json';
import { TransformProblem } from './errors';

const INT32 = 2 ** 31;

/** Java's Integer.parseInt over ASCII digits: optional sign, 32-bit range, else an error. */
function listIndex(step: string, path: string): number {
  if (/^[+-]?\d+$/.test(step)) {
    const n = Number(step);
    if (n >= -INT32 && n < INT32) return n;
  }
  throw new TransformProblem(`path ${JSON.stringify(path)}: ${JSON.stringify(step)} is not a list index`);
}

/** The value at `path`, or undefined when there is none. */
export function jsontPath(root: JsontMap | JsontValue[], path: string): JsontValue | undefined {
  if (path === '.') return root;
  const isList = Array.isArray(root);
  let first = 0;
  if (path[0] === '.') first = isList && path[1] === '[' ? 2 : 1;
  else if (isList && path[0] === '[') first = 1;
  const bracket = path.indexOf('[');
  const normalised = bracket > 0 || (isList && bracket === 0) ? path.replaceAll('[', '.').replaceAll(']', '') : path;
  const steps = normalised.split('.');
  let node: JsontValue = root;
  for (let i = first; i < steps.length; i++) {
    let next: JsontValue | undefined;
    if (Array.isArray(node)) {
      const k = listIndex(steps[i], path);
      next = k >= 0 && k < node.length ? node[k] : undefined;
    } else if (node instanceof Map) {
      next = node.get(steps[i]);
    } else {
      return undefined;
    }
    if (next === undefined || i + 1 === steps.length) return next;
    if (next === null || typeof next !== 'object') return undefined;
    node = next;
  }
  return undefined;
}
