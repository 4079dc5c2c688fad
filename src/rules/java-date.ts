/**
 * The subset of Java SimpleDateFormat the rules need (`~=` and `#=` substitutions, TimePattern,
 * JMSDate, StartTime/StopTime of time windows): pattern letters G y M d H h k K m s S E a z Z X D u,
 * quoted text, lenient parsing that accepts a prefix of the text, and the process's local time zone
 * (docs/evaluator/rules.md).
 */
import { ConfigWhere, RuleConfigError } from './errors';

type Token = { lit: string } | { field: string; width: number };

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const NUMERIC = new Set(['y', 'M', 'd', 'H', 'h', 'k', 'K', 'm', 's', 'S', 'D', 'u']);
const SUPPORTED = new Set([...NUMERIC, 'G', 'E', 'a', 'z', 'Z', 'X']);

/** Well-known zone abbreviations accepted when parsing, in minutes east of UTC. */
const ZONE_ABBREVIATIONS: Readonly<Record<string, number>> = {
  UTC: 0,
  GMT: 0,
  UT: 0,
  Z: 0,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  CET: 60,
  CEST: 120,
  BST: 60,
  IST: 330,
  JST: 540,
};

function tokenize(pattern: string, where: ConfigWhere): Token[] {
  const tokens: Token[] = [];
  const pushLit = (s: string) => {
    const last = tokens[tokens.length - 1];
    if (last !== undefined && 'lit' in last) last.lit += s;
    else tokens.push({ lit: s });
  };
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i];
    if (c === "'") {
      if (pattern[i + 1] === "'") {
        pushLit("'");
        i += 2;
        continue;
      }
      let j = i + 1;
      let text = '';
      for (; j < pattern.length; j++) {
        if (pattern[j] === "'") {
          if (pattern[j + 1] === "'") {
            text += "'";
            j++;
          } else break;
        } else text += pattern[j];
      }
      if (j >= pattern.length) throw new RuleConfigError(where, `unterminated quote in date pattern ${JSON.stringify(pattern)}`);
      pushLit(text);
      i = j + 1;
      continue;
    }
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      let j = i;
      while (pattern[j] === c) j++;
      if (!SUPPORTED.has(c))
        throw new RuleConfigError(where, `unsupported letter ${c} in date pattern ${JSON.stringify(pattern)}`, `a pattern of ${[...SUPPORTED].join('')}`);
      tokens.push({ field: c, width: j - i });
      i = j;
      continue;
    }
    pushLit(c);
    i++;
  }
  return tokens;
}

const pad = (n: number, width: number): string => {
  const s = String(Math.abs(n));
  return (n < 0 ? '-' : '') + (s.length >= width ? s : '0'.repeat(width - s.length) + s);
};

const zoneNameFormatters = new Map<string, Intl.DateTimeFormat>();
function zoneName(d: Date, long: boolean): string {
  const key = long ? 'long' : 'short';
  let f = zoneNameFormatters.get(key);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', { timeZoneName: key });
    zoneNameFormatters.set(key, f);
  }
  return f.formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? 'UTC';
}

function offsetText(minutesEast: number, colon: boolean, isoZ: boolean): string {
  if (isoZ && minutesEast === 0) return 'Z';
  const sign = minutesEast < 0 ? '-' : '+';
  const abs = Math.abs(minutesEast);
  return sign + pad(Math.floor(abs / 60), 2) + (colon ? ':' : '') + pad(abs % 60, 2);
}

export interface DatePattern {
  readonly pattern: string;
  /** Formats epoch ms in the local time zone. */
  format(epochMs: number): string;
  /** Lenient prefix parse in the local time zone (or the zone in the text); undefined when it does not parse. */
  parse(text: string): number | undefined;
}

export function compileDatePattern(pattern: string, where: ConfigWhere = {}): DatePattern {
  const tokens = tokenize(pattern, where);
  return {
    pattern,
    format: (epochMs) => formatTokens(tokens, new Date(epochMs)),
    parse: (text) => parseTokens(tokens, text),
  };
}

function formatTokens(tokens: Token[], d: Date): string {
  let out = '';
  for (const t of tokens) {
    if ('lit' in t) {
      out += t.lit;
      continue;
    }
    const w = t.width;
    switch (t.field) {
      case 'G':
        out += d.getFullYear() > 0 ? 'AD' : 'BC';
        break;
      case 'y':
        out += w === 2 ? pad(d.getFullYear() % 100, 2) : pad(d.getFullYear(), w);
        break;
      case 'M':
        out += w >= 4 ? MONTHS[d.getMonth()] : w === 3 ? MONTHS[d.getMonth()].slice(0, 3) : pad(d.getMonth() + 1, w);
        break;
      case 'd':
        out += pad(d.getDate(), w);
        break;
      case 'H':
        out += pad(d.getHours(), w);
        break;
      case 'h':
        out += pad(d.getHours() % 12 === 0 ? 12 : d.getHours() % 12, w);
        break;
      case 'k':
        out += pad(d.getHours() === 0 ? 24 : d.getHours(), w);
        break;
      case 'K':
        out += pad(d.getHours() % 12, w);
        break;
      case 'm':
        out += pad(d.getMinutes(), w);
        break;
      case 's':
        out += pad(d.getSeconds(), w);
        break;
      case 'S':
        out += pad(d.getMilliseconds(), w);
        break;
      case 'D': {
        const start = new Date(d.getFullYear(), 0, 1);
        out += pad(Math.round((new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime() - start.getTime()) / 86400000) + 1, w);
        break;
      }
      case 'u':
        out += pad(d.getDay() === 0 ? 7 : d.getDay(), w);
        break;
      case 'E':
        out += w >= 4 ? DAYS[d.getDay()] : DAYS[d.getDay()].slice(0, 3);
        break;
      case 'a':
        out += d.getHours() < 12 ? 'AM' : 'PM';
        break;
      case 'z':
        out += zoneName(d, w >= 4);
        break;
      case 'Z':
        out += offsetText(-d.getTimezoneOffset(), false, false);
        break;
      case 'X':
        out += w === 1 ? offsetText(-d.getTimezoneOffset(), false, true).slice(0, 3) : offsetText(-d.getTimezoneOffset(), w >= 3, true);
        break;
    }
  }
  return out;
}

