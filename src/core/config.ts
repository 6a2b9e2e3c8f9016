import type { Hooks } from 'ky';
import { ConfigurationError } from '../errors/index.js';
import { isHeaderName, isSafeHeaderValue } from '../schemas/predicates.js';
import { rulesToSkip, type ValidateOptions, type ValidateSetting } from '../schemas/rules-off.js';
import { LOG_LEVELS, type Logger, type LogLevel } from './logger.js';
import { secretsOf } from './secrets.js';

/** The default `maxResponseBytes`: 10 MB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 2 ** 20;

/** Observation points for metrics and tracing. Hooks see no secrets: the auth header and credential-like headers are redacted. */
export interface ClientHooks {
  /** Before each attempt is sent. */
  onRequest?(event: { method: string; url: string; attempt: number; headers: Record<string, string> }): void;
  /** After each attempt is answered, whatever the status. */
  onResponse?(event: { method: string; url: string; attempt: number; status: number; durationMs: number }): void;
  /** Before waiting for a retry. */
  onRetry?(event: { method: string; url: string; attempt: number; delayMs: number; error: Error }): void;
  /** When a call fails for good. */
  onError?(event: { method: string; url: string; error: Error }): void;
}

/** Options of {@link DeliveryClient}. */
export interface DeliveryClientOptions {
  /**
   * Base address of the API, ending in the version segment, e.g. `https://api.example.com/v2`.
   * `http://` is refused unless the host is loopback or `allowInsecureHttp` is set.
   */
  baseUrl: string;
  /** The API key. Defaults to the `DELIVERY_API_KEY` environment variable where `process` exists. Lookup and registration work without one. */
  apiKey?: string | undefined;
  /** How the key is sent. Default: `{ headerName: 'Authorization', scheme: '' }`, i.e. `Authorization: <apiKey>`. */
  auth?: { headerName?: string; scheme?: string } | undefined;
  /** Milliseconds one attempt may take to answer (ky's `timeout`); `totalTimeout` bounds the body too. Default 30000. */
  timeout?: number | undefined;
  /** Milliseconds all attempts of one call may take together, waits included. Default 120000. */
  totalTimeout?: number | undefined;
  /** Retries after the first attempt, where retrying is safe (see docs/reliability.md). Default 2. */
  maxRetries?: number | undefined;
  /** Backoff between retries: full jitter over `base * 2^n`, capped at `max` (ms). Default `{ base: 500, max: 8000 }`. */
  retryDelay?: { base?: number; max?: number } | undefined;
  /** A `fetch` implementation, e.g. for a proxy agent or for tests. Default `globalThis.fetch`. */
  fetch?: typeof fetch | undefined;
  /** Headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /**
   * Check inputs against the spec's rules before sending. Default true. `{ skip: [codes] }` checks
   * every rule but those named, e.g. `{ skip: [ErrorCode.DeliveryImagesRequired] }`.
   */
  validate?: ValidateSetting | undefined;
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
  /** Callbacks for metrics and tracing, called for every attempt of every call. */
  hooks?: ClientHooks | undefined;
  /** ky hooks of your own, e.g. a `beforeRequest` that sets a tracing header. They see the auth header; `ky.retry()` bypasses the retry policy. */
  kyHooks?: Hooks | undefined;
  /** Where to log requests, retries and errors (the key is always redacted). */
  logger?: Logger | undefined;
  /** Lowest level logged. Default `'info'` when a logger is given. */
  logLevel?: LogLevel | undefined;
}

/** Options every method takes as its last argument; they override the client's for one call. */
export interface RequestOptions {
  /** Aborts the call (and any wait between retries); the call rejects with `RequestAbortedError`. */
  signal?: AbortSignal | undefined;
  /** Milliseconds one attempt may take to answer (ky's `timeout`). */
  timeout?: number | undefined;
  /** Milliseconds all attempts may take together, waits included. */
  totalTimeout?: number | undefined;
  /** Headers added to this call (they override the client's of the same name). */
  headers?: Record<string, string> | undefined;
  /** Retries after the first attempt, where retrying is safe. */
  maxRetries?: number | undefined;
  /**
   * Replaces the client's `validate` for this call: `false` sends the input unchecked, `{ skip }`
   * leaves out the rules named. The service's own answer still maps to the coded classes.
   */
  validate?: ValidateSetting | undefined;
  /** Largest answer read, in bytes (see the client's `maxResponseBytes`). */
  maxResponseBytes?: number | undefined;
}

/** The client's options checked, defaulted and ready: the auth header built into `headers`. */
export type ResolvedConfig = Readonly<ReturnType<typeof resolveConfig>>;

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function envApiKey(): string | undefined {
  // `process` is absent in browsers and edge workers; the typeof guard keeps this entry portable.
  return typeof process === 'undefined' ? undefined : process.env?.['DELIVERY_API_KEY'];
}

function parseBaseUrl(raw: unknown, allowInsecureHttp: boolean): string {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw new ConfigurationError('DeliveryClient needs `baseUrl`, the API address ending in /v2 (e.g. https://api.example.com/v2).');
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigurationError(`DeliveryClient \`baseUrl\` is not an absolute URL: ${JSON.stringify(raw)}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigurationError(`DeliveryClient \`baseUrl\` must use https (got ${url.protocol}).`);
  }
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname) && !allowInsecureHttp) {
    throw new ConfigurationError(
      `DeliveryClient refuses http://${url.hostname}: the API key would travel unencrypted. Use https, or set allowInsecureHttp on a trusted network.`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigurationError('DeliveryClient `baseUrl` must not carry credentials; pass the key as `apiKey`.');
  }
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}

