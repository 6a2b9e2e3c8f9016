import ky, { HTTPError, type Hooks, isKyError, type KyInstance, TimeoutError as KyTimeoutError, type NormalizedOptions, type Options, type ShouldRetryState } from 'ky';
import { ApiError, ConnectionError, DeliveryError, RequestAbortedError, type RequestSummary, ResponseShapeError, ResponseTooLargeError, TimeoutError, ValidationError } from '../errors/index.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import type { ValidateOptions } from '../schemas/rules-off.js';
import { checkHeaders, checkRequestOptions, type RequestOptions, type ResolvedConfig, validateSetting } from './config.js';
import { LOG_LEVELS, log, redactHeaders } from './logger.js';
import { decodeBody, errorFromResponse, isErrorEnvelope, isRedirect, parseRetryAfter, readTextWithin, redirectError, unwrapEnvelope } from './response.js';
import { isRetryable, RETRYABLE_STATUSES } from './retry.js';
import { scrubText, withSecretsOf } from './secrets.js';
import { pathSegment, urlBelow } from './url.js';

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

/**
 * The URL of a call, query encoded. Throws a ValidationError for a method the client does not
 * send or a path that is not below `baseUrl` (see {@link urlBelow}).
 */
function requestUrl(baseUrl: string, endpoint: Endpoint<unknown>): string {
  if (!HTTP_METHODS.includes(endpoint.method)) {
    throw new ValidationError([{ path: ['method'], message: `must be one of ${HTTP_METHODS.join(', ')}` }], { subject: 'Invalid request' });
  }
  return urlBelow(baseUrl, endpoint.path, endpoint.query);
}

/** ky's `stringifyJson`: a body that cannot be JSON (BigInt, a cycle) is refused before anything is sent. */
function toJson(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (cause) {
    throw new ValidationError([{ path: [], message: `cannot be sent as JSON (${cause instanceof Error ? cause.message : String(cause)})` }], {
      subject: 'Invalid request body',
      cause,
    });
  }
}

/** The longest wait a timer takes (2^31-1 ms, 24.8 days); ky refuses a longer `timeout`. */
const MAX_TIMER = 2 ** 31 - 1;

/**
 * One call across its attempts: the state ky's hooks and retry callbacks share (through ky's
 * `context`), the answer read within the attempt, and every failure as a DeliveryError. No ky
 * error leaves it: those hold the request, whose headers hold the key.
 */
class Call<T> {
  /** The attempt under way, from 1. */
  attempt = 0;
  answer: WithResponse<T> | undefined;
  /** What ky is given: the caller's signal and the `totalTimeout` deadline together. */
  readonly signal: AbortSignal | undefined;
  /** Milliseconds per attempt. */
  readonly timeout: number;
  /** Largest answer read, in bytes. */
  readonly maxResponseBytes: number;
  /** Scrubbed from everything built out of an answer: the client's secrets and those of the call's own headers. */
  readonly secrets: readonly string[];
  readonly #totalTimeout: number;
  readonly #deadline = new AbortController();
  readonly #deadlineAt: number;
  readonly end: () => void = () => undefined;
  #started = 0;
  #failure: DeliveryError | undefined;
  /** The error this attempt's answer stands for, while ky raises it as an `HTTPError`. */
  #errorAnswer: DeliveryError | undefined;

  constructor(
    readonly request: RequestSummary,
    private readonly config: ResolvedConfig,
    private readonly endpoint: Endpoint<T>,
    private readonly options: RequestOptions,
  ) {
    const { signal } = options;
    const totalTimeout = (this.#totalTimeout = options.totalTimeout ?? config.totalTimeout);
    this.timeout = options.timeout ?? config.timeout;
    this.maxResponseBytes = options.maxResponseBytes ?? config.maxResponseBytes;
    this.secrets = options.headers === undefined ? config.secrets : withSecretsOf(options.headers, config.authHeaderName, config.secrets);
    this.#deadlineAt = Date.now() + totalTimeout;
    if (totalTimeout >= MAX_TIMER) {
      this.signal = signal;
      return;
    }
    const deadline = this.#deadline;
    const timer = setTimeout(() => deadline.abort(), totalTimeout);
    // AbortSignal.any where it exists; elsewhere the caller's abort is forwarded to the deadline.
    const any = typeof AbortSignal.any === 'function' ? AbortSignal.any : undefined;
    const forward = (): void => deadline.abort();
    if (any === undefined) signal?.addEventListener('abort', forward, { once: true });
    this.signal = signal === undefined || any === undefined ? deadline.signal : any([signal, deadline.signal]);
    this.end = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    };
  }