function matchName(text: string, pos: number, names: string[]): { index: number; length: number } | undefined {
  const rest = text.slice(pos).toLowerCase();
  for (let k = 0; k < names.length; k++) if (rest.startsWith(names[k].toLowerCase())) return { index: k, length: names[k].length };
  for (let k = 0; k < names.length; k++) if (rest.startsWith(names[k].slice(0, 3).toLowerCase())) return { index: k, length: 3 };
  return undefined;
}

function parseZone(text: string, pos: number): { minutes: number; length: number } | undefined {
  const rest = text.slice(pos);
  const off = /^(?:GMT|UTC)?([+-])(\d{1,2}):?(\d{2})?/.exec(rest);
  if (off !== null) {
    const minutes = Number(off[2]) * 60 + Number(off[3] ?? '0');
    return { minutes: off[1] === '-' ? -minutes : minutes, length: off[0].length };
  }
  const abbr = /^[A-Za-z]+/.exec(rest);
  if (abbr !== null) {
    for (let len = abbr[0].length; len > 0; len--) {
      const m = ZONE_ABBREVIATIONS[abbr[0].slice(0, len).toUpperCase()];
      if (m !== undefined) return { minutes: m, length: len };
    }
  }
  return undefined;
}

function parseTokens(tokens: Token[], text: string): number | undefined {
  let pos = 0;
  let year = 1970;
  let month = 0;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let milli = 0;
  let pm: boolean | undefined;
  let twelveHour = false;
  let zoneMinutes: number | undefined;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if ('lit' in t) {
      if (!text.startsWith(t.lit, pos)) {
        // lenient about runs of whitespace
        if (t.lit.trim() === '' && /^\s/.test(text.slice(pos))) {
          while (/\s/.test(text[pos] ?? '')) pos++;
          continue;
        }
        return undefined;
      }
      pos += t.lit.length;
      continue;
    }
    if (t.field === 'M' && t.width >= 3) {
      const m = matchName(text, pos, MONTHS);
      if (m === undefined) return undefined;
      month = m.index;
      pos += m.length;
      continue;
    }
    if (t.field === 'E') {
      const m = matchName(text, pos, DAYS);
      if (m === undefined) return undefined;
      pos += m.length;
      continue;
    }
    if (t.field === 'a') {
      const s = text.slice(pos, pos + 2).toUpperCase();
      if (s !== 'AM' && s !== 'PM') return undefined;
      pm = s === 'PM';
      pos += 2;
      continue;
    }
    if (t.field === 'G') {
      const s = text.slice(pos, pos + 2).toUpperCase();
      if (s !== 'AD' && s !== 'BC') return undefined;
      pos += 2;
      continue;
    }
    if (t.field === 'z' || t.field === 'Z' || t.field === 'X') {
      const z = parseZone(text, pos);
      if (z === undefined) return undefined;
      zoneMinutes = z.minutes;
      pos += z.length;
      continue;
    }
    // numeric field: fixed width when the next token is an abutting numeric field, else greedy
    const next = tokens[k + 1];
    const abutting = next !== undefined && 'field' in next && NUMERIC.has(next.field) && !(next.field === 'M' && next.width >= 3);
    let end = pos;
    if (text[end] === '-' || text[end] === '+') end++;
    const digitsStart = end;
    while (end < text.length && text[end] >= '0' && text[end] <= '9' && (!abutting || end - digitsStart < t.width)) end++;
    if (end === digitsStart) return undefined;
    const value = Number(text.slice(pos, end));
    const digits = end - digitsStart;
    pos = end;
    switch (t.field) {
      case 'y':
        year = value;
        if (t.width <= 2 && digits === 2) {
          // two-digit years fall within 80 years before and 20 years after now, as in Java
          const now = new Date().getFullYear();
          year = Math.floor((now - 80) / 100) * 100 + value;
          if (year < now - 80) year += 100;
        }
        break;
      case 'M':
        month = value - 1;
        break;
      case 'd':
        day = value;
        break;
      case 'H':
      case 'k':
        hour = t.field === 'k' && value === 24 ? 0 : value;
        break;
      case 'h':
      case 'K':
        hour = t.field === 'h' && value === 12 ? 0 : value;
        twelveHour = true;
        break;
      case 'm':
        minute = value;
        break;
      case 's':
        second = value;
        break;
      case 'S':
        milli = value;
        break;
      case 'D':
        month = 0;
        day = value;
        break;
      case 'u':
        break;
    }
  }
  if (twelveHour && pm === true) hour += 12;
  const d = new Date(0);
  if (zoneMinutes === undefined) {
    d.setFullYear(year, month, day);
    d.setHours(hour, minute, second, milli);
    return d.getTime();
  }
  d.setUTCFullYear(year, month, day);
  d.setUTCHours(hour, minute, second, milli);
  return d.getTime() - zoneMinutes * 60000;
}
