/**
 * Reading a pool request (docs/components/pools.md): the task map of an ObjectMessage, the URI (from the
 * task map, the URIField property, the pool's Template, or the body), and the split of the URI into the
 * address and the add-on properties (`&URI=&` separator or query string).
 */
import { XrouteError } from '../../src/foundation/xroute-error';
import { Message } from '../../src/message/message';
import { ConfigValue } from '../../src/runtime/component';
import { Template } from '../../src/rules/template';
import { XQueue } from '../../src/xqueue/xqueue';

/** Return codes a pool writes into RCField (docs/components/pools.md: 0 on success). */
export const POOL_RC = {
  SUCCESS: 0,
  /** URI missing, scheme unsupported, implementation not available */
  NOT_FOUND: 2,
  /** any other rejection: limits, bad request, construction error */
  REJECTED: 4,
} as const;
export type PoolReturnCode = (typeof POOL_RC)[keyof typeof POOL_RC];

/** Keys of the task map (the request's object). Response keys are written into the same object. */
export const TASK_KEYS = {
  XQueue: 'XQueue',
  Properties: 'Properties',
  Handle: 'Handle',
  MaxIdleTime: 'MaxIdleTime',
  Reason: 'Reason',
} as const;

export type PoolProperties = Record<string, ConfigValue>;

/** The task map: a plain object (or a Map) the requester and the pool share. */
export class TaskMap {
  private constructor(private readonly target: Record<string, unknown> | Map<string, unknown>) {}

  static of(value: unknown): TaskMap | undefined {
    if (value instanceof Map) return new TaskMap(value as Map<string, unknown>);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return new TaskMap(value as Record<string, unknown>);
    return undefined;
  }

  get(key: string): unknown {
    return this.target instanceof Map ? this.target.get(key) : this.target[key];
  }

  set(key: string, value: unknown): void {
    if (this.target instanceof Map) this.target.set(key, value);
    else this.target[key] = value;
  }

  delete(key: string): void {
    if (this.target instanceof Map) this.target.delete(key);
    else delete this.target[key];
  }
}

/** Thrown for a request the pool cannot serve; carries the return code and the reason given back. */
export class PoolRequestError extends XrouteError {
  constructor(
    readonly rc: PoolReturnCode,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'PoolRequestError';
  }
}

export function transmitQueueOf(task: TaskMap): XQueue<Message> {
  const q = task.get(TASK_KEYS.XQueue);
  if (!(q instanceof XQueue)) throw new PoolRequestError(POOL_RC.REJECTED, 'the request has no transmit XQueue (task map key "XQueue")');
  return q as XQueue<Message>;
}

/** A clone of the request's Properties (never shared with the requester or another request). */
export function requestPropertiesOf(task: TaskMap): PoolProperties {
  const p = task.get(TASK_KEYS.Properties);
  if (p === undefined || p === null) return {};
  const entries = p instanceof Map ? [...p.entries()] : typeof p === 'object' && !Array.isArray(p) ? Object.entries(p as object) : undefined;
  if (!entries) throw new PoolRequestError(POOL_RC.REJECTED, 'request Properties must be a map of names to values');
  const out: PoolProperties = {};
  for (const [k, v] of entries) {
    if (!isConfigValue(v)) throw new PoolRequestError(POOL_RC.REJECTED, `request property ${String(k)} must be a string, a list or a map of strings`);
    out[String(k)] = structuredClone(v);
  }
  return out;
}

function isConfigValue(v: unknown): v is ConfigValue {
  if (typeof v === 'string') return true;
  if (Array.isArray(v)) return v.every(isConfigValue);
  if (typeof v === 'object' && v !== null) return Object.values(v).every(isConfigValue);
  return false;
}

export interface UriSources {
  /** Field naming the URI (default "URI"): looked up in the task map, then as a message field. */
  uriField: string;
  template?: Template;
}

/** docs/components/pools.md: the URI from the task map or property named URIField, else the Template, else the body text. */
export function requestUriOf(msg: Message, task: TaskMap, sources: UriSources): string {
  const fromTask = task.get(sources.uriField);
  if (typeof fromTask === 'string' && fromTask.trim() !== '') return fromTask.trim();
  const fromField = msg.getField(sources.uriField);
  if (fromField !== undefined && fromField.trim() !== '') return fromField.trim();
  if (sources.template) return sources.template.format(msg).trim();
  // An ObjectMessage's body text is "", which is rejected as "no URI".
  return (msg.bodyText() ?? '').trim();
}

/** "k=v&k2=v2": split on "&", then at the first "="; parts without "=" are skipped; later duplicates win; nothing is decoded. */
export function parsePairs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}

/**
 * docs/components/pools.md: `addr&URI=&k=v...` keeps addr whole (with its own query string) and takes the pairs after the
 * marker; otherwise `addr?k=v...` takes the query pairs; otherwise the whole text is the address.
 */
export function splitRequestUri(text: string): { uri: string; pairs: Record<string, string> } {
  const marker = text.indexOf('&URI=&');
  if (marker > 0) return { uri: text.slice(0, marker), pairs: parsePairs(text.slice(marker + 6)) };
  const q = text.indexOf('?');
  if (q > 0) return { uri: text.slice(0, q), pairs: parsePairs(text.slice(q + 1)) };
  return { uri: text, pairs: {} };
}