  /** ky `beforeRequest`: an attempt starts. */
  sending(headers: Headers, retryCount: number): void {
    this.attempt = retryCount + 1;
    this.#started = Date.now();
    this.#errorAnswer = undefined;
    const { hooks, logThreshold, authHeaderName } = this.config;
    if (hooks.onRequest === undefined && logThreshold > LOG_LEVELS.debug) return;
    const { method, url } = this.request;
    const safeHeaders = redactHeaders(Object.fromEntries(headers), authHeaderName);
    log(this.config, 'debug', `${method} ${url} (attempt ${this.attempt})`, { headers: safeHeaders });
    hooks.onRequest?.({ method, url, attempt: this.attempt, headers: safeHeaders });
  }

  /**
   * ky `afterResponse`: reads the body within the attempt, so that a broken or malformed body is
   * retried like any failed attempt. An error status is left for ky to raise as an `HTTPError`
   * (its retry options know the statuses); the error it stands for is kept for {@link failure}.
   */
  async answered(response: Response): Promise<void> {
    const { request, secrets } = this;
    const redirected = isRedirect(response);
    let text: string | undefined;
    try {
      text = redirected ? '' : await readTextWithin(response, this.maxResponseBytes);
    } catch (cause) {
      throw this.#connectionFailure(cause, 'reading the response');
    }
    const durationMs = Date.now() - this.#started;
    this.config.hooks.onResponse?.({ ...request, attempt: this.attempt, status: response.status, durationMs });
    log(this.config, 'debug', `${request.method} ${request.url} answered ${response.status} in ${durationMs} ms`);
    // Never followed (ky sends `redirect: 'manual'`): the key and the body stay with baseUrl's origin.
    if (redirected) throw redirectError(response, request, secrets);
    if (text === undefined) throw this.#tooLarge(response.status);

    // The service may echo the key ('Invalid API key sk_live_…'): nothing built from the answer may carry it.
    const decoded = decodeBody(secrets.length === 0 ? text : scrubText(text, secrets));
    if (!response.ok) this.#errorAnswer = errorFromResponse(response, decoded, request, secrets);
    else if (decoded.json && isErrorEnvelope(decoded.value)) throw errorFromResponse(response, decoded, request, secrets);
    else if (!decoded.json) throw new ResponseShapeError(`${request.method} ${request.url} answered ${response.status} with a body that is not JSON`, { status: response.status, request });
    else {
      const data = unwrapEnvelope(decoded.value);
      const { transform } = this.endpoint;
      this.answer = { data: transform === undefined ? (data as T) : transform(data, { status: response.status, request }), response };
    }
  }

  /**
   * ky `retry.shouldRetry`: `false` ends the call; `undefined` has ky wait as `Retry-After` asks;
   * `true` has ky back off, the wait drawn by {@link jitter}. Either wait is announced (hooks, log)
   * before it starts, and one that would outlast `totalTimeout` ends the call at once.
   */
  shouldRetry = ({ error }: ShouldRetryState): boolean | undefined => {
    const { method } = this.request;
    const failure = this.failure(error);
    if (this.signal?.aborted || !isRetryable(failure, this.endpoint.idempotent ?? (method === 'GET' || method === 'PUT'))) return false;
    const asked = failure instanceof ApiError ? parseRetryAfter(failure.headers['retry-after'] ?? null) : undefined;
    if (asked === undefined) return true;
    if (Date.now() + asked >= this.#deadlineAt) return false;
    this.#announce(asked, failure);
    return undefined;
  };

  /** ky `retry.jitter`: full jitter, a uniform wait below ky's `delay`. */
  jitter = (ceiling: number): number => {
    const wait = Math.floor(Math.random() * ceiling);
    const failure = this.#failure as DeliveryError;
    // Thrown out of ky's retry loop: the call ends on the failure it would have retried.
    if (Date.now() + wait >= this.#deadlineAt) throw failure;
    this.#announce(wait, failure);
    return wait;
  };

  /** The DeliveryError for whatever ended an attempt, ky's errors included. */
  failure(error: unknown): DeliveryError {
    const { method, url } = this.request;
    const caller = this.options.signal;
    const note = method === 'POST' && this.endpoint.idempotent !== true ? ' The service may have acted on it; it was not sent again.' : '';
    if (caller?.aborted) this.#failure = new RequestAbortedError(`${method} ${url} was aborted by the caller`, { cause: caller.reason });
    else if (this.#deadline.signal.aborted) this.#failure = new TimeoutError(`${method} ${url} took longer than totalTimeout (${this.#totalTimeout} ms).${note}`, { request: this.request });
    else if (error instanceof DeliveryError) this.#failure = error;
    else if (error instanceof HTTPError && this.#errorAnswer !== undefined) this.#failure = this.#errorAnswer;
    else if (error instanceof KyTimeoutError) this.#failure = new TimeoutError(`${method} ${url} timed out after ${this.timeout} ms (attempt ${this.attempt}).${note}`, { request: this.request });
    else this.#failure = this.#connectionFailure(error, 'sending the request');
    return this.#failure;
  }

  #tooLarge(status: number): ResponseTooLargeError {
    const { method, url } = this.request;
    const note = method === 'POST' ? ' The service may have acted on it: look it up before sending it again.' : '';
    return new ResponseTooLargeError(`${method} ${url} answered ${status} with more than maxResponseBytes (${this.maxResponseBytes} bytes); the rest was not read.${note}`, {
      status,
      request: this.request,
      maxResponseBytes: this.maxResponseBytes,
    });
  }

  #connectionFailure(cause: unknown, stage: string): ConnectionError {
    const reason = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
    // A ky error is no cause to keep: it holds the request, and so the key.
    return new ConnectionError(`${this.request.method} ${this.request.url} failed while ${stage}: ${reason}`, { cause: isKyError(cause) ? undefined : cause, request: this.request });
  }

  #announce(delayMs: number, error: DeliveryError): void {
    const { method, url } = this.request;
    log(this.config, 'warn', `${method} ${url} retrying in ${delayMs} ms after: ${error.message}`, { attempt: this.attempt });
    this.config.hooks.onRetry?.({ method, url, attempt: this.attempt, delayMs, error });
  }
}

const callOf = (options: NormalizedOptions): Call<unknown> => options.context['call'] as Call<unknown>;

/**
 * The client's ky hooks: the SDK's first where a hook starts an attempt (the user's may add a
 * header), last where it reads the answer (the user's see it first, and may replace it).
 */
function hooksWith(own: Hooks): Hooks {
  return {
    beforeRequest: [(request, options, { retryCount }) => callOf(options).sending(request.headers, retryCount), ...(own.beforeRequest ?? [])],
    afterResponse: [...(own.afterResponse ?? []), (_request, options, response) => callOf(options).answered(response)],
    beforeRetry: own.beforeRetry ?? [],
    beforeError: own.beforeError ?? [],
  };
}

/** Sends endpoints through the client's ky instance, and maps every outcome to a result or a DeliveryError. One per client. */
export class HttpClient {
  // Private fields keep the key out of util.inspect, console.log and JSON.stringify of the client.
  readonly #config: ResolvedConfig;
  readonly #ky: KyInstance;

