/**
 * `##name##` message templates (docs/evaluator/rules.md), shared by the formatter, static cache keys,
 * JobNode's KeyTemplate and the pools' URI Template.
 *
 * A placeholder is `##` + one or more characters other than `#` + `##`, scanned left to right without
 * overlap. Values: JMS names are headers, then properties, then `body` (the body text, read when the
 * template is rendered), else "". Deliberate deviation from the original (the original's quirk, fixed; docs/evaluator/rules.md): all
 * placeholders are replaced in one pass over the template, so a value that itself contains
 * `##other##` is never expanded again, and names are matched literally (`##a.b##` does not match
 * `##aXb##`). Names containing `(` or `)` are still rejected at start-up, for compatibility.
 */
import { Message } from '../message/message';
import { ConfigWhere, RuleConfigError } from './errors';
import { emitFieldRead } from './message-fields';
import { FunctionBuilder } from './codegen';

const PLACEHOLDER = /##([^#]+)##/g;

/** One `##name##` placeholder of a source text: its name and where it starts and ends. */
export interface Placeholder {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

/** The placeholders of `source`, scanned left to right without overlap (docs/evaluator/rules.md): the one scanner. */
export function* placeholders(source: string): Generator<Placeholder> {
  for (const m of source.matchAll(PLACEHOLDER)) yield { name: m[1], start: m.index as number, end: (m.index as number) + m[0].length };
}

export interface TemplateOptions {
  /** Clock for JMSAge; defaults to Date.now. */
  clock?: () => number;
  where?: ConfigWhere;
}

export class Template {
  /** Distinct field names in order of first appearance. */
  readonly fields: readonly string[];
  /** True when the template has no placeholder: it always renders its source. */
  readonly isStatic: boolean;
  /**
   * Renders the template against a message. `bodyValue`, when given, is what `##body##` renders
   * unless the message has a property called `body` (the formatter passes the MapKey entry of a map
   * message).
   */
  readonly format: (msg: Message, bodyValue?: string) => string;
  private readonly literals: string[];
  private readonly names: string[];
  private readonly clock: () => number;

  constructor(
    readonly source: string,
    options: TemplateOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.literals = [];
    this.names = [];
    let last = 0;
    for (const { name, start, end } of placeholders(source)) {
      if (name.includes('(') || name.includes(')')) {
        throw new RuleConfigError(options.where ?? {}, `template field ${JSON.stringify(name)} contains a parenthesis`, 'a field name without ( or )');
      }
      this.literals.push(source.slice(last, start));
      this.names.push(name);
      last = end;
    }
    this.literals.push(source.slice(last));
    this.fields = [...new Set(this.names)];
    this.isStatic = this.names.length === 0;
    const b = new FunctionBuilder();
    this.format = b.build(`template`, ['msg', 'bodyValue'], `return ${this.emit(b, 'msg', 'bodyValue')};`);
  }

  /** True when `text` contains at least one `##name##` placeholder. */
  static hasPlaceholders(text: string): boolean {
    return !placeholders(text).next().done;
  }

  /** True when rendering may read the body (a `##body##` placeholder). */
  get readsBody(): boolean {
    return this.names.includes('body');
  }

  /**
   * The rendering as one JavaScript string expression over the identifiers `msg` and, when given,
   * `bodyValue` (see `format`), for generated code (codegen.ts). `format` is built from it.
   */
  emit(b: FunctionBuilder, msg: string, bodyValue?: string): string {
    const clock = b.bind(this.clock);
    const parts: string[] = [];
    if (this.literals[0] !== '' || this.names.length === 0) parts.push(b.literal(this.literals[0]));
    for (let i = 0; i < this.names.length; i++) {
      const name = this.names[i];
      let read = emitFieldRead(b, name, 'template', msg, clock);
      if (name === 'body' && bodyValue !== undefined) {
        read = `(${bodyValue} !== undefined && !${msg}.properties.has("body") ? ${bodyValue} : ${read})`;
      }
      parts.push(`(${read} ?? "")`);
      if (this.literals[i + 1] !== '') parts.push(b.literal(this.literals[i + 1]));
    }
    return parts.join(' + ');
  }
}
