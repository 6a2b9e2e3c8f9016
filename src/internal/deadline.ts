/**
 * The deadlines of calls, in one home: when `totalTimeout` ends a call or a run of requests (a
 * paged read, a wait, a repeated create's read-back), and what is left of it for the next request.
 * An attempt's own clocks are internal/attempt-clock.ts's.
 */
import type { CallOptions, RequestOptions } from '../core/options.js';
import { type RequestSummary, TimeoutError } from '../errors/index.js';
import { MAX_TIMER } from './attempt-clock.js';
import { callOptionsOf } from './config.js';
import { type CoreInternals, underneath } from './core-internals.js';

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

/** `options` for the next request of a run bound by `deadlineAt`: what is left of `totalTimeout` (at least 1 ms: the request then times out at once). */
export function within<O extends CallOptions>(options: O, deadlineAt: number): O {
  return deadlineAt === Number.POSITIVE_INFINITY ? options : { ...options, totalTimeout: Math.max(1, deadlineAt - Date.now()) };
}

/**
 * The options of the next request of a run bound by `deadlineAt` (epoch ms, `totalDeadline`): what
 * is left of `totalTimeout`. When nothing is left, a `TimeoutError` about `request`, and nothing is
 * sent.
 */
export function leftOf<O extends RequestOptions>(options: O | undefined, deadlineAt: number, request: RequestSummary): O {
  if (deadlineAt === Number.POSITIVE_INFINITY) return options ?? ({} as O);
  const left = deadlineAt - Date.now();
  if (left <= 0) throw new TimeoutError(`${request.method} ${request.url}: the call took longer than totalTimeout`, { request });
  return { ...options, totalTimeout: left } as O;
}
