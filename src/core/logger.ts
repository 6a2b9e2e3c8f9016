/** Anything with console-like methods: `console`, pino, winston. */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

export const LOG_LEVELS: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };

/** A copy of `headers` safe to log: the auth header's value is replaced. */
export function redactHeaders(headers: Readonly<Record<string, string>>, authHeaderName: string): Record<string, string> {
  const lower = authHeaderName.toLowerCase();
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    out[name] = key === lower || key === 'authorization' ? '[redacted]' : value;
  }
  return out;
}
