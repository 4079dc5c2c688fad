/**
 * Reply parsers for StreamPersister's `Parser` property (docs/components/stream-and-file.md): a map with `ClassName` and an
 * optional `ParserArgument`. A parser fills one reply into a message (properties and/or body).
 *
 *  - ClassName "org.qbroker.event.EventParser" (or "event.EventParser") is built in, as the original's:
 *    with ParserArgument (a Perl5 regular expression) the reply holds a "postable" event text in the
 *    pattern's first group, a query string such as
 *    `SITE=s&CATEGORY=c&NAME=n&type=t&priority=INFO&hostname=h&program=p&username=u&pid=1&date=<ms>&summary=text&delimiter= ~ &content=k1 ~ v1 ~ k2 ~ v2`;
 *    without it the reply is a "collectible" event line (event-text.ts) or, as an extension, a whole
 *    postable text.
 *  - Any other ClassName names a CommonJS module loaded ONLY from the topology's PluginDir directories,
 *    with the same loader as the MessageEvaluator's plugins. Its factory gets ParserArgument (null when
 *    absent) and returns an object with `parse(replyText, msg)`; throwing from it is a parse error.
 */
import { XrouteError } from '../../src/foundation/xroute-error';
import { Message } from '../../src/message/message';
import { createPluginInstance, resolvePluginModule } from '../../src/runtime/plugin-module';
import { ComponentConfigError, perl5Setting } from '../support/config-values';
import { addContentPairs, parseCollectible, unescapeEventValue } from './event-text';
import { PluginLoadError } from '../../src/runtime/errors';

export interface ReplyParser {
  /** Fills the reply into `msg`; throws (preferably a ReplyParseError) when the reply cannot be read. */
  parse(replyText: string, msg: Message): void;
}

export interface ParserSpec {
  readonly className: string;
  readonly argument: unknown;
}

/** A reply the parser could not read; the persister turns it into RCField -1 with the reason. */
export class ReplyParseError extends XrouteError {
  constructor(
    readonly parser: string,
    readonly reason: string,
    cause?: unknown,
  ) {
    super(`${parser}: ${reason}`, cause === undefined ? undefined : { cause });
    this.name = 'ReplyParseError';
  }
}

const EVENT_PARSER_CLASS = 'org.qbroker.event.EventParser';
const EVENT_PARSER_NAMES = new Set([EVENT_PARSER_CLASS, 'event.EventParser']);

const PRIORITY_NAMES = new Set(['EMERG', 'ALERT', 'CRIT', 'ERR', 'WARNING', 'NOTICE', 'INFO', 'DEBUG', 'TRACE', 'NONE']);

/** A postable value: the \x escapes of special characters first, then the event escapes. */
function unescapePostable(value: string, quote: boolean): string {
  return unescapeEventValue(value.replace(/\\x22/g, '"').replace(/\\x0D/g, '\r').replace(/\\x09/g, '\t'), quote);
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
    if (typeof argument !== 'string')
      throw new ComponentConfigError(component, 'Parser/ParserArgument', argument, 'a regular expression whose first group is the postable event text');
    this.pattern = perl5Setting(component, 'Parser/ParserArgument', argument);
  }

  parse(replyText: string, msg: Message): void {
    let text = replyText.replace(/\r?\n$/, '');
    if (this.pattern) {
      const m = this.pattern.exec(text);
      if (!m || m[1] === undefined) throw new ReplyParseError(EVENT_PARSER_CLASS, `reply does not match ParserArgument ${this.pattern.source}`);
      text = m[1];
    } else {
      // Without a pattern the original reads a collectible line; a postable text is accepted too (extension).
      const event = parseCollectible(text);
      if (event !== undefined) {
        for (const [k, v] of event.attributes) msg.setProperty(k, v);
        msg.setProperty('priority', PRIORITY_NAMES.has(event.priority) ? event.priority : 'INFO');
        msg.body = { kind: 'text', text: event.text };
        return;
      }
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
        case 'SITE':
          first('site', value);
          break;
        case 'CATEGORY':
          first('category', value);
          break;
        case 'NAME':
          first('name', value);
          break;
        case 'username':
          first('owner', value);
          break;
        case 'program':
        case 'pid':
        case 'hostname':
        case 'type':
        case 'tid':
          first(key, value);
          break;
        case 'priority':
          if (PRIORITY_NAMES.has(value)) priority = value;
          break;
        case 'date':
          if (!/^-?\d+$/.test(value)) throw new ReplyParseError(EVENT_PARSER_CLASS, `date ${JSON.stringify(value)} is not epoch milliseconds`);
          attrs.set('date', value);
          break;
        case 'summary':
          if (summary === undefined) summary = unescapePostable(value, true);
          break;
        case 'content':
          if (value.length > 1) addContentPairs(unescapePostable(value, false), attrs);
          break;
        default: // delimiter and unknown keys are not attributes, as in the original
      }
    }
    if (attrs.size === 0 && summary === undefined)
      throw new ReplyParseError(EVENT_PARSER_CLASS, 'reply is not a postable event (no SITE/CATEGORY/NAME/... attribute)');
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
      throw e instanceof ReplyParseError ? e : new ReplyParseError(this.className, e instanceof Error ? e.message : String(e), e);
    }
  }
}

