/**
 * Reply parsers for StreamPersister's `Parser` property (components.md §6.1): a map with `ClassName` and an
 * optional `ParserArgument`. A parser fills one reply into a message (properties and/or body).
 *
 *  - ClassName "org.qbroker.event.EventParser" (or "event.EventParser") is built in: it reads the
 *    original's "postable" event text, a query string such as
 *    `SITE=s&CATEGORY=c&NAME=n&type=t&priority=INFO&hostname=h&program=p&username=u&pid=1&date=<ms>&summary=text&delimiter= ~ &content=k1 ~ v1 ~ k2 ~ v2`.
 *    ParserArgument, when given, is a regular expression whose first group holds the postable text inside
 *    a longer reply (as the original's EventParser pattern); without it the whole reply is the postable text.
 *  - Any other ClassName names a CommonJS module loaded ONLY from the topology's PluginDir directories,
 *    with the same loader as the MessageEvaluator's plugins. Its factory gets ParserArgument (null when
 *    absent) and returns an object with `parse(replyText, msg)`; throwing from it is a parse error.
 */
import { Message } from '../../src/message/message';
import { PluginLoadError, createPluginInstance, resolvePluginModule } from '../../src/rules/kinds/plugin';
import { ComponentConfigError } from '../support/config-values';

export interface ReplyParser {
  /** Fills the reply into `msg`; throws (preferably a ReplyParseError) when the reply cannot be read. */
  parse(replyText: string, msg: Message): void;
}

export interface ParserSpec {
  readonly className: string;
  readonly argument: unknown;
}

/** A reply the parser could not read; the persister turns it into RCField -1 with the reason. */
export class ReplyParseError extends Error {
  constructor(
    readonly parser: string,
    readonly reason: string,
  ) {
    super(`${parser}: ${reason}`);
    this.name = 'ReplyParseError';
  }
}

export const EVENT_PARSER_CLASS = 'org.qbroker.event.EventParser';
const EVENT_PARSER_NAMES = new Set([EVENT_PARSER_CLASS, 'event.EventParser']);

// The original's escapes inside postable values (org.qbroker.event.Event).
const ITEM_SEPARATOR = ' ~ ';
const ESCAPED_ITEM_SEPARATOR = ' __tilde__ ';
const PRIORITY_NAMES = new Set(['EMERG', 'ALERT', 'CRIT', 'ERR', 'WARNING', 'NOTICE', 'INFO', 'DEBUG', 'TRACE', 'NONE']);

/** Undoes the postable escapes of summary/content values; a bare \r stood for a newline. */
function unescapeValue(value: string, withQuote: boolean): string {
  let v = value.replace(/\\x22/g, '"').replace(/\\x0D/g, '\r').replace(/\\x09/g, '\t');
  if (withQuote) v = v.split('__quote__').join('"');
  v = v.split('__ampersand__').join('&').split('__equal__').join('=');
  return v.replace(/\r/g, '\n').split('__cr__').join('\r');
}

/** "k1 ~ v1 ~ k2 ~ v2" into pairs; " __tilde__ " inside a value is a literal " ~ ". */
function contentPairs(content: string): [string, string][] {
  const items = content.split(ITEM_SEPARATOR).map((s) => s.split(ESCAPED_ITEM_SEPARATOR).join(ITEM_SEPARATOR));
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < items.length; i += 2) if (items[i] !== '') pairs.push([items[i], items[i + 1]]);
  return pairs;
}

/**
 * The built-in EventParser: event attributes become message properties (the original's names: site,
 * category, name, type, priority, hostname, program, owner, pid, tid, date, plus every content pair);
 * the summary (the event's text) becomes the body. `date` keeps the epoch milliseconds as sent.
 */
export class EventReplyParser implements ReplyParser {
  private readonly pattern?: RegExp;

  constructor(argument: unknown, component = 'StreamPersister') {
    if (argument === null || argument === undefined || argument === '') return;
    if (typeof argument !== 'string') throw new ComponentConfigError(component, 'Parser/ParserArgument', argument, 'a regular expression whose first group is the postable event text');
    try {
      this.pattern = new RegExp(argument);
    } catch (e) {
      throw new ComponentConfigError(component, 'Parser/ParserArgument', argument, `a valid regular expression (${(e as Error).message})`);
    }
  }

