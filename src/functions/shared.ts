/** @internal What every function needs: turning answers into results, and arguments checked before any request. */

import { asRecord, idString, isRecord, shown } from '../core/guards.js';
import { pathSegment } from '../core/url.js';
import { type ApiError, type ApiErrorOptions, type RequestSummary, ResponseShapeError, ValidationError } from '../errors/index.js';
import { isFilled } from '../schemas/predicates.js';

/** Which request and status a response came from. */
export interface ResponseContext {
  status: number;
  request: RequestSummary;
}

/** @internal A path segment id: a string with something besides whitespace, not `.` or `..` in any encoding, or a `ValidationError` naming the argument. */
export function requireId(value: unknown, name: string): string {
  if (isFilled(value)) return pathSegment(value, name);
  throw new ValidationError([{ path: [name], message: `expected a non-empty string, received ${shown(value)}` }], { subject: 'Invalid argument' });
}

/**
 * @internal Reads a created record: `_id` (and `trackingNumber` for orders) as strings, every other field
 * kept. Without them the result is of no use, and the thing may still have been created: a
 * `ResponseShapeError` says so.
 */
export function createdRecord(data: unknown, context: ResponseContext, fields: readonly ('_id' | 'trackingNumber')[]): Record<string, unknown> {
  const record = asRecord(data);
  const out: Record<string, unknown> = { ...record };
  const missing: string[] = [];
  for (const field of fields) {
    const text = idString(record[field]);
    if (text === undefined) missing.push(field);
    else out[field] = text;
  }
  if (missing.length > 0) {
    const { method, url } = context.request;
    throw new ResponseShapeError(`${method} ${url} answered ${context.status} without ${missing.join(' and ')} (it may exist all the same)`, context);
  }
  return out;
}

/** @internal The elements of a list answer, whether the service sends an array or `{ list: [...] }`. */
export function listOf(data: unknown, context: ResponseContext): unknown[] {
  if (Array.isArray(data)) return data;
  if (isRecord(data) && Array.isArray(data['list'])) return data['list'];
  const { method, url } = context.request;
  throw new ResponseShapeError(`${method} ${url} answered ${context.status} with neither a list nor { list: [...] }`, context);
}

/** Orders results by their input index. @internal */
export const byIndex = (a: { index: number }, b: { index: number }): number => a.index - b.index;

/** What the service said in a refusal: its envelope's `message`, or the body when it is text; '' otherwise. */
export function refusalText(error: ApiError): string {
  const { body } = error;
  return isRecord(body) && typeof body['message'] === 'string' ? body['message'] : typeof body === 'string' ? body : '';
}

/** The answer `error` carries, to raise it as another class: the same status, body and headers, `error` as the cause. */
export function sameAnswer(error: ApiError): ApiErrorOptions {
  const { status, body, headers, request, errorCode, issues } = error;
  return { status, body, headers, request, errorCode, issues, cause: error };
}
