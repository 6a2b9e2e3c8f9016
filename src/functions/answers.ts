/** Reading answers into records, leniently: what every namespace's answers share. */

import { ResponseShapeError } from '../errors/index.js';
import { asRecord, idString, isRecord } from '../internal/guards.js';
import type { AnswerContext } from './endpoint.js';

/** Which request and status an answer came from. */
type Answered = Pick<AnswerContext, 'status' | 'request'>;

/**
 * A created record: `_id` (and `trackingNumber` for orders) as strings, every other field kept.
 * Without them the result is of no use, and the thing may still have been created: a
 * `ResponseShapeError` says so.
 */
export function createdRecord(data: unknown, context: Answered, fields: readonly ('_id' | 'trackingNumber')[]): Record<string, unknown> {
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

/** The elements of a list answer, whether the service sends an array or `{ list: [...] }`. */
export function listOf(data: unknown, context: Answered): unknown[] {
  if (Array.isArray(data)) return data;
  if (isRecord(data) && Array.isArray(data['list'])) return data['list'];
  const { method, url } = context.request;
  throw new ResponseShapeError(`${method} ${url} answered ${context.status} with neither a list nor { list: [...] }`, context);
}

/** A record answered for the id asked: `_id` as a string, the id asked standing in when the answer has none. */
export function recordOf<T>(data: unknown, id: string): T {
  const record = asRecord(data);
  return { ...record, _id: idString(record['_id']) ?? id } as T;
}
