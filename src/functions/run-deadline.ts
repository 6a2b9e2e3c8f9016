/**
 * One deadline for a call made of several requests (a paged read, a run of label prints, a wait,
 * the read-back of a repeated create): `totalTimeout` counts from the call's start, whatever the
 * number of requests, and no request starts once it has passed.
 */
import type { RequestOptions } from '../core/options.js';
import { type RequestSummary, TimeoutError } from '../errors/index.js';

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
