import type { Hooks } from 'ky';
import { ErrorCode } from '../errors/codes.js';
import type { Logger, LogLevel } from './logger.js';
import type { DeliveryTelemetry } from './telemetry.js';

/** Observation points for metrics and tracing. Hooks see no secrets: header values off the allow-list are `[redacted]`. */
export interface ClientHooks {
  /** Before each attempt is sent. `headers` shows the values of content-type, accept, user-agent and request ids only. */
  onRequest?(event: { method: string; url: string; attempt: number; headers: Record<string, string> }): void;
  /** After each attempt is answered and its body read, whatever the status. */
  onResponse?(event: { method: string; url: string; attempt: number; status: number; durationMs: number }): void;
  /** Before waiting for a retry. */
  onRetry?(event: { method: string; url: string; attempt: number; delayMs: number; error: Error }): void;
  /** When a call fails for good. */
  onError?(event: { method: string; url: string; error: Error }): void;
}

/** The client options the transport reads; `DeliveryClientOptions` adds `validate`. */
export interface TransportOptions {
  /**
   * Base address of the API, ending in the version segment, e.g. `https://api.example.com/v2`.
   * `http://` is refused unless the host is loopback or `allowInsecureHttp` is set. A path that
   * does not end in `/v2` is accepted (a proxy may add it) and logged as a warning.
   */
  baseUrl: string;
  /** The API key. Defaults to the `DELIVERY_API_KEY` environment variable where `process` exists. Lookup and registration work without one. */
  apiKey?: string | undefined;
  /**
   * How the key is sent. Default: `{ headerName: 'Authorization', scheme: '' }`, i.e.
   * `Authorization: <apiKey>`. The public lookups (cities, zones, districts) are sent without the
   * key; `sendToPublicEndpoints: true` sends it to them too, for a proxy that asks for it on every
   * route.
   */
  auth?: { headerName?: string; scheme?: string; sendToPublicEndpoints?: boolean } | undefined;
  /**
   * Milliseconds one attempt may take, from sending to the last byte of the answer. An attempt
   * that runs out is retried when the call is safe to repeat. Default 30000.
   */
  timeout?: number | undefined;
  /** Milliseconds all attempts of one call may take together, waits included. Default 120000. */
  totalTimeout?: number | undefined;
  /** Retries after the first attempt, where retrying is safe (see docs/reliability.md). Default 2. */
  maxRetries?: number | undefined;
  /** Backoff between retries: full jitter over `base * 2^n`, capped at `max` (ms). Default `{ base: 500, max: 8000 }`. */
  retryDelay?: { base?: number; max?: number } | undefined;
  /** A `fetch` implementation, e.g. for a proxy agent or for tests. Default `globalThis.fetch`. */
  fetch?: typeof fetch | undefined;
  /**
   * Headers sent with every request. Values other than content-type, accept, user-agent and
   * request ids are treated as secrets: `[redacted]` in logs and hooks, scrubbed from answers.
   */
  headers?: Record<string, string> | undefined;
  /**
   * Product tokens added after the SDK's own `User-Agent`, naming the app or platform built on it:
   * `'shop-sync/2.3'` sends `delivery-sdk/0.1.0 (Node.js 22.11.0; linux) shop-sync/2.3`. The SDK
   * sends a User-Agent from Node.js, Deno and Bun only, never from a browser, where it would force
   * a CORS preflight, nor from an edge worker (docs/runtimes.md); a `user-agent` in `headers`
   * replaces it.
   */
  userAgent?: string | undefined;
  /**
   * Largest answer read, in bytes; past it the call fails with `ResponseTooLargeError` without
   * reading the rest. Default 10 MB (10 * 2^20), about ten times a country's district list (estimated).
   */
  maxResponseBytes?: number | undefined;
  /**
   * In-memory cache of the lookup lists (cities, zones, districts), per client: answers are kept
   * for `ttl` ms (default one hour) and concurrent identical lookups share one request.
   * `false` sends every lookup.
   */
  cache?: { ttl?: number | undefined } | false | undefined;
  /** Allow `http://` to a non-loopback host. Only for trusted networks: the key travels in clear. */
  allowInsecureHttp?: boolean | undefined;
  /**
   * Callbacks called for every attempt of every call: the lower-level tool. For OpenTelemetry
   * spans and metrics, `telemetry` does the work.
   */
  hooks?: ClientHooks | undefined;
  /**
   * ky hooks of your own, e.g. a `beforeRequest` that sets a tracing header. They see the auth
   * header. `retryCount` in their state counts the SDK's attempts; `beforeRetry` hooks are not
   * called (the SDK retries itself), and `ky.retry()` from an `afterResponse` hook retries at
   * once, bypassing the retry policy.
   */
  kyHooks?: Hooks | undefined;
  /**
   * Traces and metrics of every call, attempt and bulk chunk: `openTelemetry()` from
   * `delivery-sdk/opentelemetry` (docs/observability.md). Default: none, and nothing is spent on it.
   */
  telemetry?: DeliveryTelemetry | undefined;
  /** Where to log requests, retries and errors (the key is always redacted). */
  logger?: Logger | undefined;
  /** Lowest level logged. Default `'info'` when a logger is given. */
  logLevel?: LogLevel | undefined;
}

