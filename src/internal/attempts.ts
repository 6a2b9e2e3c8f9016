import type { Hooks, Options } from 'ky';
import type { WithResponse } from '../core/api-promise.js';
import type { CallOptions, ClientHooks } from '../core/options.js';
import type { AttemptTelemetry } from '../core/telemetry.js';
import {
  ConnectionError,
  DeliveryError,
  type RequestAbortedError,
  type RequestSummary,
  ResponseShapeError,
  ResponseTooLargeError,
  TimeoutError,
} from '../errors/index.js';
import { AttemptClock, AttemptCut, abortedByCaller, sleep } from './attempt-clock.js';
import { decodeBody, discardBody, isErrorEnvelope, readTextWithin, unwrapEnvelope } from './body.js';
import type { ResolvedConfig } from './config.js';
import { isOutOfTime, outOfTime } from './deadline.js';
import { errorMappingFor } from './error-mapping-loader.js';
import { LOG_LEVELS, log } from './log.js';
import { redactHeaders, scrubResponse, scrubText, secretsOf } from './redaction.js';
import type { ApiRequest } from './request.js';
import { mayHaveActed, retryDelay } from './retry.js';

type HookEvent<K extends keyof ClientHooks> = Parameters<NonNullable<ClientHooks[K]>>[0];

/**
 * Calls the user's hook. One that throws is reported through the logger and changes nothing: the
 * call's outcome is the service's answer, not the hook's bug.
 */
