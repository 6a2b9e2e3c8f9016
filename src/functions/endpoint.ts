/**
 * The one declaration of each endpoint, and the one step every call takes: read the arguments,
 * check the input, send, read the answer. An operation of `functions/<namespace>/` is an
 * {@link endpoint} (one request, declared as data) or a helper (a function that calls endpoints,
 * declared by its `@operation` tag). Each names its chunk with a `@chunk` tag, a helper what it
 * calls with `@calls`: scripts/operations.ts reads these declarations to write the client's
 * namespaces, the `delivery-sdk/functions` entry and docs/endpoints.md.
 */

import { APIPromise, type WithResponse } from '../core/api-promise.js';
import type { HttpMethod, QueryValue } from '../core/http.js';
import type { CallOptions, RequestOptions } from '../core/options.js';
import type { CallTelemetry } from '../core/telemetry.js';
import { DeliveryError, type RequestSummary } from '../errors/index.js';
import { callOptionsOf } from '../internal/config.js';
import { type CoreInternals, underneath } from '../internal/core-internals.js';
import { deadlineOf, leftOf } from '../internal/deadline.js';
import { isTrackingNumber } from '../internal/guards.js';
import { asTypedError, type Checked, checkInput, type InputCheck, writeJson } from '../internal/input.js';
import type { ApiRequest, Refusal } from '../internal/request.js';
import { send } from '../internal/send.js';
import { validationOf } from '../internal/skip-rules.js';
import { requireId } from '../internal/url.js';
import { coreInternals, type DeliveryCore } from './delivery-core.js';
import type { NamespaceName } from './namespaces.js';

/** `namespace.method` of `DeliveryClient`: `'deliveries.get'`. */
export type OperationName = `${NamespaceName}.${string}`;

/** What one call sends, read from its arguments by an endpoint's `request`. */
export interface RequestParts {
  /** The values of the route's `{name}`s, each checked to be an id (`requireId`). */
  readonly params?: Readonly<Record<string, unknown>> | undefined;
  readonly query?: Readonly<Record<string, QueryValue>> | undefined;
  /** The input, read once into its snapshot and checked by `check` (else the declaration's). */
  readonly body?: unknown;
  readonly check?: InputCheck | undefined;
}

/** What an answer is read with besides its data: request and status (for a `ResponseShapeError`), and the route's ids as sent. */
export interface AnswerContext {
  readonly status: number;
  readonly request: RequestSummary;
  readonly params: Readonly<Record<string, string>>;
}

/** How a create that was refused as a repeat finds the order its first attempt made (`recover`). */
export interface RepeatedCall {
  readonly core: DeliveryCore;
  /** The body as it was checked and sent. */
  readonly sent: unknown;
  /** When the call began, epoch ms. */
  readonly startedAt: number;
  /** When the call's `totalTimeout` ends it, epoch ms (Infinity for none): no read-back starts after it. */
  readonly deadlineAt: number;
  /** The call's options with what is left of its `totalTimeout`: the read-back ends with the call. */
  readonly options: RequestOptions;
}

/** One request of the API, declared as data. */
export interface EndpointDeclaration<Args extends unknown[], T, O = RequestOptions> {
  readonly name: OperationName;
  readonly method: HttpMethod;
  /**
   * The path below `baseUrl`, `{name}` where an id goes, with any fixed query:
   * `/deliveries/business/{trackingNumber}`, `/deliveries?apiVersion=1`. Without a `request`, the
   * first arguments fill the `{name}`s in order, and the next is the input when there is a `check`.
   */
  readonly route: string;
  /**
   * The input's check (schemas/check.ts), or a function of the call's options that gives it (a
   * return checked against `options.original`); without one, an input is only read into its wire form.
   */
  readonly check?: InputCheck | ((options: O | undefined) => InputCheck) | undefined;
  /** Reads the arguments (all but the core and the options, none with a default) into what is sent. */
  readonly request?: ((...args: Args) => RequestParts) | undefined;
  /** The checked input sent as the query instead of the body (a GET with a checked input). */
  readonly asQuery?: ((checked: never) => Record<string, QueryValue>) | undefined;
  /** The result, from the answer's `data` (its envelope removed). Default: the data as it is. */
  readonly answer?: ((data: unknown, context: AnswerContext) => T) | undefined;
  /** Changes nothing (a search, a label print): its errors never say `mayExist`, and it may be repeated. Default: a GET. */
  readonly reads?: boolean | undefined;
  /** Safe to repeat when the outcome is unknown, given the body sent. Default: a GET or PUT. */
  readonly idempotent?: boolean | ((sent: unknown) => boolean) | undefined;
  /** Served without a key (the spec's public lookups). */
  readonly public?: boolean | undefined;
  /** Kept in the client's lookup cache. */
  readonly cached?: boolean | undefined;
  /** How the service's refusal is read (internal/error-mapping.ts), about the route's first id. */
  readonly refusal?: Refusal['rule'] | undefined;
  /** A create refused as a repeat of its own first attempt: the order that attempt made. */
  readonly recover?: ((refusal: DeliveryError, call: RepeatedCall) => Promise<WithResponse<T>>) | undefined;
  /** Each call that succeeds creates one order: the client's `telemetry` counts it (`delivery.orders.created`, `.failed`). */
  readonly createsOrder?: boolean | undefined;
}