  constructor(config: ResolvedConfig) {
    this.#config = config;
    this.#ky = ky.create({
      prefixUrl: config.baseUrl,
      headers: config.headers,
      fetch: config.fetch,
      stringifyJson: toJson,
      // A redirect is refused in `answered`, never followed: fetch would carry the key and the body
      // to wherever `Location` points, another origin or plain http:// included.
      redirect: 'manual',
      // Every method is listed: the call's `shouldRetry` decides by idempotency, not by method.
      // `delay` is the ceiling of full jitter, min(max, base * 2^n); the call's `jitter` draws below it.
      retry: {
        methods: ['get', 'put', 'post', 'patch', 'delete'],
        statusCodes: RETRYABLE_STATUSES,
        afterStatusCodes: RETRYABLE_STATUSES,
        retryOnTimeout: true,
        delay: (retry) => Math.min(config.retryMax, config.retryBase * 2 ** (retry - 1)),
      },
      hooks: hooksWith(config.kyHooks),
    });
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
    const url = requestUrl(config.baseUrl, endpoint);
    const target = url.slice(config.baseUrl.length + 1);
    const validation = this.validation(options);
    const json = endpoint.prepare !== undefined && validation !== false ? endpoint.prepare(endpoint.body, validation) : endpoint.body;
    if (options.headers !== undefined) checkHeaders(options.headers, 'Request `headers`');
    const request: RequestSummary = { method: endpoint.method, url: config.secrets.length === 0 ? url : scrubText(url, config.secrets) };
    const { signal } = options;
    if (signal?.aborted) throw new RequestAbortedError(`${request.method} ${request.url} was aborted by the caller`, { cause: signal.reason });

    const call = new Call<T>(request, config, endpoint, options);
    const kyOptions: Options = {
      method: endpoint.method,
      json,
      timeout: call.timeout >= MAX_TIMER ? false : call.timeout,
      signal: call.signal ?? null,
      retry: { limit: options.maxRetries ?? config.maxRetries, shouldRetry: call.shouldRetry, jitter: call.jitter },
      context: { call },
    };
    // Set only when given: ky would take an undefined `headers` as "none", the client's included.
    if (options.headers !== undefined) kyOptions.headers = options.headers;
    try {
      // The answer was read from ky's clone in `afterResponse`; ky's own copy of it is left unread
      // (awaiting the cancel of a tee branch cost about 2 ms per call).
      await this.#ky(target, kyOptions);
      return call.answer as WithResponse<T>;
    } catch (caught) {
      // A body that cannot be JSON is refused by `toJson` before anything is sent: no attempt to report.
      if (caught instanceof ValidationError) throw caught;
      const error = call.failure(caught);
      log(config, 'error', `${request.method} ${request.url} failed: ${error.message}`, { attempt: call.attempt });
      config.hooks.onError?.({ ...request, error });
      throw error;
    } finally {
      call.end();
    }
  }
}
