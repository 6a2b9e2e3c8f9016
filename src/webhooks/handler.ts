import { type DeliveryState, isKnownState } from '../catalogue/states.js';
import type { DeliveryTelemetry, WebhookTelemetry } from '../core/telemetry.js';
import { ConfigurationError, DeliveryError } from '../errors/base.js';
import { MAX_TIMER } from '../internal/timer.js';
import { compileWebhookAuth, headersMatch, readArgument, type WebhookAuth } from './auth.js';
import { WebhookPayloadError } from './errors.js';
import type { WebhookEvent, WebhookEventFor } from './event.js';
import { parseWebhookEvent } from './parse.js';
import { awaitVerdict } from './verdicts.js';

/** One callback per state, each receiving that state's event type (`on[47]` gets `exceptionCode`). */
export type WebhookStateHandlers = {
  readonly [S in DeliveryState]?: (event: WebhookEventFor<S>, request: Request) => unknown;
};

/** What {@link createWebhookHandler} checks and whom it calls. Every option may be left out. */
export interface WebhookHandlerOptions {
  /**
   * The header the service must send (dashboard key name and value, or `webhookCustomHeaders`).
   * Several are accepted while you rotate a key. Omit it to accept webhooks without a header.
   */
  readonly auth?: WebhookAuth | readonly WebhookAuth[] | undefined;
  /** Called for every valid event, known state or not, before the state's own callback. */
  readonly onEvent?: ((event: WebhookEvent, request: Request) => unknown) | undefined;
  /** Callbacks by state code. States the SDK does not know yet reach `onEvent` only. */
  readonly on?: WebhookStateHandlers | undefined;
  /**
   * Read a webhook that comes without a `Content-Type` header as JSON. Default `false`: only
   * `application/json` and `+json` types are read, anything else gets 415 unread. Set it for a
   * sender that names no type at all; `text/plain` and forms still get 415.
   */
  readonly allowMissingContentType?: boolean | undefined;
  /** Largest body accepted, in bytes; bigger ones get 413 unread. Default 64 KiB. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Time the sender has to deliver the whole body, in milliseconds from the moment the handler
   * gets the request; past it the answer is 408 (`Connection: close`) and the rest is not read.
   * Default 10 s (a webhook is under 1 KB). `Infinity` leaves it to your server.
   */
  readonly bodyTimeoutMs?: number | undefined;
  /**
   * Told about every 400 (a `WebhookPayloadError`) and 500 (what your callback threw), for your
   * logs: the response itself never carries your callback's error.
   */
  readonly onError?: ((error: unknown, request: Request) => void) | undefined;
  /**
   * A span and a count per webhook: `openTelemetry()` from `delivery-sdk/opentelemetry`
   * (docs/observability.md). The span carries the state, the tracking number and, when your
   * callback tracks the event it got (`tracker.track(event)`), the tracker's verdict.
   */
  readonly telemetry?: DeliveryTelemetry | undefined;
  /**
   * The route your server mounts the handler on (`/webhooks/delivery`, `/webhooks/:shop`), which
   * `telemetry` records as `http.route`. The handler cannot learn it from a request, and the
   * path is no route (an id in it would make a series per value), so without it none is recorded.
   */
  readonly route?: string | undefined;
}

/** The default body limit: a state-change webhook is well under 1 KB. */
export const DEFAULT_MAX_WEBHOOK_BODY_BYTES = 64 * 1024;

/** The default body deadline: a slow sender (or a slowloris) holds a request this long at most. */
export const DEFAULT_WEBHOOK_BODY_TIMEOUT_MS = 10_000;

/** `bodyTimeoutMs` checked: a positive whole number of milliseconds a timer can hold, or `Infinity`. */
export function checkBodyTimeout(bodyTimeoutMs: unknown): number {
  const whole = Number.isSafeInteger(bodyTimeoutMs) && (bodyTimeoutMs as number) > 0 && (bodyTimeoutMs as number) <= MAX_TIMER;
  if (whole || bodyTimeoutMs === Number.POSITIVE_INFINITY) return bodyTimeoutMs as number;
  const received = String(bodyTimeoutMs);
  throw new ConfigurationError(`bodyTimeoutMs: expected whole milliseconds from 1 to ${MAX_TIMER}, or Infinity, received ${received}`);
}

/** A body a framework's parser already read (`req.body` behind `express.json()`): an object, a string or bytes. */
export interface ParsedBody {
  readonly value: unknown;
}

type AnyEventCallback = (event: WebhookEvent, request: Request) => unknown;

