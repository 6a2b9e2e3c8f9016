import type { Logger, LogLevel } from '../core/logger.js';

/** Each level's rank: a line is logged when its level's is at or above the client's `logLevel`. */
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
