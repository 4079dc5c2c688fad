/**
 * The version in xroute's own package.json, found by walking up from this file: it sits two levels up
 * from src/cli in the sources and three from dist/src/cli once compiled, and wherever npm installs it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function packageVersion(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (json.name === 'xroute-broker' && typeof json.version === 'string') return json.version;
    }
    if (dirname(dir) === dir) throw new Error(`xroute's package.json not found above ${from}`);
  }
}
