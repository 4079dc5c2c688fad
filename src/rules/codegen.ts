/**
 * Builds one specialised JavaScript function from pieces of generated code (the evaluator's hot
 * path). Why: composing closures leaves a few call sites (`readers[i](msg)`, `subs[j].apply(t)`)
 * shared by every template and substitution of every ruleset; V8 sees them as megamorphic and
 * cannot inline them, which cost ~20 % of a pattern + formatter evaluation. Generated code calls
 * each helper from its own site, so V8 inlines it, as it would in a hand-written function.
 *
 * Safety: configuration text never becomes code. Names are embedded only as JSON string literals
 * (`literal`), and every other value (regexes, substitutions, readers) is passed in as a bound
 * constant (`bind`), so the generated source is built from this module's own fragments.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export class FunctionBuilder {
  private readonly names: string[] = [];
  private readonly values: unknown[] = [];
  private readonly temps: string[] = [];
  private readonly bound = new Map<unknown, string>();

  /** An identifier that holds `value` inside the generated function (the same value gets the same name). */
  bind(value: unknown): string {
    const known = this.bound.get(value);
    if (known !== undefined) return known;
    const name = `$${this.names.length}`;
    this.names.push(name);
    this.values.push(value);
    this.bound.set(value, name);
    return name;
  }

  /** A fresh local variable, declared with `let` at the top of the function. */
  temp(): string {
    const name = `t${this.temps.length}`;
    this.temps.push(name);
    return name;
  }

  /** A JavaScript string literal for `text`. */
  literal(text: string): string {
    return JSON.stringify(text);
  }

  /**
   * Builds the function `(params) => { body }` with the bound values in scope. `params` are plain
   * identifiers chosen by the caller; `body` is code assembled from this builder's fragments.
   */
  build<F extends (...args: never[]) => unknown>(label: string, params: readonly string[], body: string): F {
    for (const p of params) if (!IDENTIFIER.test(p)) throw new Error(`codegen: parameter ${JSON.stringify(p)} is not an identifier`);
    const name = `generated_${label.replace(/[^A-Za-z0-9_$]/g, '_')}`;
    const declarations = this.temps.length > 0 ? `let ${this.temps.join(', ')};\n` : '';
    const source = `"use strict";\nreturn function ${name}(${params.join(', ')}) {\n${declarations}${body}\n};`;
    // eslint-disable-next-line no-new-func -- compiling rules to functions is this module's job; only literals and bound values are embedded (see the module comment)
    const factory = new Function(...this.names, source) as (...values: unknown[]) => F;
    return factory(...this.values);
  }
}