function notify<K extends keyof ClientHooks>(config: ResolvedConfig, name: K, event: HookEvent<K>): void {
  try {
    (config.hooks[name] as ((event: HookEvent<K>) => void) | undefined)?.(event);
  } catch (error) {
    log(config, 'warn', `hooks.${name} threw, ignored: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** What every request of a client carries alike, made with its first request. */
interface ClientRequests {
  /** The client's headers (its key among them), names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The same with the type of a JSON body. */
  readonly jsonHeaders: Readonly<Record<string, string>>;
  /** The ky options of every request: no redirect followed, no retry and no timer of ky's (the SDK has its own), the user's ky hooks when given. */
  readonly options: Options;
  /**
   * Whether the body goes to fetch beside ky's request rather than inside it: with the platform's
   * fetch and no ky hooks. A `fetch` or ky hooks of the user's see the whole Request ky builds.
   */
  readonly beside: boolean;
}

/** Passes the SDK's attempt count to the user's ky hooks as `retryCount` (ky's own count stays 0: the SDK retries itself). */
function hooksWith(own: Hooks): Hooks {
  const retryCount = (options: { context: Record<string, unknown> }): { retryCount: number } => ({ retryCount: Number(options.context['attempt'] ?? 1) - 1 });
  return {
    beforeRequest: (own.beforeRequest ?? []).map((hook) => (request, options) => hook(request, options, retryCount(options))),
    afterResponse: (own.afterResponse ?? []).map((hook) => (request, options, response) => hook(request, options, response, retryCount(options))),
    beforeError: (own.beforeError ?? []).map((hook) => (error) => hook(error, retryCount(error.options))),
  };
}

/** Each client's settings of every request, by its config (shared by the cores `withOptions` makes). */
const requestsOf = new WeakMap<ResolvedConfig, ClientRequests>();

function clientRequests(config: ResolvedConfig, agent: string | undefined): ClientRequests {
  const known = requestsOf.get(config);
  if (known !== undefined) return known;
  const { beforeRequest, afterResponse, beforeError } = config.kyHooks;
  const hooked = Boolean(beforeRequest?.length || afterResponse?.length || beforeError?.length);
  // The SDK's User-Agent where one is sent, with the client's `userAgent` after it; a `user-agent` of the client's `headers` wins.
  const headers = Object.fromEntries(
    Object.entries(agent === undefined ? config.headers : { 'user-agent': config.userAgent ? `${agent} ${config.userAgent}` : agent, ...config.headers }).map(
      ([name, value]) => [name.toLowerCase(), value],
    ),
  );
  const requests: ClientRequests = {
    headers,
    jsonHeaders: { ...headers, 'content-type': 'application/json' },
    beside: !hooked && config.fetch === undefined,
    options: {
      // A redirect is refused, never followed: fetch would carry the key and the body to wherever
      // `Location` points, another origin or plain http:// included.
      redirect: 'manual',
      // The SDK retries and times attempts itself (see Attempts): ky sends one request per attempt, with no timer of its own.
      retry: 0,
      timeout: false,
      // An error status is read like any other answer; only a beforeError hook needs ky's HTTPError.
      ...(hooked ? { hooks: hooksWith(config.kyHooks) } : { throwHttpErrors: false }),
    },
  };
  requestsOf.set(config, requests);
  return requests;
}

/** `base` with `own` over it, names compared in any case; an `undefined` value leaves a header out. */
function mergedHeaders(base: Readonly<Record<string, string>>, own: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const merged: Record<string, string> = { ...base };
  for (const [name, value] of Object.entries(own)) {
    const lower = name.toLowerCase();
    if (value === undefined) delete merged[lower];
    else merged[lower] = value;
  }
  return merged;
}

/**
 * One request across its attempts: each attempt is one ky request (ky never retries) whose answer
 * is read after ky returns, within the attempt's clock. Every failure leaves as a DeliveryError:
 * no ky error does, since those hold the request and so the key.
 */
/**
 * ky, as the first request loads it (internal/send.ts): the instance and the two checks of its
 * errors. Never a static import of ky's values: whatever imports this module statically (the
 * Node build merges it into the main entry's file) would load ky before its first request.
 */
export type KyModule = typeof import('ky');

export class Attempts<T> {
  readonly #secrets: readonly string[];
  readonly #deadlineAt: number;
  readonly #timeout: number;
  readonly #maxResponseBytes: number;
  /** The headers sent: the client's, the call's own over them, its own key's (`apiKey`), and the body's type. */
  readonly #headers: Readonly<Record<string, string>>;
  /** Whether an attempt so far may have reached the service and acted: what `mayExist` tells. */
  #mayHaveActed = false;

  readonly #requests: ClientRequests;
  readonly #json: string | Uint8Array<ArrayBuffer> | undefined;

  constructor(
    private readonly ky: KyModule,
    private readonly config: ResolvedConfig,
    private readonly apiRequest: ApiRequest<T>,
    private readonly options: CallOptions,
    private readonly request: RequestSummary,
    private readonly url: string,
    /** When `totalTimeout` ends the call, epoch ms (Infinity for none). */
    deadlineAt: number,
    /** The SDK's User-Agent in this process (internal/user-agent.ts); undefined in a page. */
    agent?: string,
  ) {
    const requests = (this.#requests = clientRequests(config, agent));
    const json = (this.#json = apiRequest.json);
    this.#deadlineAt = deadlineAt;
    this.#timeout = options.timeout ?? config.timeout;
    this.#maxResponseBytes = options.maxResponseBytes ?? config.maxResponseBytes;
    const withoutKey = apiRequest.public === true && !config.keyForPublicEndpoints;
    const { apiKey, headers } = options;
    const keyHeader =
      apiKey === undefined || withoutKey ? {} : { [config.authHeaderName]: config.authScheme === '' ? apiKey : `${config.authScheme} ${apiKey}` };
    const base = json === undefined ? requests.headers : requests.jsonHeaders;
    this.#headers =
      headers === undefined && apiKey === undefined && !withoutKey
        ? base
        : // A public endpoint's call leaves the client's key out (an undefined value removes a header).
          mergedHeaders(base, withoutKey ? { [config.authHeaderName]: undefined, ...headers } : { ...headers, ...keyHeader });
    this.#secrets =
      headers === undefined && apiKey === undefined
        ? config.secrets
        : secretsOf({ ...headers, ...keyHeader }, config.authHeaderName, apiKey === undefined ? config.secrets : [apiKey, ...config.secrets]);
  }

  async run(): Promise<WithResponse<T>> {
    const { config, request, options } = this;
    const idempotent = this.apiRequest.idempotent ?? (request.method === 'GET' || request.method === 'PUT');
    const maxRetries = options.maxRetries ?? config.maxRetries;
    const { traced: observer } = this.apiRequest;
    // Too little time left for an answer to arrive: nothing is sent (internal/deadline.ts).
    if (isOutOfTime(this.#deadlineAt)) throw outOfTime(request);
    for (let attempt = 1; ; attempt++) {
      let failure: DeliveryError;
      let wait: number | undefined;
      // The URL the telemetry records (`url.full`): the call's own secrets (its headers') scrubbed too.
      const traced = observer?.attempt(attempt - 1, scrubText(request.url, this.#secrets));
      try {
        const answered = await this.#attempt(attempt, traced);
        traced?.end(answered.response.status);
        return answered;
      } catch (error) {
        failure = this.#failure(error, attempt);
        traced?.end(undefined, failure);
        this.#mayHaveActed ||= mayHaveActed(failure);
        // A kyHooks afterResponse hook returned ky.retry(): documented to bypass the policy.
        const forced = this.ky.isForceRetryError(error) && attempt <= maxRetries;
        wait = options.signal?.aborted
          ? undefined
          : forced
            ? 0
            : retryDelay(failure, { attempt, maxRetries, idempotent, retryBase: config.retryBase, retryMax: config.retryMax, deadlineAt: this.#deadlineAt });
      }
      if (wait !== undefined) {
        log(config, 'warn', `${request.method} ${request.url} retrying in ${wait} ms after: ${failure.message}`, { attempt });
        notify(config, 'onRetry', { ...request, attempt, delayMs: wait, error: failure });
        // Only the caller's abort can end the wait early: it never outlasts totalTimeout (see retryDelay).
        const abortedMeanwhile = await sleep(wait, options.signal).then(
          () => false,
          () => true,
        );
        if (!abortedMeanwhile) continue;
        failure = this.#aborted();
      }
      this.#tellOutcome(failure);
      log(config, 'error', `${request.method} ${request.url} failed: ${failure.message}`, { attempt });
      notify(config, 'onError', { ...request, error: failure });
      throw failure;
    }
  }

  /** One attempt; with `traced`, its trace context (`traceparent`) goes with it. */
  async #attempt(attempt: number, traced: AttemptTelemetry | undefined): Promise<WithResponse<T>> {
    const { config, request, options } = this;
    if (config.hooks.onRequest !== undefined || config.logThreshold <= LOG_LEVELS.debug) {
      const headers = redactHeaders(this.#headers, config.authHeaderName);
      log(config, 'debug', `${request.method} ${request.url} (attempt ${attempt})`, { headers });
      notify(config, 'onRequest', { ...request, attempt, headers });
    }
    // The trace context is written before the attempt's clock starts: telemetry's time is not the attempt's.
    const headers = traced?.headers(this.#headers) ?? this.#headers;
    const clock = new AttemptClock(options.signal, this.#timeout, this.#deadlineAt - Date.now());
    const work = this.#exchange(clock, attempt, headers);
    // Left to settle on its own once the clock cuts the attempt; its outcome is no longer awaited.
    work.catch(() => undefined);
    try {
      return await clock.race(work);
    } catch (error) {
      if (error instanceof AttemptCut || clock.cut !== undefined) throw new AttemptCut(clock.cut ?? (error as AttemptCut).cut);
      throw error;
    } finally {
      clock.end();
    }
  }

  /** Sends one attempt and reads its answer to the last byte. */
  async #exchange(clock: AttemptClock, attempt: number, headers: Readonly<Record<string, string>>): Promise<WithResponse<T>> {
    const { config, request } = this;
    const timed = config.hooks.onResponse !== undefined || config.logThreshold <= LOG_LEVELS.debug;
    const started = timed ? Date.now() : 0;
    const requests = this.#requests;
    const json = this.#json;
    const { signal } = clock;
    // Called as a function, not as a method of ky's options: a browser's own fetch refuses another `this`.
    const given = config.fetch;
    // ky builds the request and sends it through this fetch, with the attempt's signal (its clock's, the caller's
    // abort included). With the platform's fetch and no ky hooks, nothing sees ky's Request but this fetch: the
    // headers and the body go to fetch beside it rather than inside it, so ky copies no headers and streams, clones
    // and pipes no body, a third of its cost per call (docs/performance.md). globalThis.fetch is looked up at each
    // request, so a mock installed after the client is built (msw) still sees it.
    const kyOptions: Options = requests.beside
      ? {
          ...requests.options,
          method: request.method,
          fetch: () => globalThis.fetch(this.url, { method: request.method, headers, body: json ?? null, signal, redirect: 'manual' }),
        }
      : {
          ...requests.options,
          method: request.method,
          headers,
          body: json ?? null,
          // The attempt count, for the user's ky hooks.
          context: { attempt },
          fetch: (input, init) => (given ?? globalThis.fetch)(input, { ...init, signal }),
        };
    let response: Response;
    try {
      response = await this.ky.default(this.url, kyOptions);
    } catch (error) {
      // With ky hooks, ky raises an error status as an HTTPError whose body is unread: read here like any other.
      if (!(error instanceof this.ky.HTTPError)) throw error;
      response = error.response;
    }
    if (clock.cut !== undefined) {
      discardBody(response);
      throw new AttemptCut(clock.cut);
    }
    const redirected = isRedirect(response);
    let text: string | undefined = '';
    try {
      if (redirected) discardBody(response);
      else text = await readTextWithin(response, this.#maxResponseBytes, clock);
    } catch (cause) {
      throw connectionError(request, cause, 'reading the response', this.ky);
    }
    if (timed) {
      const durationMs = Date.now() - started;
      notify(config, 'onResponse', { ...request, attempt, status: response.status, durationMs });
      log(config, 'debug', `${request.method} ${request.url} answered ${response.status} in ${durationMs} ms`);
    }
    // Never followed (ky sends `redirect: 'manual'`): the key and the body stay with baseUrl's origin.
    if (redirected) throw await errorOfAnswer(response, request, (mapping) => mapping.redirectError(response, request, this.#secrets));
    if (text === undefined) throw tooLargeError(request, response.status, this.#maxResponseBytes);
    const decoded = decodeBody(text, this.#secrets);
    if (!response.ok || (decoded.json && isErrorEnvelope(decoded.value)))
      throw await errorOfAnswer(response, request, (mapping) => mapping.errorFromResponse(response, decoded, request, this.#secrets, this.apiRequest.refusal));
    if (!decoded.json)
      throw new ResponseShapeError(`${request.method} ${request.url} answered ${response.status} with a body that is not JSON`, {
        status: response.status,
        request,
      });
    const data = unwrapEnvelope(decoded.value);
    const { transform } = this.apiRequest;
    const result = transform === undefined ? (data as T) : transform(data, { status: response.status, request });
    // The answer `withResponse()` hands back: its headers may echo the key, in a value or as a name.
    return { data: result, response: scrubResponse(response, this.#secrets) };
  }

  /**
   * Sets the failure's `mayExist`, and says it in words: a call that changes something may have
   * done it when any of its attempts may have reached the service. A read changes nothing.
   */
  #tellOutcome(failure: DeliveryError): void {
    const reads = this.apiRequest.reads ?? this.request.method === 'GET';
    if (reads || !this.#mayHaveActed) return;
    (failure as { mayExist: boolean }).mayExist = true;
    failure.message += ' It may have been acted on (mayExist): look it up before sending it again.';
  }

  /** The DeliveryError for whatever ended an attempt. */
  #failure(error: unknown, attempt: number): DeliveryError {
    const { method, url } = this.request;
    if (error instanceof AttemptCut) {
      if (error.cut === 'caller') return this.#aborted();
      if (error.cut === 'total') return outOfTime(this.request);
      return new TimeoutError(`${method} ${url} timed out after ${this.#timeout} ms (attempt ${attempt}).`, { request: this.request });
    }
    if (error instanceof DeliveryError) return error;
    return connectionError(this.request, error, 'sending the request', this.ky);
  }

  #aborted(): RequestAbortedError {
    return abortedByCaller(`${this.request.method} ${this.request.url}`, this.options.signal);
  }
}

