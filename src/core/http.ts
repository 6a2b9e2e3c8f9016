import {
  ApiError,
  ConnectionError,
  DeliveryError,
  RateLimitError,
  RequestAbortedError,
  type RequestSummary,
  ResponseShapeError,
  TimeoutError,
  ValidationError,
} from '../errors/index.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import type { ValidateOptions } from '../schemas/rules-off.js';
import { checkHeaders, checkRequestOptions, type RequestOptions, type ResolvedConfig, validateSetting } from './config.js';
import { LOG_LEVELS, type LogLevel, redactHeaders } from './logger.js';
import { decodeBody, errorFromResponse, isErrorEnvelope, parseRetryAfter, unwrapEnvelope } from './response.js';
import { backoffDelay, isRetryable } from './retry.js';

/** The HTTP methods {@link DeliveryClient.request} sends. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** A query-string value; `undefined` leaves the parameter out. */
export type QueryValue = string | number | boolean | undefined;

/** One call of the API, as a resource method describes it. */
export interface Endpoint<T> {
  method: HttpMethod;
  /** Path below the base URL, starting with `/`; build it with {@link path} so ids are encoded. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
  /** Validates `body` before sending, leaving out the rules `options.skip` names; not called when validation is off. Throws to stop the call. */
  prepare?: ((body: unknown, options: ValidateOptions) => unknown) | undefined;
  /**
   * Turns the unwrapped answer into the method's result. `answer` says which request and status
   * it came from, for a `ResponseShapeError` when the body cannot be used.
   */
  transform?: ((data: unknown, answer: { status: number; request: RequestSummary }) => T) | undefined;
  /** Safe to repeat when the outcome is unknown. Default: true for GET and PUT, false otherwise. */
  idempotent?: boolean | undefined;
}

/** Builds a path with each interpolated value percent-encoded: path`/cities/${id}/zones`. */
export function path(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += encodeURIComponent(String(values[i])) + (strings[i + 1] ?? '');
  return out;
}

function buildUrl(baseUrl: string, endpointPath: string, query: Record<string, QueryValue> | undefined): string {
  let url = baseUrl + endpointPath;
  if (query !== undefined) {
    let separator = '?';
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined) continue;
      url += `${separator}${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`;
      separator = '&';
    }
  }
  return url;
}

// setTimeout fires at once for a delay beyond 2^31-1 ms (24.8 days): an Infinity timeout must not.
const timerDelay = (ms: number): number => Math.min(Math.max(0, ms), 2 ** 31 - 1);

function sleep(ms: number, signal: AbortSignal | undefined, request: RequestSummary): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedError(signal, request));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, timerDelay(ms));
    // An abort from an onRetry hook or a logger has already fired: no event will come.
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortedError(signal: AbortSignal | undefined, request: RequestSummary): RequestAbortedError {
  return new RequestAbortedError(`${request.method} ${request.url} was aborted by the caller`, { cause: signal?.reason });
}

function serialise(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  try {
    return JSON.stringify(body);
  } catch (cause) {
    // BigInt or a cycle: refused here rather than surfacing as a TypeError from deep inside fetch.
    throw new ValidationError([{ path: [], message: `cannot be sent as JSON (${cause instanceof Error ? cause.message : String(cause)})` }], {
      subject: 'Invalid request body',
      cause,
    });
  }
}

/** Sends endpoints with auth, timeouts, retries and error mapping. One per client. */
export class HttpClient {
  // Private fields keep the key out of util.inspect, console.log and JSON.stringify of the client.
  readonly #config: ResolvedConfig;
  readonly #jsonHeaders: Readonly<Record<string, string>>;

  constructor(config: ResolvedConfig) {
    this.#config = config;
    this.#jsonHeaders = { ...config.headers, 'content-type': 'application/json' };
  }

  /** How inputs are validated for this call: `false` for not at all, else the rules to leave out. */
  validation(options: RequestOptions | undefined): false | ValidateOptions {
    return validateSetting(options?.validate, 'Request option `validate`') ?? this.#config.validate;
  }

