/**
 * JobPersister configuration: parsed once, with errors naming the component and the property.
 *
 * The command (`Script`) is compiled here into a JobCommand (job-persister-command.ts); everything else is
 * limits and field names. Times are milliseconds (`Timeout`, `KillGrace`), sizes bytes (`MaxOutput`).
 */
import path from 'node:path';
import { ComponentConfig, JsonSchema } from '../../src/runtime/component';
import { boolStr, integerSchemas, integerSetting, str, strMap, strOrList } from '../../src/foundation/schema-helpers';
import { parseDisplayMask } from '../../src/logging/display';
import { Template } from '../../src/rules/template';
import { ComponentConfigError, ConfigReader, perl5Setting } from '../support/config-values';
import { JobCommand, compileJobCommand } from './job-persister-command';

export const JOB_PERSISTER_OPERATIONS = ['execute'] as const;

const DEFAULT_MAX_OUTPUT = 65_536;
const DEFAULT_KILL_GRACE_MS = 2_000;

export interface JobPersisterSettings {
  readonly command: JobCommand;
  /** Working directory of every job (absolute); undefined = the service's own. */
  readonly workingDir?: string;
  /** Environment additions; each value is a template rendered against the request. */
  readonly environment: ReadonlyMap<string, Template>;
  /** Ms a job may run before it is killed; 0 = no limit. */
  readonly timeoutMs: number;
  /** Ms between SIGTERM and SIGKILL (abort, Timeout, stop). */
  readonly killGraceMs: number;
  /** Bytes of stdout+stderr kept (the rest is counted, not stored). */
  readonly maxOutput: number;
  readonly outputField: string;
  readonly rcField: string;
  /** The first capture group (or the whole match) of the last matching output line is the job's progress. */
  readonly progressPattern?: RegExp;
  /** Jobs run at once. */
  readonly maxJobs: number;
  readonly displayMask: number;
  readonly stringProperty: readonly string[];
}

/** The integer settings: their schema and the reader's defaults and ranges. */
const JOB_PERSISTER_INTEGERS = {
  Timeout: integerSetting('milliseconds a job may run before it is killed (SIGTERM, then SIGKILL after KillGrace); "0" = no limit', 0, { min: 0 }),
  KillGrace: integerSetting('milliseconds between SIGTERM and SIGKILL', DEFAULT_KILL_GRACE_MS, { min: 0 }),
  MaxOutput: integerSetting('bytes of stdout+stderr kept in OutputField', DEFAULT_MAX_OUTPUT, { min: 0 }),
  MaxJobs: integerSetting('jobs run at once', 1, { min: 1 }),
};

export const JOB_PERSISTER_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['Script'],
  properties: {
    Script: strOrList(
      'the command: a string split on whitespace, or a list of arguments; ##field## placeholders are filled from the request, each as part of its own argument',
    ),
    Shell: boolStr('"true" runs Script through /bin/sh -c (placeholder values are NOT quoted: the operator\'s choice); default "false"'),
    WorkingDir: str('the working directory of every job (relative to the configuration file)'),
    Environment: strMap('environment variables added for the job; values may hold ##field## placeholders'),
    ...integerSchemas(JOB_PERSISTER_INTEGERS),
    OutputField: str('where the captured output goes: a property name or "body" (default "Output")'),
    RCField: str('the return-code field (default "ReturnCode")'),
    ProgressPattern: str('a regular expression for output lines reporting progress, e.g. "^PROGRESS (\\\\d+)" (first group = progress)'),
    StringProperty: strMap(),
  },
};

export function readJobPersisterSettings(component: string, config: ComponentConfig, baseDir: string): JobPersisterSettings {
  const c = new ConfigReader(component, config);
  c.oneOf('Operation', JOB_PERSISTER_OPERATIONS, 'execute');
  const n = c.integers(JOB_PERSISTER_INTEGERS);
  const command = compileJobCommand(component, c.raw('Script'), c.bool('Shell', false));
  const environment = new Map<string, Template>();
  for (const [name, value] of Object.entries(c.stringMap('Environment'))) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new ComponentConfigError(component, `Environment/${name}`, name, 'a variable name (letters, digits, _)');
    environment.set(name, new Template(value, { where: { component, key: `Environment/${name}` } }));
  }
  const dir = c.string('WorkingDir');
  const pattern = c.string('ProgressPattern');
  return {
    command,
    workingDir: dir === undefined || dir.trim() === '' ? undefined : path.resolve(baseDir, dir),
    environment,
    timeoutMs: n.Timeout,
    killGraceMs: n.KillGrace,
    maxOutput: n.MaxOutput,
    outputField: c.string('OutputField', 'Output').trim() || 'Output',
    rcField: c.string('RCField', 'ReturnCode').trim() || 'ReturnCode',
    progressPattern: pattern === undefined || pattern === '' ? undefined : perl5Setting(component, 'ProgressPattern', pattern),
    maxJobs: n.MaxJobs,
    displayMask: parseDisplayMask(c.string('DisplayMask')),
    stringProperty: Object.keys(c.stringMap('StringProperty')),
  };
}
