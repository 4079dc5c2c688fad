/**
 * The one registry style of xroute: a typed table keyed by name, used for component classes, ruleset
 * kinds (built-in and transforms), and the pool's URI schemes. Every table registers its entries from a
 * plain list in one place, refuses a name registered twice, and answers an unknown name with the same
 * error: `unknown <what> "x"; did you mean "y"? known: a, b, c`.
 */
import { closest } from './did-you-mean';
import { XrouteError } from './xroute-error';

export class UnknownNameError extends XrouteError {
  constructor(
    /** What the table holds, e.g. "ClassName", "ruleset kind", "scheme". */
    readonly what: string,
    readonly unknownName: string,
    readonly known: readonly string[],
    /** The closest known name, when one is close enough to be a misspelling. */
    readonly suggestion: string | undefined,
  ) {
    super(
      `unknown ${what} ${JSON.stringify(unknownName)}${suggestion === undefined ? '' : `; did you mean ${JSON.stringify(suggestion)}?`}; known: ${known.join(', ')}`,
    );
    this.name = 'UnknownNameError';
  }
}

export class DuplicateNameError extends XrouteError {
  constructor(
    readonly what: string,
    readonly duplicate: string,
  ) {
    super(`${what} ${JSON.stringify(duplicate)} is registered twice`);
    this.name = 'DuplicateNameError';
  }
}

export interface NameTableOptions {
  /** Names match whatever their case (ClassName, schemes). Default false. */
  readonly caseInsensitive?: boolean;
}

export class NameTable<T> {
  private readonly byKey = new Map<string, T>();
  private readonly order: string[] = [];

  constructor(
    /** What the table holds, for errors. */
    readonly what: string,
    entries: Iterable<readonly [string, T]> = [],
    private readonly options: NameTableOptions = {},
  ) {
    for (const [name, value] of entries) this.register(name, value);
  }

  register(name: string, value: T): void {
    const key = this.key(name);
    if (this.byKey.has(key)) throw new DuplicateNameError(this.what, name);
    this.byKey.set(key, value);
    this.order.push(name);
  }

  has(name: string): boolean {
    return this.byKey.has(this.key(name));
  }

  /** The entry for `name`, or undefined. */
  find(name: string): T | undefined {
    return this.byKey.get(this.key(name));
  }

  /** The entry for `name`; UnknownNameError (with a "did you mean") when there is none. */
  get(name: string): T {
    const value = this.find(name);
    if (value === undefined) throw this.unknown(name);
    return value;
  }

  /** The error for an unknown name, for callers that wrap it in an error of their own. */
  unknown(name: string, known: readonly string[] = this.order): UnknownNameError {
    return new UnknownNameError(this.what, name, known, closest(name, known));
  }

  /** Registered names, in registration order. */
  names(): readonly string[] {
    return this.order;
  }

  /** Registered entries, in registration order. */
  values(): T[] {
    return this.order.map((n) => this.byKey.get(this.key(n)) as T);
  }

  private key(name: string): string {
    return this.options.caseInsensitive ? name.toLowerCase() : name;
  }
}
