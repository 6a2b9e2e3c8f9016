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
