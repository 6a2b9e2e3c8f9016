import type { Hooks } from 'ky';
import { ConnectionError, type RequestSummary } from '../errors/index.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import type { Call, ClientRequests } from './call.js';
import { callOptionsOf, type ResolvedConfig } from './config.js';
import { abortedByCaller, MAX_TIMER } from './deadline.js';
import { type Endpoint, requestUrl } from './endpoint.js';
import { onFirstUse } from './on-first-use.js';
import type { CallOptions } from './options.js';
import { scrubText } from './redaction.js';
import { NOT_LOADED } from './retry.js';

export { type Endpoint, type HttpMethod, path, type QueryValue, type Wire, wireForm } from './endpoint.js';

/** Passes the SDK's attempt count to the user's ky hooks as `retryCount` (ky's own count stays 0: the SDK retries itself). */
function hooksWith(own: Hooks): Hooks {
  const retryCount = (options: { context: Record<string, unknown> }): { retryCount: number } => ({ retryCount: Number(options.context['attempt'] ?? 1) - 1 });
  return {
    beforeRequest: (own.beforeRequest ?? []).map((hook) => (request, options) => hook(request, options, retryCount(options))),
    afterResponse: (own.afterResponse ?? []).map((hook) => (request, options, response) => hook(request, options, response, retryCount(options))),
    beforeError: (own.beforeError ?? []).map((hook) => (error) => hook(error, retryCount(error.options))),
  };
}

/** What the functions send through: the client's transport, or the same under default options (`withOptions`). */
export interface Transport {
  /** Sends `endpoint`, input already checked by the caller; rejects with a DeliveryError only. */
  request<T>(endpoint: Endpoint<T>, options?: CallOptions | null): APIPromise<T>;
  /** When `totalTimeout` ends a run of calls starting now, in epoch ms. */
  deadlineOf(options: CallOptions | null | undefined): number;
  /** The same transport with `defaults` under every call's options. */
  withDefaults(defaults: CallOptions): Transport;
}

/** The code that sends: ky and the call machinery. */
interface SendingCode {
  readonly Call: typeof Call;
  readonly ky: typeof import('ky').default;
}

/**
 * The code that sends, loaded by the first request: importing the SDK (or building a client) loads
 * neither ky nor the call machinery, so a process that never sends pays for neither (cold start,
 * docs/performance.md).
 */
const sendingCode = onFirstUse(() =>
  Promise.all([import('./call.js'), import('ky')]).then(([call, kyModule]): SendingCode => ({ Call: call.Call, ky: kyModule.default })),
);

/** Sends endpoints through ky, and maps every outcome to a result or a DeliveryError. One per client. */
export class HttpClient implements Transport {
  // Private fields keep the key out of util.inspect, console.log and JSON.stringify of the client.
  readonly #config: ResolvedConfig;
  #requests: ClientRequests | undefined;

  constructor(config: ResolvedConfig) {
    this.#config = config;
  }