  request<T>(endpoint: Endpoint<T>, options?: RequestOptions | null): APIPromise<T> {
    // `?? {}`, not a default parameter: JavaScript callers pass null too.
    return new APIPromise(this.#send(endpoint, options ?? {}));
  }

  async #send<T>(endpoint: Endpoint<T>, options: RequestOptions): Promise<WithResponse<T>> {
    const config = this.#config;
    checkRequestOptions(options);
    if (!HTTP_METHODS.includes(endpoint.method)) {
      throw new ValidationError([{ path: ['method'], message: `must be one of ${HTTP_METHODS.join(', ')}` }], { subject: 'Invalid request' });
    }
    if (typeof endpoint.path !== 'string' || !endpoint.path.startsWith('/') || endpoint.path.startsWith('//') || endpoint.path.includes('://')) {
      // The key goes wherever the URL points: only paths below baseUrl are allowed.
      throw new ValidationError([{ path: ['path'], message: 'must be a path below baseUrl starting with "/"' }], { subject: 'Invalid request' });
    }
    const validation = this.validation(options);
    const body = endpoint.prepare !== undefined && validation !== false ? endpoint.prepare(endpoint.body, validation) : endpoint.body;
    const payload = serialise(body);
    let headers = payload === undefined ? config.headers : this.#jsonHeaders;
    if (options.headers !== undefined) {
      checkHeaders(options.headers, 'Request `headers`');
      headers = { ...headers, ...options.headers };
    }
    const request: RequestSummary = { method: endpoint.method, url: buildUrl(config.baseUrl, endpoint.path, endpoint.query) };
    const init: RequestInit = { method: endpoint.method, headers };
    if (payload !== undefined) init.body = payload;

    const idempotent = endpoint.idempotent ?? (endpoint.method === 'GET' || endpoint.method === 'PUT');
    const maxRetries = options.maxRetries ?? config.maxRetries;
    const timeout = options.timeout ?? config.timeout;
    const deadline = Date.now() + (options.totalTimeout ?? config.totalTimeout);
    const { signal } = options;
    if (signal?.aborted) throw abortedError(signal, request);

    for (let attempt = 1; ; attempt++) {
      try {
        const { data, response } = await this.#attempt(init, request, attempt, Math.min(timeout, deadline - Date.now()), signal);
        return { data: endpoint.transform === undefined ? (data as T) : endpoint.transform(data, { status: response.status, request }), response };
      } catch (caught) {
        const error = caught instanceof DeliveryError ? caught : new ConnectionError(`${request.method} ${request.url} failed`, { cause: caught, request });
        const delay = attempt <= maxRetries && isRetryable(error, idempotent) ? this.#retryDelay(error, attempt) : undefined;
        if (delay === undefined || Date.now() + delay >= deadline) {
          this.#log('error', `${request.method} ${request.url} failed: ${error.message}`, { attempt });
          config.hooks.onError?.({ ...request, error });
          throw error;
        }
        this.#log('warn', `${request.method} ${request.url} retrying in ${delay} ms after: ${error.message}`, { attempt });
        config.hooks.onRetry?.({ ...request, attempt, delayMs: delay, error });
        await sleep(delay, signal, request);
      }
    }
  }

  #retryDelay(error: DeliveryError, attempt: number): number {
    const asked = error instanceof RateLimitError ? error.retryAfter : error instanceof ApiError ? parseRetryAfter(error.headers['retry-after'] ?? null) : undefined;
    return asked ?? backoffDelay(attempt - 1, this.#config.retryBase, this.#config.retryMax);
  }

  async #attempt(init: RequestInit, request: RequestSummary, attempt: number, budget: number, signal: AbortSignal | undefined): Promise<WithResponse<unknown>> {
    const config = this.#config;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timerDelay(budget));
    const onAbort = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    init.signal = controller.signal;

    const failure = (cause: unknown, stage: string): DeliveryError => {
      if (signal?.aborted) return abortedError(signal, request);
      if (timedOut) {
        const note = request.method === 'POST' ? ' The service may have acted on it; it was not sent again.' : '';
        return new TimeoutError(`${request.method} ${request.url} timed out after ${Math.max(0, budget)} ms (attempt ${attempt}).${note}`, { cause, request });
      }
      const reason = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
      return new ConnectionError(`${request.method} ${request.url} failed while ${stage}: ${reason}`, { cause, request });
    };

    try {
      if (config.hooks.onRequest !== undefined || config.logThreshold <= LOG_LEVELS.debug) {
        const safeHeaders = redactHeaders(init.headers as Record<string, string>, config.authHeaderName);
        this.#log('debug', `${request.method} ${request.url} (attempt ${attempt})`, { headers: safeHeaders });
        config.hooks.onRequest?.({ ...request, attempt, headers: safeHeaders });
      }
      const started = Date.now();
      let response: Response;
      let text: string;
      try {
        response = await config.fetch(request.url, init);
      } catch (cause) {
        throw failure(cause, 'sending the request');
      }
      try {
        text = await response.text();
      } catch (cause) {
        throw failure(cause, 'reading the response');
      }
      const durationMs = Date.now() - started;
      config.hooks.onResponse?.({ ...request, attempt, status: response.status, durationMs });
      this.#log('debug', `${request.method} ${request.url} answered ${response.status} in ${durationMs} ms`);

      const decoded = decodeBody(text);
      if (!response.ok || (decoded.json && isErrorEnvelope(decoded.value))) throw errorFromResponse(response, decoded, request);
      if (!decoded.json) {
        throw new ResponseShapeError(`${request.method} ${request.url} answered ${response.status} with a body that is not JSON`, {
          status: response.status,
          request,
        });
      }
      return { data: unwrapEnvelope(decoded.value), response };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  #log(level: Exclude<LogLevel, 'off'>, message: string, data?: Record<string, unknown>): void {
    const { logger, logThreshold } = this.#config;
    if (logger !== undefined && LOG_LEVELS[level] >= logThreshold) logger[level](message, data);
  }
}