/**
 * A webhook endpoint for Fetch-API servers (Next.js route handlers, Hono, Cloudflare Workers,
 * Deno, Bun). It answers 405 to anything but POST, 401 when `auth` is set and the header is
 * missing or wrong, 415 when the body is not declared JSON (see `allowMissingContentType`), 413
 * past `maxBodyBytes`, 408 when the body takes longer than `bodyTimeoutMs`, 400 with
 * `{ error, field }` on a malformed body, 200 once your callbacks resolved, and 500 when one
 * throws, so the service can deliver again.
 *
 * @throws `ConfigurationError` at once, when `auth` has a name without a value (or the reverse) or
 * is an empty list, `maxBodyBytes` is not a positive whole number, `bodyTimeoutMs` is not a
 * positive whole number of milliseconds (or `Infinity`), or `on` names an unknown state.
 *
 * @example
 * ```ts
 * // app/webhooks/delivery/route.ts (Next.js)
 * import { createWebhookHandler, describeException } from 'delivery-sdk/webhooks';
 *
 * export const POST = createWebhookHandler({
 *   auth: { name: 'X-Webhook-Key', value: process.env.WEBHOOK_KEY! },
 *   on: {
 *     45: (event) => orders.markDelivered(event.businessReference, event.cod),
 *     47: (event) => orders.flag(event.businessReference, describeException(event.exceptionCode).reason),
 *   },
 * });
 * ```
 */
export function createWebhookHandler(options: WebhookHandlerOptions = {}): (request: Request) => Promise<Response> {
  const handle = webhookRequestHandler(options);
  return (request) => handle(request);
}

/**
 * {@link createWebhookHandler}'s handler, which also takes a body a parser already read (the Node
 * adapter behind `express.json()`): the key and the type are checked first, as ever, then the
 * parsed value goes to `parseWebhookEvent` as it is. Only its declared `Content-Length` can still
 * be held against `maxBodyBytes`; the parser's own limit governed what it read.
 */
export function webhookRequestHandler(given: WebhookHandlerOptions = {}): (request: Request, parsed?: ParsedBody) => Promise<Response> {
  // Read once, into an object of the SDK's own: a getter cannot answer differently later.
  const options: WebhookHandlerOptions = readArgument('options', () => ({ ...given }));
  try {
    return handlerOf(options);
  } catch (error) {
    // An option that cannot be read (a revoked Proxy as `auth`, a Proxy whose traps throw as `on`): the caller's mistake, typed.
    if (error instanceof DeliveryError) throw error;
    throw new ConfigurationError('createWebhookHandler options: an option could not be read', { cause: error });
  }
}

