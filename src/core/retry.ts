import { ApiError, ConnectionError, RateLimitError, ResponseShapeError, TimeoutError } from '../errors/index.js';

/** The statuses an idempotent call is retried on; a POST only on 429. */
export const RETRYABLE_STATUSES = [408, 429, 500, 502, 503, 504];

/** Connection failures where the request never left this machine, so even a create is safe to repeat. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/** Marks a ConnectionError whose request provably never reached the server. */
export function wasNeverSent(error: unknown): boolean {
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_SENT_CODES.has(code)) return true;
    cause = cause.cause;
  }
  return false;
}

/**
 * Whether another attempt may help and cannot do harm.
 * GET and PUT are idempotent: retried on 408, 429, 500, 502-504, timeouts and network failures.
 * Every POST of this API creates something or sends a one-time code, so a POST is repeated only
 * when the service said it did nothing (429) or the request never left (connection refused).
 */
export function isRetryable(error: Error, idempotent: boolean): boolean {
  if (error instanceof RateLimitError) return true;
  if (!idempotent) return error instanceof ConnectionError && !(error instanceof TimeoutError) && wasNeverSent(error);
  if (error instanceof ApiError) return RETRYABLE_STATUSES.includes(error.status);
  // A coded answer (3007, ...) is the same on every try; only transport failures are worth another attempt.
  return error instanceof ConnectionError || error instanceof ResponseShapeError;
}