/** Throws when a header would be refused by fetch or could split a request (CR/LF). */
export function checkHeaders(headers: Record<string, string>, where: string): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!isHeaderName(name)) throw new ConfigurationError(`${where}: ${JSON.stringify(name)} is not a valid header name.`);
    if (typeof value !== 'string' || !isSafeHeaderValue(value)) {
      throw new ConfigurationError(`${where}: the value of header "${name}" must be a string without CR, LF or NUL.`);
    }
  }
}

function nonNegative(value: number | undefined, fallback: number, name: string, owner = 'DeliveryClient'): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= 0)) throw new ConfigurationError(`${owner} \`${name}\` must be a number >= 0.`);
  return value;
}

/** A `validate` option as checked once: `false`, or the rules to leave out; a `ConfigurationError` for an unknown code. */
export function validateSetting(value: ValidateSetting | undefined, where: string): false | ValidateOptions | undefined {
  if (value === undefined) return undefined;
  if (value === false) return false;
  if (value === true) return {};
  return { skip: [...rulesToSkip(value, where)] as ValidateOptions['skip'] };
}

/**
 * Throws when a per-call option has a value that would misbehave quietly: a `timeout` of `'5s'`
 * times out at once, and a `signal` that is no AbortSignal would make fetch fail (and retry).
 */
export function checkRequestOptions(options: RequestOptions): void {
  for (const name of ['timeout', 'totalTimeout', 'maxRetries', 'maxResponseBytes'] as const) nonNegative(options[name], 0, name, 'Request option');
  validateSetting(options.validate, 'Request option `validate`');
  const { signal } = options;
  if (signal !== undefined && (typeof signal !== 'object' || signal === null || typeof signal.addEventListener !== 'function' || typeof signal.aborted !== 'boolean')) {
    throw new ConfigurationError('Request option `signal` must be an AbortSignal.');
  }
}

export function resolveConfig(options: DeliveryClientOptions) {
  if (options === null || typeof options !== 'object') {
    throw new ConfigurationError('DeliveryClient needs an options object with at least `baseUrl`.');
  }
  const baseUrl = parseBaseUrl(options.baseUrl, options.allowInsecureHttp === true);
  const authHeaderName = options.auth?.headerName ?? 'Authorization';
  const scheme = options.auth?.scheme ?? '';
  // An explicit empty key is a mistake (`process.env.KEY ?? ''`), not a wish for public calls only.
  if (options.apiKey === '') throw new ConfigurationError('DeliveryClient `apiKey` is empty: pass your API key, or leave `apiKey` out for the public lookup and registration calls.');
  const apiKey = options.apiKey ?? envApiKey();

  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  checkHeaders(headers, 'DeliveryClient `headers`');
  if (apiKey !== undefined && apiKey !== '') {
    const value = scheme === '' ? apiKey : `${scheme} ${apiKey}`;
    if (typeof apiKey !== 'string' || !isSafeHeaderValue(value)) {
      // The key itself is never echoed back, not even in this message.
      throw new ConfigurationError('DeliveryClient `apiKey` and `auth.scheme` must be strings without CR, LF or NUL.');
    }
    if (!isHeaderName(authHeaderName)) throw new ConfigurationError(`DeliveryClient \`auth.headerName\` ${JSON.stringify(authHeaderName)} is not a valid header name.`);
    headers[authHeaderName] = value;
  }

  const fetchImpl = options.fetch ?? (typeof globalThis.fetch === 'function' ? globalThis.fetch.bind(globalThis) : undefined);
  if (fetchImpl === undefined) throw new ConfigurationError('No fetch implementation: pass `fetch` to DeliveryClient.');

  const logLevel = options.logLevel ?? 'info';
  if (!(logLevel in LOG_LEVELS)) throw new ConfigurationError(`DeliveryClient \`logLevel\` must be one of ${Object.keys(LOG_LEVELS).join(', ')}.`);

  return {
    baseUrl,
    /** Headers of every request, auth included; shared, never mutated. */
    headers: headers as Readonly<Record<string, string>>,
    authHeaderName,
    timeout: nonNegative(options.timeout, 30_000, 'timeout'),
    totalTimeout: nonNegative(options.totalTimeout, 120_000, 'totalTimeout'),
    maxRetries: Math.floor(nonNegative(options.maxRetries, 2, 'maxRetries')),
    retryBase: nonNegative(options.retryDelay?.base, 500, 'retryDelay.base'),
    retryMax: nonNegative(options.retryDelay?.max, 8_000, 'retryDelay.max'),
    fetch: fetchImpl,
    /** `false`: nothing is checked; otherwise the rules to leave out (none by default). */
    validate: (validateSetting(options.validate, 'DeliveryClient `validate`') ?? {}) as false | ValidateOptions,
    maxResponseBytes: nonNegative(options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, 'maxResponseBytes'),
    /** The key and credential header values, scrubbed from whatever the SDK builds out of an answer. */
    secrets: secretsOf(headers, authHeaderName, apiKey),
    /** Milliseconds lookup answers are kept; `false` when the lookup cache is off. */
    lookupCacheTtl: options.cache === false ? (false as const) : nonNegative(options.cache?.ttl, 3_600_000, 'cache.ttl'),
    hooks: options.hooks ?? ({} as ClientHooks),
    kyHooks: options.kyHooks ?? ({} as Hooks),
    logger: options.logger,
    logThreshold: LOG_LEVELS[logLevel],
  };
}
