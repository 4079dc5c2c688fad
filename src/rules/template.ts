/**
 * `##name##` message templates (evaluator.md §6), shared by the formatter, static cache keys,
 * JobNode's KeyTemplate and the pools' URI Template.
 *
 * A placeholder is `##` + one or more characters other than `#` + `##`, scanned left to right without
 * overlap. Values: JMS names are headers, then properties, then `body` (the body text, read when the
 * template is rendered), else "". Deliberate deviation from the original (§6.3, [QUIRK] fixed): all
 * placeholders are replaced in one pass over the template, so a value that itself contains
 * `##other##` is never expanded again, and names are matched literally (`##a.b##` does not match
 * `##aXb##`). Names containing `(` or `)` are still rejected at start-up, for compatibility.
 */
import { Message } from '../message';
import { ConfigWhere, RuleConfigError } from './errors';
import { FieldReader, templateReader } from './message-fields';

const PLACEHOLDER = /##([^#]+)##/g;

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
  private readonly literals: string[];
  private readonly names: string[];
  private readonly readers: FieldReader[];
  private readonly bodyIndexes: boolean[];
  private readonly clock: () => number;

  constructor(
    readonly source: string,
    options: TemplateOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.literals = [];
    this.names = [];
    let last = 0;
    for (const m of source.matchAll(PLACEHOLDER)) {
      const name = m[1];
      if (name.includes('(') || name.includes(')')) {
        throw new RuleConfigError(options.where ?? {}, `template field ${JSON.stringify(name)} contains a parenthesis`, 'a field name without ( or )');
      }
      this.literals.push(source.slice(last, m.index));
      this.names.push(name);
      last = (m.index as number) + m[0].length;
    }
    this.literals.push(source.slice(last));
    this.readers = this.names.map(templateReader);
    this.bodyIndexes = this.names.map((n) => n === 'body');
    this.fields = [...new Set(this.names)];
    this.isStatic = this.names.length === 0;
  }

  /** True when `text` contains at least one `##name##` placeholder. */
  static hasPlaceholders(text: string): boolean {
    return /##[^#]+##/.test(text);
  }

  /**
   * Renders the template against a message. `bodyValue`, when given, is what `##body##` renders
   * (the formatter passes the MapKey entry of a map message).
   */
  format(msg: Message, bodyValue?: string): string {
    const literals = this.literals;
    const readers = this.readers;
    let s = literals[0];
    if (readers.length === 0) return s;
    const clock = this.clock;
    if (bodyValue === undefined) {
      for (let i = 0; i < readers.length; i++) s += (readers[i](msg, clock) ?? '') + literals[i + 1];
      return s;
    }
    for (let i = 0; i < readers.length; i++) {
      const v = this.bodyIndexes[i] && !msg.properties.has('body') ? bodyValue : readers[i](msg, clock);
      s += (v ?? '') + literals[i + 1];
    }
    return s;
  }
}