function handlerOf(options: WebhookHandlerOptions): (request: Request, parsed?: ParsedBody) => Promise<Response> {
  // An empty list (every key filtered out, e.g. an unset environment variable) must not mean "accept anyone".
  if (Array.isArray(options.auth) && options.auth.length === 0)
    throw new ConfigurationError('auth: an empty list of keys accepts every webhook; omit auth for that');
  const expected = (options.auth === undefined ? [] : Array.isArray(options.auth) ? options.auth : [options.auth]).map(
    (auth: WebhookAuth, i: number, all: readonly WebhookAuth[]) => compileWebhookAuth(auth, all.length > 1 ? `auth[${i}]` : 'auth'),
  );
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_WEBHOOK_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0)
    throw new ConfigurationError(`maxBodyBytes: expected a positive whole number of bytes, received ${String(maxBodyBytes)}`);
  const bodyTimeoutMs = checkBodyTimeout(options.bodyTimeoutMs ?? DEFAULT_WEBHOOK_BODY_TIMEOUT_MS);
  const allowMissingContentType = options.allowMissingContentType ?? false;
  if (typeof allowMissingContentType !== 'boolean')
    throw new ConfigurationError(`allowMissingContentType: expected true or false, received ${typeof allowMissingContentType}`);
  const telemetry = optional<DeliveryTelemetry>(options.telemetry, 'telemetry', 'object');
  const route = optional<string>(options.route, 'route', 'string');
  const onEvent = optional<AnyEventCallback>(options.onEvent, 'onEvent');
  const byState = stateCallbacks(options.on);
  const report = (error: unknown, request: Request): void => {
    try {
      options.onError?.(error, request);
    } catch {
      // A failing logger must not change the answer the service gets.
    }
  };

  const handle = async (request: Request, parsed: ParsedBody | undefined, traced: WebhookTelemetry | undefined): Promise<Response> => {
    const deadline = bodyTimeoutMs === Number.POSITIVE_INFINITY ? undefined : Date.now() + bodyTimeoutMs;
    if (request.method.toUpperCase() !== 'POST') return answer(405, { error: 'Method not allowed: webhooks arrive as POST' }, { allow: 'POST' });
    if (expected.length > 0) {
      // Every expected header is compared, so the time taken does not say which one nearly matched.
      let authorized = false;
      for (const header of expected) authorized = headersMatch(request.headers, header) || authorized;
      if (!authorized) return answer(401, { error: 'Unauthorized: the webhook authorization header is missing or wrong' });
    }
    if (!isJsonContentType(request.headers.get('content-type'), allowMissingContentType)) {
      return answer(415, { error: 'Unsupported media type: expected application/json' }, { 'accept-post': 'application/json' });
    }
    const tooLarge = (): Response => answer(413, { error: `Payload too large: the limit is ${maxBodyBytes} bytes` });
    let event: WebhookEvent;
    try {
      let body: unknown;
      if (parsed === undefined) {
        body = await readBody(request, maxBodyBytes, deadline);
        if (body === TOO_LARGE) return tooLarge();
        if (body === TIMED_OUT) return answer(408, { error: `Request timeout: the body did not arrive within ${bodyTimeoutMs} ms` }, { connection: 'close' });
      } else {
        body = parsed.value;
        const size =
          typeof body === 'string'
            ? new TextEncoder().encode(body).byteLength
            : body instanceof Uint8Array
              ? body.byteLength
              : Number(request.headers.get('content-length') ?? 0);
        if (size > maxBodyBytes) return tooLarge();
      }
      event = parseWebhookEvent(body);
    } catch (err) {
      traced?.error(err);
      report(err, request);
      const field = err instanceof WebhookPayloadError ? err.field : undefined;
      return answer(400, { error: err instanceof Error ? err.message : 'Malformed webhook body', field: field ?? null });
    }
    if (traced !== undefined) {
      traced.event({ state: event.state, trackingNumber: event.trackingNumber, exceptionCode: event.exceptionCode });
      awaitVerdict(event, traced);
    }
    try {
      await onEvent?.(event, request);
      await byState.get(event.state)?.(event, request);
    } catch (err) {
      traced?.error(err);
      report(err, request);
      return answer(500, { error: 'The webhook callback failed; deliver again later' });
    }
    return answer(200, { received: true });
  };
  if (telemetry === undefined) return (request, parsed) => handle(request, parsed, undefined);
  // The telemetry's code loads with the first request: a page whose handler has none carries none of it.
  let tracing: Promise<typeof import('./tracing.js')> | undefined;
  // The auth as checked above, not the caller's options read again: a span's path is scrubbed of what is compared.
  return async (request, parsed) => (await (tracing ??= import('./tracing.js'))).traced(telemetry, expected, route, handle, request, parsed);
}

/** An option of `type` (a callback by default), or undefined when left out; a ConfigurationError naming it otherwise. */
function optional<T>(value: unknown, where: string, type: 'function' | 'string' | 'object' = 'function'): T | undefined {
  if (value !== undefined && (typeof value !== type || value === null))
    throw new ConfigurationError(`${where}: expected ${type === 'object' ? 'an' : 'a'} ${type}, received ${value === null ? 'null' : typeof value}`);
  return value as T | undefined;
}

function stateCallbacks(on: WebhookStateHandlers | undefined): ReadonlyMap<number, AnyEventCallback> {
  const byState = new Map<number, AnyEventCallback>();
  if (on === undefined) return byState;
  for (const key of Object.keys(on)) {
    const state = Number(key);
    if (!isKnownState(state)) throw new ConfigurationError(`on[${JSON.stringify(key)}]: unknown state code; handle it in onEvent`);
    const fn = optional<AnyEventCallback>((on as Readonly<Record<string, unknown>>)[key], `on[${key}]`);
    if (fn !== undefined) byState.set(state, fn);
  }
  return byState;
}

/** `application/json` or any `+json` type, whatever its parameters; no header at all only when allowed. */
function isJsonContentType(header: string | null, allowMissing: boolean): boolean {
  if (header === null || header.trim() === '') return allowMissing;
  const type = (header.split(';', 1)[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(type);
}

const TOO_LARGE = Symbol('too large');
const TIMED_OUT = Symbol('timed out');

/** The body's bytes; past `limit` or `deadline` (epoch ms), a symbol saying which (then the rest is never read). */
async function readBody(request: Request, limit: number, deadline: number | undefined): Promise<Uint8Array | typeof TOO_LARGE | typeof TIMED_OUT> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) {
    request.body?.cancel().catch(ignore);
    return TOO_LARGE;
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<typeof TIMED_OUT>((resolve) => {
    if (deadline !== undefined) timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, deadline - Date.now()));
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), expired]);
      if (next === TIMED_OUT) {
        reader.cancel().catch(ignore);
        return TIMED_OUT;
      }
      const { done, value } = next;
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        reader.cancel().catch(ignore);
        return TOO_LARGE;
      }
      chunks.push(value);
    }
  } catch (err) {
    throw new WebhookPayloadError('the body could not be read', { cause: err });
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

function ignore(): void {}
