/**
 * Structured logging through winston, on stderr by default so that stdout stays free for a flow's output:
 * one JSON line per event when the destination is not a terminal, a readable line on a terminal. Every line passes through `redact`, so no password is ever logged.
 */
import winston from 'winston';
import { redact, redactText } from './redact';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

/** The logging surface components use (a thin, typed view of a winston logger). */
export interface Logger {
  error(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  debug(message: string, meta?: Record<string, unknown>): void;
  /**
   * Whether debug lines are written: a component reads it once at start (debugEnabled) and builds the fields of a
   * per-message debug line only when it is true, so that `--log-level info` costs the message path nothing. A
   * logger without it (one written before it existed) is taken as not writing them.
   */
  isDebugEnabled?(): boolean;
  child(meta: Record<string, unknown>): Logger;
}

/** Whether `logger` writes debug lines (false for a logger that does not say). */
export function debugEnabled(logger: Logger): boolean {
  return logger.isDebugEnabled?.() === true;
}

const redactFormat = winston.format((info) => {
  for (const key of Object.keys(info)) {
    if (key === 'level') continue;
    (info as Record<string, unknown>)[key] =
      key === 'message' && typeof info.message === 'string' ? redactText(info.message) : redact((info as Record<string, unknown>)[key]);
  }
  return info;
});

export interface LoggerOptions {
  level?: LogLevel;
  /** JSON lines (default when the destination is not a TTY) or human-readable text. */
  json?: boolean;
  /** Where lines go; default process.stderr. */
  stream?: NodeJS.WritableStream;
  silent?: boolean;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const stream = options.stream ?? process.stderr;
  const json = options.json ?? !(stream as { isTTY?: boolean }).isTTY;
  const format = json
    ? winston.format.combine(redactFormat(), winston.format.timestamp(), winston.format.json())
    : winston.format.combine(
        redactFormat(),
        winston.format.timestamp({ format: 'HH:mm:ss.SSS' }),
        winston.format.printf(({ timestamp, level, message, component, ...rest }) => {
          const extra = Object.keys(rest).length ? ' ' + JSON.stringify(rest) : '';
          return `${String(timestamp)} ${level.padEnd(5)} ${component ? `[${String(component)}] ` : ''}${String(message)}${extra}`;
        }),
      );
  const logger = winston.createLogger({
    level: options.level ?? (process.env.XROUTE_LOG_LEVEL as LogLevel | undefined) ?? 'info',
    silent: options.silent,
    format,
    transports: [new winston.transports.Stream({ stream })],
  });
  return wrap(logger);
}

function wrap(w: winston.Logger): Logger {
  return {
    error: (m, meta) => w.error(m, meta),
    warn: (m, meta) => w.warn(m, meta),
    info: (m, meta) => w.info(m, meta),
    debug: (m, meta) => w.debug(m, meta),
    isDebugEnabled: () => w.isDebugEnabled(),
    child: (meta) => wrap(w.child(meta)),
  };
}

/** A logger that drops everything (tests, and the engine when no logger is given). */
export const silentLogger: Logger = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  isDebugEnabled: () => false,
  child: () => silentLogger,
};

/** A logger that records entries in memory; for tests that assert on what was logged. */
export interface LogEntry {
  level: LogLevel;
  message: string;
  meta: Record<string, unknown>;
}
/** It records every level; `debug: true` makes it say debug is enabled, so guarded debug lines are written too. */
export function memoryLogger(
  entries: LogEntry[] = [],
  base: Record<string, unknown> = {},
  options: { debug?: boolean } = {},
): Logger & { entries: LogEntry[] } {
  const at =
    (level: LogLevel) =>
    (message: string, meta: Record<string, unknown> = {}) =>
      entries.push({ level, message: redactText(message), meta: redact({ ...base, ...meta }) as Record<string, unknown> });
  return {
    entries,
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    isDebugEnabled: () => options.debug === true,
    child: (meta) => memoryLogger(entries, { ...base, ...meta }, options),
  };
}
