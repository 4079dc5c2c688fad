/**
 * Reading a component's string-valued configuration (all scalars are strings, as in the original) into
 * typed values, with errors that name the component, the property and what was expected.
 */
import { ComponentConfig, ConfigValue } from '../../src/runtime/component';
import { RegexSyntaxError } from '../../src/rules/errors';
import { compilePerl5 } from '../../src/rules/regex-dialect';
import { ConfigValueError } from '../../src/errors/config-value-error';
import { integerValue } from '../../src/foundation/integer-text';
import { IntegerSetting } from '../../src/foundation/schema-helpers';
import { Partition, parsePartition } from '../../src/xqueue/partition';
import { PartitionError } from '../../src/xqueue/errors';

/** A component property that cannot be used: a ConfigValueError with the reader's positional arguments. */
export class ComponentConfigError extends ConfigValueError {
  constructor(component: string, property: string, value: unknown, expected: string, cause?: unknown) {
    super({ component, property, got: value, expected, cause });
    this.name = 'ComponentConfigError';
  }

  /** The value as configured (masked under a secret property). */
  get value(): unknown {
    return this.got;
  }
}

/** A regular expression setting in the original's Perl5 dialect; a bad one names the property. */
export function perl5Setting(component: string, property: string, source: string): RegExp {
  try {
    return compilePerl5(source);
  } catch (e) {
    throw new ComponentConfigError(
      component,
      property,
      source,
      `a Perl5 regular expression (${e instanceof RegexSyntaxError ? e.reason : (e as Error).message})`,
      e,
    );
  }
}

/** Typed access to one component's configuration. */
export class ConfigReader {
  constructor(
    readonly component: string,
    readonly config: ComponentConfig,
  ) {}

  has(key: string): boolean {
    const v = this.config[key];
    return v !== undefined && !(typeof v === 'string' && v.trim() === '');
  }

  raw(key: string): ConfigValue | undefined {
    return this.config[key];
  }

  /** A string value; undefined when absent. A list or map is an error. */
  string(key: string): string | undefined;
  string(key: string, fallback: string): string;
  string(key: string, fallback?: string): string | undefined {
    const v = this.config[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'string') throw new ComponentConfigError(this.component, key, v, 'a string');
    return v;
  }

  required(key: string): string {
    const v = this.string(key);
    if (v === undefined || v.trim() === '') throw new ComponentConfigError(this.component, key, v, 'a non-empty string');
    return v;
  }

  /** An integer; empty or absent gives the fallback. */
  int(key: string, fallback: number, opts: { min?: number; max?: number } = {}): number {
    const v = this.string(key);
    if (v === undefined || v.trim() === '') return fallback;
    const n = integerValue(v);
    if (n === undefined) throw new ComponentConfigError(this.component, key, v, 'an integer');
    return this.inRange(key, v, n, opts);
  }

  /** Every declared integer setting (src/foundation/schema-helpers.ts integerSetting), read with its default and range. */
  integers<K extends string>(declared: Readonly<Record<K, IntegerSetting>>): Record<K, number> {
    const out = {} as Record<K, number>;
    for (const key of Object.keys(declared) as K[]) out[key] = this.int(key, declared[key].default, declared[key]);
    return out;
  }

  /** A decimal number (for seconds that tests and operators may give as "0.5"). */
  number(key: string, fallback: number, opts: { min?: number; max?: number } = {}): number {
    const v = this.string(key);
    if (v === undefined || v.trim() === '') return fallback;
    if (!/^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/.test(v)) throw new ComponentConfigError(this.component, key, v, 'a number');
    return this.inRange(key, v, Number(v), opts);
  }

  /** "true" (any case) is true; anything else present is false. */
  bool(key: string, fallback: boolean): boolean {
    const v = this.string(key);
    if (v === undefined || v.trim() === '') return fallback;
    return v.trim().toLowerCase() === 'true';
  }

  /** One of a fixed set of values (compared ignoring case); returns the canonical spelling. */
  oneOf<T extends string>(key: string, values: readonly T[], fallback: T): T {
    const v = this.string(key);
    if (v === undefined || v.trim() === '') return fallback;
    const found = values.find((x) => x.toLowerCase() === v.trim().toLowerCase());
    if (!found) throw new ComponentConfigError(this.component, key, v, `one of ${values.map((x) => JSON.stringify(x)).join(', ')}`);
    return found;
  }

  /** A map of strings (StringProperty); absent gives {}. */
  stringMap(key: string): Record<string, string> {
    const v = this.config[key];
    if (v === undefined) return {};
    if (typeof v !== 'object' || Array.isArray(v)) throw new ComponentConfigError(this.component, key, v, 'a map of names to strings');
    const out: Record<string, string> = {};
    for (const [k, x] of Object.entries(v)) {
      if (typeof x !== 'string') throw new ComponentConfigError(this.component, `${key}/${k}`, x, 'a string');
      out[k] = x;
    }
    return out;
  }

  /** The Partition ("offset,length") of an XQueue of `capacity` cells; absent or empty is the whole queue. */
  partition(key: string, capacity: number): Partition {
    const text = this.string(key);
    try {
      return parsePartition(text, capacity, this.component);
    } catch (e) {
      if (e instanceof PartitionError) throw new ComponentConfigError(this.component, key, text, e.expected, e);
      throw e;
    }
  }

  private inRange(key: string, text: string, n: number, opts: { min?: number; max?: number }): number {
    if ((opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)) {
      const expected =
        opts.max === undefined ? `a number >= ${opts.min}` : opts.min === undefined ? `a number <= ${opts.max}` : `a number from ${opts.min} to ${opts.max}`;
      throw new ComponentConfigError(this.component, key, text, expected);
    }
    return n;
  }
}
