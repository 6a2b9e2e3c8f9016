/**
 * The deadlines of calls, in one home: when `totalTimeout` ends a call or a run of requests (a
 * paged read, a wait, a repeated create's read-back), what is left of it for the next request,
 * and the one rule when time is up: a request with less than {@link MIN_TIME_LEFT} ms left is
 * not sent, and its call fails with {@link outOfTime}'s TimeoutError, wherever it was made. An
 * attempt's own clocks are internal/attempt-clock.ts's.
 */
import type { CallOptions, RequestOptions } from '../core/options.js';
import { type RequestSummary, TimeoutError } from '../errors/index.js';
import { callOptionsOf } from './config.js';
import { type CoreInternals, underneath } from './core-internals.js';
import { MAX_TIMER } from './timer.js';

/** When `totalTimeout` (the call's, else the client's) ends a call or a run of calls starting now, in epoch ms. */
export function deadlineOf(internals: CoreInternals, options: CallOptions): number {
  const total = options.totalTimeout ?? internals.config.totalTimeout;
  return total >= MAX_TIMER ? Number.POSITIVE_INFINITY : Date.now() + total;
}

/**
 * When `totalTimeout` ends a run of calls of a core starting now (`internals`, its options not yet
 * merged with the core's): one deadline for a whole paged read or wait, whatever the number of requests.
 */
export function totalDeadline(internals: CoreInternals, options: RequestOptions | undefined): number {
  return deadlineOf(internals, underneath(internals.defaults, callOptionsOf(options)));
}

/**
 * The fewest milliseconds of its call's `totalTimeout` a request starts with: with less left, no
 * answer could arrive in time, so nothing is sent (a create sent then would be left unanswered).
 */
export const MIN_TIME_LEFT = 5;

/** Whether a call bound by `deadlineAt` (epoch ms) has less than {@link MIN_TIME_LEFT} ms left: then it sends nothing more. */
export const isOutOfTime = (deadlineAt: number): boolean => deadlineAt - Date.now() < MIN_TIME_LEFT;

/**
 * The one error of a call out of time, before or while sending `request`: the same for a call of
 * one request and for the next request of a run, whose own limit is only what was left.
 */
export const outOfTime = (request: RequestSummary): TimeoutError =>
  new TimeoutError(`${request.method} ${request.url} took longer than totalTimeout.`, { request });

/**
 * The options of the next request of a run bound by `deadlineAt` (epoch ms, {@link totalDeadline}):
 * what is left of `totalTimeout` (`Infinity` for a run without one). With less than
 * {@link MIN_TIME_LEFT} ms left, the request is not sent (internal/attempts.ts) and fails with
 * {@link outOfTime}'s error.
 */
export const leftOf = <O extends CallOptions>(options: O | undefined, deadlineAt: number): O =>
  ({ ...options, totalTimeout: Math.max(0, deadlineAt - Date.now()) }) as O;
