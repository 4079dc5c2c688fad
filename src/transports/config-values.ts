/**
 * Reading a component's string-valued configuration (every scalar is a string, as in the original) with
 * errors that name the component, the property, the value and what was expected.
 */
import type { ComponentConfig, ConfigValue } from '../runtime/component';

export class ComponentConfigError extends Error {
  constructor(
    readonly component: string,
    readonly property: string,
    readonly value: unknown,
    readonly expected: string,
  ) {
    super(`${component}: property ${property}${value === undefined ? ' is missing' : ` = ${JSON.stringify(value)} is invalid`}: expected ${expected}`);
    this.name = 'ComponentConfigError';
  }
}

/** Typed reads of one component's configuration. */
export class ConfigReader {
  constructor(
    readonly component: string,
    readonly config: ComponentConfig,
  ) {}

  raw(name: string): ConfigValue | undefined {
    return this.config[name];
  }

  string(name: string): string | undefined;
  string(name: string, fallback: string): string;
  string(name: string, fallback?: string): string | undefined {
    const v = this.config[name];
    if (v === undefined) return fallback;
    if (typeof v !== 'string') throw new ComponentConfigError(this.component, name, v, 'a string');
    return v;
  }

  /** An integer, optionally within [min, max]. */
  int(name: string, fallback: number, min = -Infinity, max = Infinity): number {
    const v = this.optionalInt(name, min, max);
    return v === undefined ? fallback : v;
  }

  optionalInt(name: string, min = -Infinity, max = Infinity): number | undefined {
    const s = this.string(name);
    if (s === undefined || s.trim() === '') return undefined;
    const t = s.trim();
    const range = min === -Infinity && max === Infinity ? 'an integer' : max === Infinity ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
    if (!/^[-+]?\d+$/.test(t)) throw new ComponentConfigError(this.component, name, s, range);
    const n = Number(t);
    if (n < min || n > max) throw new ComponentConfigError(this.component, name, s, range);
    return n;
  }

  /** "true"/"false" in any case. */
  bool(name: string, fallback: boolean): boolean {
    const s = this.string(name);
    if (s === undefined || s.trim() === '') return fallback;
    const t = s.trim().toLowerCase();
    if (t === 'true') return true;
    if (t === 'false') return false;
    throw new ComponentConfigError(this.component, name, s, '"true" or "false"');
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const s = this.string(name);
    if (s === undefined || s.trim() === '') return fallback;
    const t = s.trim().toLowerCase();
    const hit = allowed.find((a) => a.toLowerCase() === t);
    if (hit === undefined) throw new ComponentConfigError(this.component, name, s, `one of ${allowed.join(', ')}`);
    return hit;
  }

  /** A string or a list of strings (empty entries dropped). */
  stringList(name: string): string[] {
    const v = this.config[name];
    if (v === undefined) return [];
    if (typeof v === 'string') return v === '' ? [] : [v];
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return (v as string[]).filter((x) => x !== '');
    throw new ComponentConfigError(this.component, name, v, 'a string or a list of strings');
  }

  /** A map of string values. */
  stringMap(name: string): Record<string, string> | undefined {
    const v = this.config[name];
    if (v === undefined) return undefined;
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string')) return { ...(v as Record<string, string>) };
    throw new ComponentConfigError(this.component, name, v, 'a map of string values');
  }
}
