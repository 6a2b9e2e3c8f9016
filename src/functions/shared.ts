/** @internal What every function needs: turning answers into results, and arguments checked before any request. */
import { pathSegment } from '../core/url.js';
import { type DeliveryError, type RequestSummary, ResponseShapeError, ValidationError, type ValidationIssue } from '../errors/index.js';
import { isRecord } from '../schemas/predicates.js';

/** @internal Which request and status an answer came from. */
export interface Answer {
  status: number;
  request: RequestSummary;
}

/** @internal A path segment id: a string with something besides whitespace, not `.` or `..` in any encoding, or a `ValidationError` naming the argument. */
export function requireId(value: unknown, name: string): string {
  if (typeof value === 'string' && value.trim() !== '') return pathSegment(value, name);
  throw new ValidationError([{ path: [name], message: 'must be a non-empty string' }], { subject: 'Invalid argument' });
}

/** @internal An answer's object, or an empty one when the service answered something else (lenient parsing). */
export function recordOf(data: unknown): Record<string, unknown> {
  return isRecord(data) ? data : {};
}

/** @internal An id or tracking number as a string: the service has been seen sending tracking numbers as JSON numbers. */
export function idText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  // Past 2^53 JSON.parse has already changed the digits: better no id than the wrong one.
  if (Number.isSafeInteger(value) && (value as number) >= 0) return String(value);
  return undefined;
}

/**
 * @internal Reads a created record: `_id` (and `trackingNumber` for orders) as strings, every other field
 * kept. Without them the result is of no use, and the thing may still have been created: a
 * `ResponseShapeError` says so.
 */
export function createdRecord(data: unknown, answer: Answer, fields: readonly ('_id' | 'trackingNumber')[]): Record<string, unknown> {
  const record = recordOf(data);
  const out: Record<string, unknown> = { ...record };
  const missing: string[] = [];
  for (const field of fields) {
    const text = idText(record[field]);
    if (text === undefined) missing.push(field);
    else out[field] = text;
  }
  if (missing.length > 0) {
    const { method, url } = answer.request;
    throw new ResponseShapeError(`${method} ${url} answered ${answer.status} without ${missing.join(' and ')} (it may exist all the same)`, answer);
  }
  return out;
}

/** @internal The elements of a list answer, whether the service sends an array or `{ list: [...] }`. */
export function listOf(data: unknown, answer: Answer): unknown[] {
  if (Array.isArray(data)) return data;
  if (isRecord(data) && Array.isArray(data['list'])) return data['list'];
  const { method, url } = answer.request;
  throw new ResponseShapeError(`${method} ${url} answered ${answer.status} with neither a list nor { list: [...] }`, answer);
}

/** @internal The issues of one invalid element of a list, with paths starting at its index (`[3].cod`). */
export function issuesAt(index: number, error: DeliveryError): ValidationIssue[] {
  const inner: readonly ValidationIssue[] =
    'issues' in error && Array.isArray(error.issues) && error.issues.length > 0 ? error.issues : [{ path: [], message: error.message }];
  return inner.map((issue) => ({ ...issue, path: [index, ...issue.path] }));
}
