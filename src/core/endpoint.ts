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
  /** The body as the JSON text to send, serialised once from what was checked (see {@link wireForm}). */
  json?: string | undefined;
  /** Turns the unwrapped answer into the method's result; `context` names request and status, for a ResponseShapeError. */
  transform?: ((data: unknown, context: { status: number; request: RequestSummary }) => T) | undefined;
  /** Safe to repeat when the outcome is unknown. Default: true for GET and PUT, false otherwise. */
  idempotent?: boolean | undefined;
  /** Changes nothing at the service (a search, a label print): its errors never say `mayExist`. Default: true for GET. */
  reads?: boolean | undefined;
  /** Served without a key (the spec's public lookups): the client's key is left out, unless `auth.sendToPublicEndpoints`. */
  public?: boolean | undefined;
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

/** A body as it goes on the wire: the JSON text, and the value that text reads back as. */
export interface Wire {
  readonly json: string;
  /** `JSON.parse(json)`: plain objects and arrays only, so what is checked is what is sent. */
  readonly value: unknown;
}

/** A value JSON cannot carry as given: a BigInt, which it refuses, or NaN and the infinities, which it writes as `null`. */
class NotJson extends Error {
  constructor(
    readonly holder: unknown,
    readonly key: string | number,
    readonly found: string,
  ) {
    super(`expected a finite number, received ${found}`);
  }
}

function refuseNotJson(this: unknown, key: string, value: unknown): unknown {
  const found = typeof value === 'bigint' ? 'a BigInt' : typeof value === 'number' && !Number.isFinite(value) ? String(value) : undefined;
  if (found !== undefined) throw new NotJson(this, Array.isArray(this) ? Number(key) : key, found);
  return value;
}

/**
 * The input read once, as JSON: `toJSON`, getters and Proxies run here and nowhere after, so the
 * check that follows and the request see the same bytes. `undefined` for no body. Refuses, naming
 * the field, what JSON cannot carry (a BigInt, a cycle, a getter that throws) and the numbers it
 * would silently turn into `null` (`cod: NaN` must not reach the service as "no cod").
 */
export function wireForm(body: unknown): Wire | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(body);
    // NaN and the infinities come out as `null`: only a text with a null can hold one (a rare second read).
    if (json?.includes('null')) json = JSON.stringify(body, refuseNotJson);
  } catch {
    // Read again to name the field: the replacer sees a BigInt before JSON refuses it.
    json = notJson(body);
  }
  return json === undefined ? undefined : { json, value: JSON.parse(json) };
}

/** The error for a body JSON refused; its JSON when it reads fine the second time (a getter that threw once). */
function notJson(body: unknown): string | undefined {
  try {
    return JSON.stringify(body, refuseNotJson);
  } catch (cause) {
    if (cause instanceof NotJson) {
      const at = [...(pathTo(body, cause.holder) ?? []), ...(cause.key === '' ? [] : [cause.key])];
      throw new ValidationError([{ path: at, message: cause.message }], { subject: 'Invalid request body' });
    }
    // A stack overflow is the input's depth, not a fault to keep: thousands of levels of nesting.
    if (cause instanceof RangeError)
      throw new ValidationError([{ path: [], message: 'is nested too deeply to be sent as JSON' }], { subject: 'Invalid request body' });
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ValidationError([{ path: [], message: `cannot be sent as JSON (${reason.slice(0, 200)})` }], { subject: 'Invalid request body', cause });
  }
}

/** Where `target` sits in `root`, for the message of a refused number; only runs on that error. */
function pathTo(root: unknown, target: unknown, seen = new Set<unknown>()): Array<string | number> | undefined {
  if (root === target) return [];
  if (typeof root !== 'object' || root === null || seen.has(root)) return undefined;
  seen.add(root);
  try {
    for (const [key, value] of Object.entries(root)) {
      const found = pathTo(value, target, seen);
      if (found !== undefined) return [Array.isArray(root) ? Number(key) : key, ...found];
    }
  } catch {
    // a getter that throws now: the field stays unnamed
  }
  return undefined;
}
