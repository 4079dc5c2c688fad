/**
 * The original's event texts (org.qbroker.event): the escapes of event values and content lists, shared by
 * the "postable" form (stream-reply-parser.ts) and the "collectible" event line (EventParser without a
 * pattern; also StreamPersister's Destination / DestinationProperty login, docs/components/stream-and-file.md):
 *
 *   <yyyy-MM-dd HH:mm:ss,SSS zone> <IPv4> <site> <category> <name> <epoch ms> <PRIORITY> <hostname> <program>
 *   [<pid>:1] <owner> <type> "<text>" Content( ~ ): k1 ~ v1 ~ k2 ~ v2
 *
 * Inside the text and the content, & = " \r become __ampersand__ __equal__ __quote__ __cr__ and a newline
 * becomes \r; " ~ " inside a content value becomes " __tilde__ ".
 */
import os from 'node:os';

const ITEM_SEPARATOR = ' ~ ';
const ESCAPED_ITEM_SEPARATOR = ' __tilde__ ';

/** Attributes that have their own slot in the line, never in Content. */
const SLOT_ATTRIBUTES = new Set(['site', 'category', 'name', 'date', 'priority', 'hostname', 'program', 'pid', 'owner', 'text', 'type']);

// The original's EventParser pattern for a collectible line, group for group.
const COLLECTIBLE =
  /^\d\d\d\d-\d+-\d+ \d+:\d+:\d+,\d\d\d [-+:/a-zA-Z_0-9]+ \d+\.\d+\.\d+\.\d+ ([^ ]+) ([^ ]+) ([^ ]+) (\d+) ([^ ]+) ([^ ]+) ([^ ]+) \[(-?\d+):([^\]]+)\] ([^ ]+) ([^ ]+) "([^"]*)" Content\(([^(]+)\): ?(.*)$/;

export interface CollectibleEvent {
  readonly priority: string;
  readonly text: string;
  readonly attributes: ReadonlyMap<string, string>;
}

function escapeText(value: string, quote: boolean): string {
  let v = value.split('&').join('__ampersand__').split('=').join('__equal__');
  if (quote) v = v.split('"').join('__quote__');
  return v.split('\r').join('__cr__').split('\n').join('\r');
}

/**
 * Undoes the event escapes: __quote__ (only when `quote`: texts, not content lists), __ampersand__,
 * __equal__, a bare \r (it stood for a newline), then __cr__.
 */
export function unescapeEventValue(value: string, quote: boolean): string {
  let v = quote ? value.split('__quote__').join('"') : value;
  v = v.split('__ampersand__').join('&').split('__equal__').join('=');
  return v.split('\r').join('\n').split('__cr__').join('\r');
}

/** "k1 ~ v1 ~ k2 ~ v2" (already unescaped) into attributes; " __tilde__ " inside a value is a literal " ~ ". */
export function addContentPairs(content: string, attributes: Map<string, string>): void {
  const items = content.split(ITEM_SEPARATOR).map((s) => s.split(ESCAPED_ITEM_SEPARATOR).join(ITEM_SEPARATOR));
  for (let i = 0; i + 1 < items.length; i += 2) if (items[i] !== '') attributes.set(items[i], items[i + 1]);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** "yyyy-MM-dd HH:mm:ss,SSS UTC" (always UTC here; the original used the JVM's zone). */
function stamp(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())},${pad(d.getUTCMilliseconds(), 3)} UTC`;
}

function localIPv4(): string {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}

function safeUser(): string {
  try {
    return os.userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** One collectible line (with its trailing newline) for the attributes, stamped `now`. */
export function formatCollectible(attributes: ReadonlyMap<string, string>, now = new Date()): string {
  const a = (k: string, fallback: string) => attributes.get(k) ?? fallback;
  const content: string[] = [];
  for (const [k, v] of attributes) {
    if (k === '' || SLOT_ATTRIBUTES.has(k)) continue;
    content.push(k, v.split(ITEM_SEPARATOR).join(ESCAPED_ITEM_SEPARATOR));
  }
  const head = [
    stamp(now),
    localIPv4(),
    a('site', 'DEFAULT'),
    a('category', 'EVENT'),
    a('name', 'event'),
    String(now.getTime()),
    a('priority', 'INFO'),
    a('hostname', os.hostname()),
    a('program', 'xroute'),
    `[${a('pid', String(process.pid))}:1]`,
    a('owner', safeUser()),
    a('type', 'Unknown'),
  ].join(' ');
  return `${head} "${escapeText(a('text', ''), true)}" Content(${ITEM_SEPARATOR}): ${escapeText(content.join(ITEM_SEPARATOR), false)}\n`;
}

/** Reads a collectible line; undefined when the line is not one (the original's parser returns null). */
export function parseCollectible(line: string): CollectibleEvent | undefined {
  const m = COLLECTIBLE.exec(line.replace(/\r?\n$/, ''));
  if (!m) return undefined;
  const attributes = new Map<string, string>([
    ['site', m[1]],
    ['category', m[2]],
    ['name', m[3]],
    ['date', m[4]],
    ['hostname', m[6]],
    ['program', m[7]],
    ['pid', m[8]],
    ['owner', m[10]],
    ['type', m[11]],
  ]);
  const content = m[14];
  if (content.length > 1) addContentPairs(unescapeEventValue(content, false), attributes);
  return { priority: m[5].toUpperCase(), text: unescapeEventValue(m[12], true), attributes };
}
