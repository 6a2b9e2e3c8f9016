import {
  ApiError,
  ConnectionError,
  type DeliveryError,
  RateLimitError,
  RequestAbortedError,
  ResponseShapeError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
} from '../errors/index.js';
import { isOutOfTime } from './deadline.js';
import { NOT_LOADED } from './on-first-use.js';

/** `Retry-After` in milliseconds, from delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value === null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The statuses an idempotent call is retried on; a POST only on 429. */
const RETRYABLE_STATUSES: readonly number[] = [408, 429, 500, 502, 503, 504];

/** Connection failures where the request never left this machine, so even a create is safe to repeat. */

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', NOT_LOADED]);

/** Marks a ConnectionError whose request provably never reached the server. */
function wasNeverSent(error: unknown): boolean {
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_SENT_CODES.has(code)) return true;
    cause = cause.cause;
  }
  return false;
}

/**
 * Whether the attempt that ended in `error` may have reached the service and done what it asked:
 * the one rule behind `mayExist`, for a single call and for each order of a bulk upload. An
 * answer the service gave in words (a 4xx, a code) says it did nothing; a 5xx, a lost or cut
 * exchange, or an answer that could not be read leave it open.
 */
export function mayHaveActed(error: DeliveryError): boolean {
  if (error instanceof TimeoutError || error instanceof RequestAbortedError) return true;
  if (error instanceof ConnectionError) return !wasNeverSent(error);
  if (error instanceof ApiError) return error instanceof ServerError;
  return error instanceof ResponseShapeError || error instanceof ResponseTooLargeError;
}

/**
 * Whether another attempt may help and cannot do harm.
 * GET and PUT are idempotent: retried on 408, 429, 500, 502-504, timeouts, broken or malformed
 * answers and network failures. Every POST of this API creates something or sends a one-time
 * code, so a POST is repeated only when the service said it did nothing (429) or the request
 * never left (connection refused).
 */
function isRetryable(error: DeliveryError, idempotent: boolean): boolean {
  // 429: the service refused before doing anything, whatever the method.
  if (error instanceof RateLimitError) return true;
  // A create whose outcome is unknown must not be repeated: it could exist twice. Only a request
  // that never left this machine is surely not processed.
  if (!idempotent) return error instanceof ConnectionError && !(error instanceof TimeoutError) && wasNeverSent(error);
  // Statuses that say "later" (overload, gateway, timeout); a 400 or a 404 is the same next time.
  if (error instanceof ApiError) return RETRYABLE_STATUSES.includes(error.status);
  // A coded answer (3007, ...) is the same on every try; a broken connection, a timed-out attempt
  // or a garbled 2xx may not be.
  return error instanceof ConnectionError || error instanceof ResponseShapeError;
}

/** What the retry policy needs of a call. */
interface RetryState {
  /** The attempt that just failed, from 1. */
  attempt: number;
  maxRetries: number;
  idempotent: boolean;
  retryBase: number;
  retryMax: number;
  /** Epoch ms at which `totalTimeout` ends the call. */
  deadlineAt: number;
}

/**
 * The longest wait the SDK takes because the service asked for it (`Retry-After`): 60 s, as
 * Stripe's and OpenAI's SDKs cap it. A longer one ends the call on the error that asked for it
 * (its `retryAfter` says when): a program, or a process that `totalTimeout: Infinity` would keep
 * alive for days, decides itself whether to wait.
 */
const MAX_RETRY_AFTER = 60_000;

/** Milliseconds to wait before the next attempt, or `undefined` when the call ends on `failure`. */
export function retryDelay(failure: DeliveryError, state: RetryState): number | undefined {
  // The caller allowed this many attempts after the first, and no more.
  if (state.attempt > state.maxRetries) return undefined;
  if (!isRetryable(failure, state.idempotent)) return undefined;
  // The service said when it can take the call again: waiting less would only be refused again.
  const asked = failure instanceof ApiError ? parseRetryAfter(failure.headers['retry-after']) : undefined;
  if ((asked ?? 0) > MAX_RETRY_AFTER) return undefined;
  // Otherwise full jitter below min(max, base * 2^n): clients failed by the same outage do not
  // come back in step.
  const wait = asked ?? Math.floor(Math.random() * Math.min(state.retryMax, state.retryBase * 2 ** (state.attempt - 1)));
  // A wait after which less than MIN_TIME_LEFT is left could only end in a TimeoutError, the next
  // attempt unsent: end now, on the real failure.
  if (isOutOfTime(state.deadlineAt - wait)) return undefined;
  return wait;
}