  parse(replyText: string, msg: Message): void {
    let text = replyText.replace(/\r?\n$/, '');
    if (this.pattern) {
      const m = this.pattern.exec(text);
      if (!m || m[1] === undefined) throw new ReplyParseError(EVENT_PARSER_CLASS, `reply does not match ParserArgument ${this.pattern.source}`);
      text = m[1];
    }
    const attrs = new Map<string, string>();
    const first = (key: string, value: string) => {
      if (!attrs.has(key)) attrs.set(key, value);
    };
    let summary: string | undefined;
    let priority = 'INFO';
    for (const item of text.split('&')) {
      const eq = item.indexOf('=');
      if (eq <= 0) continue;
      const key = item.slice(0, eq).trim();
      const value = item.slice(eq + 1);
      switch (key) {
        case 'SITE': first('site', value); break;
        case 'CATEGORY': first('category', value); break;
        case 'NAME': first('name', value); break;
        case 'username': first('owner', value); break;
        case 'program': case 'pid': case 'hostname': case 'type': case 'tid': first(key, value); break;
        case 'priority': if (PRIORITY_NAMES.has(value)) priority = value; break;
        case 'date':
          if (!/^-?\d+$/.test(value)) throw new ReplyParseError(EVENT_PARSER_CLASS, `date ${JSON.stringify(value)} is not epoch milliseconds`);
          attrs.set('date', value);
          break;
        case 'summary': if (summary === undefined) summary = unescapeValue(value, true); break;
        case 'content': if (value.length > 1) for (const [k, v] of contentPairs(unescapeValue(value, false))) attrs.set(k, v); break;
        default: // delimiter and unknown keys are not attributes, as in the original
      }
    }
    if (attrs.size === 0 && summary === undefined) throw new ReplyParseError(EVENT_PARSER_CLASS, 'reply is not a postable event (no SITE/CATEGORY/NAME/... attribute)');
    attrs.set('priority', priority);
    for (const [k, v] of attrs) msg.setProperty(k, v);
    msg.body = { kind: 'text', text: summary ?? '' };
  }
}

/** Wraps a plugin instance so its failures come out as ReplyParseError. */
class PluginReplyParser implements ReplyParser {
  constructor(
    private readonly className: string,
    private readonly target: { parse: (replyText: string, msg: Message) => unknown },
  ) {}

  parse(replyText: string, msg: Message): void {
    try {
      this.target.parse(replyText, msg);
    } catch (e) {
      throw e instanceof ReplyParseError ? e : new ReplyParseError(this.className, e instanceof Error ? e.message : String(e));
    }
  }
}

/** The Parser map from a configuration, or undefined when there is none. */
export function readParserSpec(component: string, raw: unknown): ParserSpec | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ComponentConfigError(component, 'Parser', raw, 'a map with ClassName and optional ParserArgument');
  const r = raw as Record<string, unknown>;
  if (typeof r.ClassName !== 'string' || r.ClassName.trim() === '') throw new ComponentConfigError(component, 'Parser/ClassName', r.ClassName, `"${EVENT_PARSER_CLASS}" or the name of a module in a PluginDir`);
  return { className: r.ClassName.trim(), argument: r.ParserArgument ?? null };
}

/** Builds the parser; an unknown class or a plugin outside every PluginDir is a ComponentConfigError. */
export function createReplyParser(component: string, spec: ParserSpec, pluginDirs: readonly string[]): ReplyParser {
  if (EVENT_PARSER_NAMES.has(spec.className)) return new EventReplyParser(spec.argument, component);
  const file = resolvePluginModule(spec.className, pluginDirs);
  if (file === undefined) {
    const where = pluginDirs.length === 0 ? 'no PluginDir is configured' : `not found in PluginDir ${pluginDirs.join(', ')}`;
    throw new ComponentConfigError(component, 'Parser/ClassName', spec.className, `"${EVENT_PARSER_CLASS}" or a .js module inside a PluginDir (${where})`);
  }
  let target: unknown;
  try {
    target = createPluginInstance(file, spec.argument);
  } catch (e) {
    if (e instanceof PluginLoadError) throw new ComponentConfigError(component, 'Parser/ClassName', spec.className, `a loadable parser plugin (${e.problem})`);
    throw e;
  }
  const parse = typeof target === 'object' && target !== null ? (target as { parse?: unknown }).parse : undefined;
  if (typeof parse !== 'function') throw new ComponentConfigError(component, 'Parser/ClassName', spec.className, 'a plugin whose factory returns an object with parse(replyText, msg)');
  return new PluginReplyParser(spec.className, target as { parse: (replyText: string, msg: Message) => unknown });
}