/** A standalone function of `delivery-sdk/functions`: the core, the operation's arguments, the call's options. */
export type Operation<Args extends unknown[], T, O = RequestOptions> = (core: DeliveryCore, ...args: [...Args, options?: O]) => APIPromise<T>;

/**
 * A route's fixed query (`apiVersion=1`), its names and values %-decoded. Read by hand: the first
 * URLSearchParams of a process costs its cold start a fifth of a millisecond, at the import of the
 * first endpoint declared.
 */
function fixedQueryOf(text: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const pair of text.split('&')) {
    const at = pair.indexOf('=');
    query[decodeURIComponent(at < 0 ? pair : pair.slice(0, at))] = at < 0 ? '' : decodeURIComponent(pair.slice(at + 1));
  }
  return query;
}

/**
 * Declares an endpoint and returns its standalone function. Everything a call does wrong (the
 * core, an id, the input, the options) rejects the returned promise with a typed error, and
 * nothing is sent.
 *
 * Declaring does nothing else, and each declaration says so at its call too (a `@__PURE__`
 * comment before `endpoint`): a page's bundler, reading dist/'s chunks, does not carry the mark
 * below from this file to the calls in another, and would keep every declaration of a file that
 * loads for one of its functions (reads.ts for a create's read-back: the whole search).
 */
/* @__NO_SIDE_EFFECTS__ */
export function endpoint<Args extends unknown[], T, O extends RequestOptions = RequestOptions>(
  declaration: EndpointDeclaration<Args, T, O>,
): Operation<Args, T, O> {
  const [path, fixedQuery] = declaration.route.split('?') as [string, string | undefined];
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
  const query = fixedQuery === undefined ? undefined : fixedQueryOf(fixedQuery);
  const arity = declaration.request?.length ?? names.length + (declaration.check === undefined ? 0 : 1);
  const conventional = (args: unknown[]): RequestParts => ({
    params: Object.fromEntries(names.map((name, at) => [name, args[at]])),
    body: declaration.check === undefined ? undefined : args[names.length],
  });
  // Named, so that stack traces say where a call was.
  const operation: Operation<Args, T, O> = (core, ...args) => {
    let observer: CallTelemetry | undefined;
    let sent: Promise<WithResponse<T>>;
    try {
      const internals = coreInternals(core);
      const options = args[arity] as O | undefined;
      const validation = validationOf(internals, options);
      const parts = declaration.request === undefined ? conventional(args) : declaration.request(...(args.slice(0, arity) as Args));
      const params: Record<string, string> = {};
      for (const name of names) params[name] = requireId(parts.params?.[name], name);
      const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] as string));
      const { config } = internals;
      // Traced from the check on: a create the check refuses (3007) is a call that failed.
      // Only a value shaped as a tracking number is told: `get(apiKey)` must not put the key in a span.
      const trackingNumber = params['trackingNumber'];
      observer = config.telemetry?.call(declaration, config.baseUrl, isTrackingNumber(trackingNumber) ? trackingNumber : undefined);
      const call: PendingCall<O> = { core, internals, options, path: filled, query: { ...query, ...parts.query }, params, traced: observer };
      const { check } = declaration;
      const checked = checkInput(parts.check ?? (typeof check === 'function' ? check(options) : check), parts.body, validation);
      // The schemas load only for input the plain check refused: then the call goes on when they arrive.
      sent =
        checked instanceof Promise
          ? checked.then(
              (input) => dispatch(declaration, call, input),
              (error) => Promise.reject(asTypedError(error)),
            )
          : dispatch(declaration, call, checked);
    } catch (error) {
      sent = Promise.reject(asTypedError(error));
    }
    return new APIPromise(observer === undefined ? sent : observed(observer, sent));
  };
  return operation;
}

