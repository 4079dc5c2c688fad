/**
 * Test support: a compile context for the transform kinds with the engine's real templates
 * (src/rules/template.ts) and substitutions (src/rules/substitution.ts) and files read from the fixtures directory.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { RuleConfigError } from '../../../src/rules/errors';
import { Template } from '../../../src/rules/template';
import { compileSubstitution } from '../../../src/rules/substitution';
import type { JsonFormatterCompileContext, TransformCompileContext } from '../../../src/transforms/kind-types';

/** The project root: the nearest directory above this file holding package.json (works from dist/ too). */
function projectRoot(from: string): string {
  return existsSync(join(from, 'package.json')) || dirname(from) === from ? from : projectRoot(dirname(from));
}

export const FIXTURES = join(projectRoot(__dirname), 'test', 'fixtures', 'transforms');

export function contextFor(rulesetName: string, baseDir: string = FIXTURES): TransformCompileContext & JsonFormatterCompileContext {
  const where = (key?: string) => ({ component: 'test', ruleset: rulesetName, key });
  const resolvePath = (path: string) => (isAbsolute(path) ? path : resolve(baseDir, path));
  return {
    rulesetName,
    where,
    resolvePath,
    readTextFile: (path: string, key: string) => {
      try {
        return readFileSync(resolvePath(path), 'utf8');
      } catch (e) {
        throw new RuleConfigError(where(key), `cannot read ${path}: ${(e as Error).message}`, 'a readable file');
      }
    },
    formatTemplate: (text: string, key?: string) => {
      const template = new Template(text, { where: where(key) });
      return (msg) => template.format(msg);
    },
    template: (text: string, key: string) => new Template(text, { where: where(key) }),
    substitution: (text: unknown, key: string) => compileSubstitution(text, { where: where(key) }),
  };
}

/** Children element names of the root of an XML text, in order (whitespace ignored). */
export function rootChildNames(xml: string): string[] {
  const inner = xml
    .replace(/^<\?xml[^>]*\?>\s*/, '')
    .replace(/^<[^>]+>/, '')
    .replace(/<\/[^>]+>\s*$/, '');
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