/** The per-call options the transport reads; `RequestOptions` adds `validate`. */
export interface CallOptions {
  /** Aborts the call (and any wait between retries); the call rejects with `RequestAbortedError`. */
  signal?: AbortSignal | undefined;
  /** Milliseconds one attempt may take, from sending to the last byte of the answer. */
  timeout?: number | undefined;
  /** Milliseconds all attempts may take together, waits included. */
  totalTimeout?: number | undefined;
  /**
   * The API key of this call, in place of the client's: a platform calling for several merchants
   * (one key per business) keeps one client. Sent as the client's `auth` says; scrubbed from
   * everything the call's errors and logs carry.
   */
  apiKey?: string | undefined;
  /** Headers added to this call (they override the client's of the same name); their values are secrets as the client's are. */
  headers?: Record<string, string> | undefined;
  /** Retries after the first attempt, where retrying is safe. */
  maxRetries?: number | undefined;
  /** Largest answer read, in bytes (see the client's `maxResponseBytes`). */
  maxResponseBytes?: number | undefined;
}

/** Options of {@link DeliveryClient} and of `DeliveryCore` (`delivery-sdk/functions`). */
export interface DeliveryClientOptions extends TransportOptions {
  /**
   * Check inputs against the spec's rules before sending. Default true. `{ skip: [codes] }` checks
   * every rule but those named, e.g. `{ skip: [ErrorCode.DeliveryImagesRequired] }`.
   */
  validate?: ValidateSetting | undefined;
}

/** Options every method takes as its last argument; they override the client's for one call. */
export interface RequestOptions extends CallOptions {
  /**
   * Replaces the client's `validate` for this call: `false` sends the input unchecked, `{ skip }`
   * leaves out the rules named. The service's own answer still maps to the coded classes.
   */
  validate?: ValidateSetting | undefined;
}

/** The errorCodes of the rules the SDK checks before sending: the only ones `skip` can name. */
export const CLIENT_RULE_CODES = [
  ErrorCode.DeliveryImagesRequired,
  ErrorCode.InvalidDeliveryImageUrl,
  ErrorCode.CrpRefundCodOnly,
  ErrorCode.CodRequired,
  ErrorCode.CodLimitExceeded,
  ErrorCode.RefundCodLimitExceeded,
  ErrorCode.AddressLocationRequired,
] as const;

/** An errorCode of a rule the SDK checks before sending (2150, 2151, 3005 to 3009). */
export type ClientRuleCode = (typeof CLIENT_RULE_CODES)[number];

/** How inputs are checked: every rule, or every rule but those in `skip`. */
export interface ValidateOptions {
  /**
   * Client-side rules not to check, by errorCode, e.g. `[ErrorCode.DeliveryImagesRequired]`.
   * The service still applies its own rules, and its refusal still maps to the coded class.
   */
  readonly skip?: readonly ClientRuleCode[] | undefined;
}

/**
 * The `validate` option of the client and of a call: `true` (the default) checks every rule,
 * `false` none, and `{ skip }` every rule but the ones named.
 */
export type ValidateSetting = boolean | ValidateOptions;