  /** What each request of this client carries alike, made with the first request. */
  #requestsFrom(ky: SendingCode['ky']): ClientRequests {
    if (this.#requests !== undefined) return this.#requests;
    const config = this.#config;
    const { beforeRequest, afterResponse, beforeError } = config.kyHooks;
    const hooked = Boolean(beforeRequest?.length || afterResponse?.length || beforeError?.length);
    const given = config.fetch;
    const headers = Object.fromEntries(Object.entries(config.headers).map(([name, value]) => [name.toLowerCase(), value]));
    this.#requests = {
      ky,
      headers,
      jsonHeaders: { ...headers, 'content-type': 'application/json' },
      options: {
        // A redirect is refused, never followed: fetch would carry the key and the body to wherever
        // `Location` points, another origin or plain http:// included.
        redirect: 'manual',
        // The SDK retries and times attempts itself (see Call): ky sends one request per attempt.
        retry: 0,
        // Called as a function, not as a method of ky's options: a browser's own fetch refuses another `this`.
        // Without one, ky takes globalThis.fetch at each request, so a mock installed after the client is built (msw) still sees it.
        ...(given === undefined ? {} : { fetch: (input: RequestInfo | URL, init?: RequestInit) => given(input, init) }),
        ...(hooked ? { hooks: hooksWith(config.kyHooks) } : {}),
      },
    };
    return this.#requests;
  }

  /** The same transport (connections, ky instance, hooks) with `defaults` under every call's options. */
  withDefaults(defaults: CallOptions): Transport {
    return new DefaultedTransport(this, defaults);
  }

  /**
   * When `totalTimeout` (the call's, else the client's) ends a run of calls starting now, in epoch
   * ms: one deadline for a whole paged read, whatever the number of pages.
   */
  deadlineOf(options: CallOptions | null | undefined): number {
    const total = callOptionsOf(options).totalTimeout ?? this.#config.totalTimeout;
    return total >= MAX_TIMER ? Number.POSITIVE_INFINITY : Date.now() + total;
  }

  /** Sends `endpoint`, input already checked by the caller; rejects with a DeliveryError only. */
  request<T>(endpoint: Endpoint<T>, options?: CallOptions | null): APIPromise<T> {
    return new APIPromise(this.#startCall(endpoint, options));
  }

  #startCall<T>(endpoint: Endpoint<T>, given: CallOptions | null | undefined): Promise<WithResponse<T>> {
    const config = this.#config;
    let options: CallOptions;
    let url: string;
    let request: RequestSummary;
    try {
      options = callOptionsOf(given);
      url = requestUrl(config.baseUrl, endpoint);
      request = {
        method: endpoint.method,
        url: scrubText(url, options.apiKey === undefined ? config.secrets : [options.apiKey, ...config.secrets]),
      };
    } catch (error) {
      return Promise.reject(error);
    }
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortedByCaller(`${request.method} ${request.url}`, signal));
    const run = (code: SendingCode): Promise<WithResponse<T>> =>
      new code.Call<T>(this.#requestsFrom(code.ky), config, endpoint, options, request, url, endpoint.json).run();
    const loaded = sendingCode.ready;
    if (loaded !== undefined) return run(loaded);
    return sendingCode.load().then(run, (cause: unknown) => {
      // Nothing left this machine: the code `wasNeverSent` (retry.ts) knows, so no one is told the request may have acted.
      throw new ConnectionError(`${request.method} ${request.url}: the SDK's code to send it could not be loaded; nothing was sent.`, {
        cause: Object.assign(new Error('code not loaded', { cause }), { code: NOT_LOADED }),
        request,
      });
    });
  }
}

/** `options` over `defaults`: an option left undefined keeps the default; headers merge by name. */
function underneath(defaults: CallOptions, options: CallOptions): CallOptions {
  if (Object.keys(defaults).length === 0) return options;
  const merged: Record<string, unknown> = { ...defaults };
  for (const [name, value] of Object.entries(options)) if (value !== undefined) merged[name] = value;
  if (defaults.headers !== undefined && options.headers !== undefined) merged['headers'] = { ...defaults.headers, ...options.headers };
  return merged as CallOptions;
}

/** A transport's calls with `defaults` under their own options: one merchant's key over a shared client. */
class DefaultedTransport implements Transport {
  readonly #inner: Transport;
  readonly #defaults: CallOptions;

  constructor(inner: Transport, defaults: CallOptions) {
    this.#inner = inner;
    this.#defaults = defaults;
  }

  request<T>(endpoint: Endpoint<T>, options?: CallOptions | null): APIPromise<T> {
    let merged: CallOptions;
    try {
      merged = underneath(this.#defaults, callOptionsOf(options));
    } catch (error) {
      return new APIPromise(Promise.reject(error));
    }
    return this.#inner.request(endpoint, merged);
  }

  deadlineOf(options: CallOptions | null | undefined): number {
    return this.#inner.deadlineOf(underneath(this.#defaults, callOptionsOf(options)));
  }

  withDefaults(defaults: CallOptions): Transport {
    return new DefaultedTransport(this.#inner, underneath(this.#defaults, defaults));
  }
}
