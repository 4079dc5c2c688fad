/** `xroute validate`'s check of one file, shared by the command and by a reload from a file (reload-trigger.ts). */
import { readFileSync } from 'fs';
import * as path from 'path';
import { ComponentRegistry } from '../runtime/component';
import { ConfigError, ConfigProblem, describeFileError, JsonSyntaxError } from '../config/errors';
import { buildTopology, isTopologyJson, validateComponentJson } from '../config/topology';
import { parseJsonText } from '../config/json-file';

/** Validates a topology or a single component configuration; never throws. Problems name the file as given. */
export function validateFile(file: string, registry: ComponentRegistry): ConfigProblem[] {
  const abs = path.resolve(file);
  return checkFile(file, abs, registry).map((p) => (p.file === abs ? { ...p, file } : p));
}

function checkFile(file: string, abs: string, registry: ComponentRegistry): ConfigProblem[] {
  let json: unknown;
  try {
    json = parseJsonText(readFileSync(abs, 'utf8'), file);
  } catch (e) {
    if (e instanceof JsonSyntaxError)
      return [{ file, component: '', property: '', message: `invalid JSON at line ${e.line}, column ${e.column}: ${e.reason}`, severity: 'error' }];
    if (e instanceof ConfigError) return [...e.problems];
    return [{ file, component: '', property: '', message: describeFileError(e), severity: 'error' }];
  }
  if (isTopologyJson(json)) {
    try {
      return [...buildTopology(json, abs, registry).warnings];
    } catch (e) {
      if (e instanceof ConfigError) return [...e.problems];
      throw e;
    }
  }
  return validateComponentJson(json, abs, registry);
}
