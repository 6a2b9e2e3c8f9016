import type { HttpMethod, QueryValue } from '../core/http.js';
import type { CallTelemetry } from '../core/telemetry.js';
import type { RequestSummary } from '../errors/index.js';
import { ValidationError } from '../errors/index.js';
import { isRecord, shown } from './guards.js';
import { pathSegment, urlBelow } from './url.js';

const HTTP_METHODS: readonly unknown[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * A refusal the service words in its own way, read as the SDK's class (internal/error-mapping.ts):
 * a change or a termination refused for the order's state, a pickup location an upcoming pickup
 * uses. `subject` is the id the call was about.
 */
export interface Refusal {
  readonly rule: 'orderChange' | 'orderTermination' | 'locationInUse';
  readonly subject: string;
}

/**
 * One request of the API once its input is checked (functions/endpoint.ts builds it): the transport
 * sends it as it is.
 */
export interface ApiRequest<T> {
  method: HttpMethod;
  /** Path below the base URL, starting with `/`; build it with {@link path} so ids are encoded. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  /**
   * The body as the JSON text to send, written once from what was checked (see internal/input.ts):
   * a string, or its UTF-8 bytes (a bulk chunk's: see functions/deliveries/bulk/input.ts).
   */
  json?: string | Uint8Array<ArrayBuffer> | undefined;
  /** Turns the unwrapped answer into the method's result; `context` names request and status, for a ResponseShapeError. */
  transform?: ((data: unknown, context: { status: number; request: RequestSummary }) => T) | undefined;
  /** Safe to repeat when the outcome is unknown. Default: true for GET and PUT, false otherwise. */
  idempotent?: boolean | undefined;
  /** Changes nothing at the service (a search, a label print): its errors never say `mayExist`. Default: true for GET. */
  reads?: boolean | undefined;
  /** Served without a key (the spec's public lookups): the client's key is left out, unless `auth.sendToPublicEndpoints`. */
  public?: boolean | undefined;
  /** How a refusal of it is read, when the service words it in its own way. */
  refusal?: Refusal | undefined;
  /** Told of each attempt and retry wait, when the client has `telemetry`. */
  traced?: CallTelemetry | undefined;
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
export function requestUrl(baseUrl: string, request: ApiRequest<unknown>): string {
  if (!HTTP_METHODS.includes(request.method)) throw invalid('method', `expected one of ${HTTP_METHODS.join(', ')}, received ${shown(request.method)}`);
  const { query } = request;
  if (query !== undefined && query !== null && !isRecord(query)) throw invalid('query', `expected an object of parameters, received ${shown(query)}`);
  return urlBelow(baseUrl, request.path, query ?? undefined);
}
