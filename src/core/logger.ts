/** Anything with console-like methods: `console`, pino, winston. */
export interface Logger {
  /** Each attempt and each answer, with the request headers (the API key redacted). */
  debug(message: string, data?: Record<string, unknown>): void;
  /** The SDK writes nothing at this level today; it is part of the shape so any console-like logger fits. */
  info(message: string, data?: Record<string, unknown>): void;
  /** A failed attempt that will be retried, with the delay. */
  warn(message: string, data?: Record<string, unknown>): void;
  /** A call that failed and will not be retried (the error is thrown next). */
  error(message: string, data?: Record<string, unknown>): void;
}

/** The lowest level the client's `logger` receives (`logLevel` option); `'off'` logs nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

export const LOG_LEVELS: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };

// Names that carry credentials by convention, so a key passed in `headers` rather than `apiKey`
// stays out of logs and hooks too.
const CREDENTIAL_HEADER = /authorization|api-?key|token|secret|password|cookie/i;

/** Whether a header's name says it carries a credential. */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADER.test(name);
}

/** A copy of `headers` safe to log: the values of the auth header and of credential-like headers are replaced. */
export function redactHeaders(headers: Readonly<Record<string, string>>, authHeaderName: string): Record<string, string> {
  const lower = authHeaderName.toLowerCase();
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = name.toLowerCase() === lower || isCredentialHeader(name) ? '[redacted]' : value;
  }
  return out;
}

/** Passes a line to the client's logger when its level is at or above the client's `logLevel`. */
export function log(config: { logger: Logger | undefined; logThreshold: number }, level: Exclude<LogLevel, 'off'>, message: string, data?: Record<string, unknown>): void {
  if (config.logger !== undefined && LOG_LEVELS[level] >= config.logThreshold) config.logger[level](message, data);
}
