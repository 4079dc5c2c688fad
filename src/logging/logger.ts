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
  return new WinstonLogger(logger);
}

/**
 * A winston logger seen as a Logger: methods on a prototype, not closures per logger (every actor keeps a child
 * logger, and a pool has 512 of them; issue 32).
 */
class WinstonLogger implements Logger {
  constructor(private readonly w: winston.Logger) {}

  error(message: string, meta?: Record<string, unknown>): void {
    this.w.error(message, meta);
  }

  warn(message: string, meta?: Record<string, unknown>): void {
    this.w.warn(message, meta);
  }

  info(message: string, meta?: Record<string, unknown>): void {
    this.w.info(message, meta);
  }

  debug(message: string, meta?: Record<string, unknown>): void {
    this.w.debug(message, meta);
  }

  isDebugEnabled(): boolean {
    return this.w.isDebugEnabled();
  }

  child(meta: Record<string, unknown>): Logger {
    return new WinstonLogger(this.w.child(meta));
  }
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
  return new MemoryLogger(entries, base, options);
}

/** memoryLogger's logger: methods on a prototype (as WinstonLogger). */
class MemoryLogger implements Logger {
  constructor(
    readonly entries: LogEntry[],
    private readonly base: Record<string, unknown>,
    private readonly options: { debug?: boolean },
  ) {}

  private record(level: LogLevel, message: string, meta: Record<string, unknown> = {}): void {
    this.entries.push({ level, message: redactText(message), meta: redact({ ...this.base, ...meta }) as Record<string, unknown> });
  }

  error(message: string, meta?: Record<string, unknown>): void {
    this.record('error', message, meta);
  }

  warn(message: string, meta?: Record<string, unknown>): void {
    this.record('warn', message, meta);
  }

  info(message: string, meta?: Record<string, unknown>): void {
    this.record('info', message, meta);
  }

  debug(message: string, meta?: Record<string, unknown>): void {
    this.record('debug', message, meta);
  }

  isDebugEnabled(): boolean {
    return this.options.debug === true;
  }

  child(meta: Record<string, unknown>): Logger {
    return new MemoryLogger(this.entries, { ...this.base, ...meta }, this.options);
  }
}
