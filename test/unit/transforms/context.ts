/**
 * Test support: a compile context for the transform kinds. `format` renders `##name##` from the
 * message's fields (enough for these tests; the engine supplies the real template engine).
 */
import { join } from 'node:path';
import type { Message } from '../../../src/message';
import type { TransformCompileContext } from '../../../src/transforms/kind-types';

export const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'transforms');

export function contextFor(rulesetName: string, baseDir: string = FIXTURES): TransformCompileContext {
  return {
    rulesetName,
    baseDir,
    format: (template: string, msg: Message) => template.replace(/##([^#]+)##/g, (_m, name: string) => msg.getField(name) ?? ''),
  };
}

/** Children element names of the root of an XML text, in order (whitespace ignored). */
export function rootChildNames(xml: string): string[] {
  const inner = xml.replace(/^<\?xml[^>]*\?>\s*/, '').replace(/^<[^>]+>/, '').replace(/<\/[^>]+>\s*$/, '');
  const names: string[] = [];
  let depth = 0;
  for (const m of inner.matchAll(/<(\/?)([A-Za-z_][\w:.-]*)[^>]*?(\/?)>/g)) {
    if (m[1] === '/') depth--;
    else {
      if (depth === 0) names.push(m[2]!);
      if (m[3] !== '/') depth++;
    }
  }
  return names;
}