/** A redirect: a 3xx, or what a browser answers for one under `redirect: 'manual'` (type `opaqueredirect`, status 0). */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/** The error for an answer longer than `maxResponseBytes`, of which the rest was not read. */
function tooLargeError(request: RequestSummary, status: number, maxResponseBytes: number): ResponseTooLargeError {
  const message = `${request.method} ${request.url} answered ${status} with more than maxResponseBytes (${maxResponseBytes} bytes); the rest was not read.`;
  return new ResponseTooLargeError(message, { status, request, maxResponseBytes });
}

/** The error for a request that failed while `stage` (sending, reading the answer). */
function connectionError(request: RequestSummary, cause: unknown, stage: string, ky: KyModule): ConnectionError {
  const reason = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
  // A ky error is no cause to keep: it holds the request, and so the key.
  return new ConnectionError(`${request.method} ${request.url} failed while ${stage}: ${reason}`, { cause: ky.isKyError(cause) ? undefined : cause, request });
}

/** The error an answer maps to (error-mapping.ts), or the error saying the answer could not be read. */
async function errorOfAnswer(
  response: Response,
  request: RequestSummary,
  map: (mapping: typeof import('./error-mapping.js')) => DeliveryError,
): Promise<DeliveryError> {
  return errorMappingFor(request, response.status).then(map, (unreadable: DeliveryError) => unreadable);
}