/** The Parser map from a configuration, or undefined when there is none. */
export function readParserSpec(component: string, raw: unknown): ParserSpec | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new ComponentConfigError(component, 'Parser', raw, 'a map with ClassName and optional ParserArgument');
  const r = raw as Record<string, unknown>;
  if (typeof r.ClassName !== 'string' || r.ClassName.trim() === '')
    throw new ComponentConfigError(component, 'Parser/ClassName', r.ClassName, `"${EVENT_PARSER_CLASS}" or the name of a module in a PluginDir`);
  return { className: r.ClassName.trim(), argument: r.ParserArgument ?? null };
}

/** Builds the parser; an unknown class or a plugin outside every PluginDir is a ComponentConfigError. */
/** The module of a parser plugin, found in PluginDir; ComponentConfigError when none holds it. */
function parserModule(component: string, spec: ParserSpec, pluginDirs: readonly string[]): string {
  const file = resolvePluginModule(spec.className, pluginDirs);
  if (file !== undefined) return file;
  const where = pluginDirs.length === 0 ? 'no PluginDir is configured' : `not found in PluginDir ${pluginDirs.join(', ')}`;
  throw new ComponentConfigError(component, 'Parser/ClassName', spec.className, `"${EVENT_PARSER_CLASS}" or a .js or .ts module inside a PluginDir (${where})`);
}

/** Checks a Parser without running user code (the settings reader): a plugin module is found, not loaded. */
export function checkReplyParser(component: string, spec: ParserSpec, pluginDirs: readonly string[]): void {
  if (EVENT_PARSER_NAMES.has(spec.className)) new EventReplyParser(spec.argument, component);
  else parserModule(component, spec, pluginDirs);
}

export function createReplyParser(component: string, spec: ParserSpec, pluginDirs: readonly string[]): ReplyParser {
  if (EVENT_PARSER_NAMES.has(spec.className)) return new EventReplyParser(spec.argument, component);
  const file = parserModule(component, spec, pluginDirs);
  let target: unknown;
  try {
    target = createPluginInstance(file, spec.argument);
  } catch (e) {
    if (e instanceof PluginLoadError)
      throw new ComponentConfigError(component, 'Parser/ClassName', spec.className, `a loadable parser plugin (${e.problem})`, e);
    throw e;
  }
  const parse = typeof target === 'object' && target !== null ? (target as { parse?: unknown }).parse : undefined;
  if (typeof parse !== 'function')
    throw new ComponentConfigError(component, 'Parser/ClassName', spec.className, 'a plugin whose factory returns an object with parse(replyText, msg)');
  return new PluginReplyParser(spec.className, target as { parse: (replyText: string, msg: Message) => unknown });
}