/** An endpoint's call between its check and its request: everything read from its arguments but the input. */
interface PendingCall<O> {
  readonly core: DeliveryCore;
  readonly internals: CoreInternals;
  readonly options: O | undefined;
  /** The route's path, ids filled in. */
  readonly path: string;
  readonly query: Record<string, QueryValue>;
  readonly params: Record<string, string>;
  /** Told of the call's attempts when the client has `telemetry`. */
  readonly traced: CallTelemetry | undefined;
}

/**
 * Sends the input as checked: through the lookup cache when the endpoint is cached, and through
 * its `recover` when it fails as a repeat (within the same deadline).
 */
function dispatch<T, O extends RequestOptions>(
  declaration: EndpointDeclaration<never, T, never>,
  call: PendingCall<O>,
  input: Checked,
): Promise<WithResponse<T>> {
  const { internals, params } = call;
  const { answer, idempotent, asQuery, refusal, recover } = declaration;
  let request: ApiRequest<T>;
  let options: CallOptions;
  try {
    const query = asQuery === undefined ? call.query : { ...call.query, ...asQuery(input.value as never) };
    request = {
      method: declaration.method,
      path: call.path,
      query: Object.keys(query).length === 0 ? undefined : query,
      json: asQuery === undefined ? writeJson(input.value) : undefined,
      transform: answer === undefined ? undefined : (data, context) => answer(data, { ...context, params }),
      idempotent: typeof idempotent === 'function' ? idempotent(input.value) : idempotent,
      reads: declaration.reads,
      public: declaration.public,
      refusal: refusal === undefined ? undefined : { rule: refusal, subject: params[Object.keys(params)[0] ?? ''] ?? '' },
      traced: call.traced,
    };
    options = callOptionsOf(underneath(internals.defaults, callOptionsOf(call.options)));
  } catch (error) {
    return Promise.reject(asTypedError(error));
  }
  const cache = declaration.cached === true ? internals.lookupCache : undefined;
  if (cache !== undefined) {
    // The shared request must not die with the signal of whichever caller started it: it has the
    // cache's own, which aborts it once every caller waiting for it has aborted (then nothing more is sent).
    const { signal } = options;
    const key = `${request.path}?${JSON.stringify(Object.entries(request.query ?? {}).filter(([, value]) => value !== undefined))}`;
    const loaded = cache.get(key, (shared) => send(internals, request, { ...options, signal: shared }), signal, `GET ${request.path}`);
    // A copy per caller: one caller sorting or filtering its array leaves the cached one alone.
    return loaded.then(({ data, response }) => ({ data: (Array.isArray(data) ? data.slice() : data) as T, response }));
  }
  if (recover === undefined) return send(internals, request, options);
  const startedAt = Date.now();
  const deadlineAt = deadlineOf(internals, options);
  return send(internals, request, options, deadlineAt).catch((error: unknown) => {
    if (!(error instanceof DeliveryError) || !error.mayExist) throw error;
    return recover(error, { core: call.core, sent: input.value, startedAt, deadlineAt, options: { ...call.options, ...leftOf(options, deadlineAt) } });
  });
}

/**
 * Sends a request built by code rather than declared (a bulk chunk, `client.request`): the
 * client's defaults under `options`, the input already in `request.json`.
 */
export function sendBuilt<T>(core: DeliveryCore, request: ApiRequest<T>, options?: CallOptions | null): Promise<WithResponse<T>> {
  try {
    const internals = coreInternals(core);
    return send(internals, request, callOptionsOf(underneath(internals.defaults, callOptionsOf(options))));
  } catch (error) {
    return Promise.reject(asTypedError(error));
  }
}

/** `sent`, told to `telemetry` as it settles: the call's result, or the error it rejects with. */
function observed<T>(telemetry: CallTelemetry, sent: Promise<WithResponse<T>>): Promise<WithResponse<T>> {
  return sent.then(
    (answer) => {
      telemetry.end({ result: answer.data });
      return answer;
    },
    (error: DeliveryError) => {
      telemetry.end({ error });
      throw error;
    },
  );
}
