/** Anything with console-like methods: `console`, pino, winston. */
export interface Logger {
  /** Each attempt and each answer, with the request headers (only allow-listed values shown). */
  debug(message: string, data?: Record<string, unknown>): void;
  /** The SDK writes nothing at this level today; it is part of the shape so any console-like logger fits. */
  info(message: string, data?: Record<string, unknown>): void;
  /** A failed attempt that will be retried, with the delay; a `baseUrl` that does not end in `/v2`. */
  warn(message: string, data?: Record<string, unknown>): void;
  /** A call that failed and will not be retried (the error is thrown next). */
  error(message: string, data?: Record<string, unknown>): void;
}

/** The lowest level the client's `logger` receives (`logLevel` option); `'off'` logs nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

export const LOG_LEVELS: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };

/**
 * Passes a line to the client's logger when its level is at or above the client's `logLevel`. A
 * logger that throws is the caller's bug, not the call's outcome: its error is dropped.
 */
export function log(
  config: { logger: Logger | undefined; logThreshold: number },
  level: Exclude<LogLevel, 'off'>,
  message: string,
  data?: Record<string, unknown>,
): void {
  if (config.logger === undefined || LOG_LEVELS[level] < config.logThreshold) return;
  try {
    // Without data the line is passed alone: console.debug(message, undefined) prints "undefined".
    if (data === undefined) config.logger[level](message);
    else config.logger[level](message, data);
  } catch {
    // Nowhere left to report it: the logger is what reports.
  }
}
