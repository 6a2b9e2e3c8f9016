import type { RequestSummary } from '../errors/index.js';
import { ValidationError } from '../errors/index.js';
import { isRecord, shown } from './guards.js';
import { pathSegment, urlBelow } from './url.js';

/** The HTTP methods {@link DeliveryClient.request} sends. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const HTTP_METHODS: readonly unknown[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** A query-string value; `undefined` leaves the parameter out. */
export type QueryValue = string | number | boolean | undefined;

/**
 * One call of the API, as a resource describes it once its input is checked: the transport
 * sends it as it is.
 */
export interface Endpoint<T> {
  method: HttpMethod;
  /** Path below the base URL, starting with `/`; build it with {@link path} so ids are encoded. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  /** Sent as JSON. */
  body?: unknown;
  /** Turns the unwrapped answer into the method's result; `answer` names request and status, for a ResponseShapeError. */
  transform?: ((data: unknown, answer: { status: number; request: RequestSummary }) => T) | undefined;
  /** Safe to repeat when the outcome is unknown. Default: true for GET and PUT, false otherwise. */
  idempotent?: boolean | undefined;
}

/**
 * Builds a path with each interpolated value percent-encoded: path`/cities/${id}/zones`. A value
 * that is empty, `.` or `..` is refused (see {@link pathSegment}); resources check ids by name first.
 */
export function path(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += encodeURIComponent(pathSegment(String(values[i]), 'path')) + (strings[i + 1] ?? '');
  return out;
}

const invalid = (field: string, message: string): ValidationError => new ValidationError([{ path: [field], message }], { subject: 'Invalid request' });

/**
 * The URL of a call, query encoded. Throws a ValidationError naming the field for a method the
 * client does not send, a path that is not below `baseUrl` (see {@link urlBelow}) or a query that
 * is not a record of strings, numbers and booleans: what JavaScript callers of `request` can pass.
 */
export function requestUrl(baseUrl: string, endpoint: Endpoint<unknown>): string {
  if (!HTTP_METHODS.includes(endpoint.method)) throw invalid('method', `expected one of ${HTTP_METHODS.join(', ')}, received ${shown(endpoint.method)}`);
  const { query } = endpoint;
  if (query !== undefined && query !== null && !isRecord(query)) throw invalid('query', `expected an object of parameters, received ${shown(query)}`);
  return urlBelow(baseUrl, endpoint.path, query ?? undefined);
}

/** The body as JSON text: one that cannot be JSON (BigInt, a cycle) is refused before anything is sent. */
export function toJson(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  try {
    return JSON.stringify(body);
  } catch (cause) {
    throw new ValidationError([{ path: ['body'], message: `cannot be sent as JSON (${cause instanceof Error ? cause.message : String(cause)})` }], {
      subject: 'Invalid request body',
      cause,
    });
  }
}
