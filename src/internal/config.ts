import type { Hooks } from 'ky';
import type { CallOptions, ClientHooks, TransportOptions } from '../core/options.js';
import type { DeliveryTelemetry } from '../core/telemetry.js';
import { ConfigurationError } from '../errors/index.js';
import { isHeaderName, isSafeHeaderValue, shown } from './guards.js';
import { LOG_LEVELS, log } from './log.js';
import { secretsOf } from './redaction.js';
import { guarded } from './telemetry-guard.js';

/** The default `maxResponseBytes`: 10 MB. */
const DEFAULT_MAX_RESPONSE_BYTES = 10 * 2 ** 20;

/** The client's options checked, defaulted and ready: the auth header built into `headers`. */
export type ResolvedConfig = Readonly<ReturnType<typeof configFrom>>;

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
    throw new ConfigurationError(`DeliveryClient \`baseUrl\`: expected https, received ${url.protocol}.`);
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
function checkHeaders(headers: Record<string, string>, where: string): void {
  if (typeof headers !== 'object' || headers === null) throw new ConfigurationError(`${where}: expected an object, received ${shown(headers)}.`);
  for (const [name, value] of Object.entries(headers)) {
    if (!isHeaderName(name)) throw new ConfigurationError(`${where}: ${JSON.stringify(name)} is not a valid header name.`);
    if (typeof value !== 'string' || !isSafeHeaderValue(value)) {
      throw new ConfigurationError(`${where}: header "${name}": expected a string without CR, LF or NUL (not shown).`);
    }
  }
}

function nonNegative(value: number | undefined, fallback: number, name: string, owner = 'DeliveryClient'): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= 0)) throw new ConfigurationError(`${owner} \`${name}\`: expected a number >= 0, received ${shown(value)}.`);
  return value;
}

/**
 * A call's options read once into an object of the SDK's own, then checked: a getter that throws
 * (or answers differently the second time) cannot reach the transport. Refuses a value that would
 * misbehave quietly: a `timeout` of `'5s'` times out at once, and a `signal` that is no AbortSignal
 * would make fetch fail (and retry).
 */
export function callOptionsOf(options: unknown): CallOptions {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') throw new ConfigurationError(`Request options: expected an object, received ${shown(options)}.`);
  let own: CallOptions;
  try {
    own = { ...options };
    if (typeof own.headers === 'object' && own.headers !== null) own.headers = { ...own.headers };
  } catch (cause) {
    throw new ConfigurationError('Request options could not be read.', { cause });
  }
  for (const name of ['timeout', 'totalTimeout', 'maxRetries', 'maxResponseBytes'] as const) nonNegative(own[name], 0, name, 'Request option');
  const { signal, headers, apiKey } = own;
  if (headers !== undefined) checkHeaders(headers, 'Request `headers`');
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey === '' || !isSafeHeaderValue(apiKey)))
    throw new ConfigurationError('Request option `apiKey`: expected a non-empty string without CR, LF or NUL (not shown).');
  if (
    signal !== undefined &&
    (typeof signal !== 'object' || signal === null || typeof signal.addEventListener !== 'function' || typeof signal.aborted !== 'boolean')
  ) {
    throw new ConfigurationError(`Request option \`signal\`: expected an AbortSignal, received ${shown(signal)}.`);
  }
  return own;
}

/**
 * The client's options checked, defaulted and ready. A `ConfigurationError` for any mistake,
 * including options that cannot be read (a getter that throws, a revoked Proxy).
 */
export function resolveConfig(options: TransportOptions) {
  if (options === null || typeof options !== 'object') {
    throw new ConfigurationError('DeliveryClient needs an options object with at least `baseUrl`.');
  }
  try {
    return configFrom(options);
  } catch (error) {
    throw error instanceof ConfigurationError ? error : new ConfigurationError('DeliveryClient options could not be read.', { cause: error });
  }
}

function configFrom(options: TransportOptions) {
  const baseUrl = parseBaseUrl(options.baseUrl, options.allowInsecureHttp === true);
  const authHeaderName = options.auth?.headerName ?? 'Authorization';
  const scheme = options.auth?.scheme ?? '';
  // An explicit empty key is a mistake (`process.env.KEY ?? ''`), not a wish for public calls only.
  if (options.apiKey === '')
    throw new ConfigurationError('DeliveryClient `apiKey` is empty: pass your API key, or leave `apiKey` out for the public lookup and registration calls.');
  const apiKey = options.apiKey ?? envApiKey();

  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  checkHeaders(headers, 'DeliveryClient `headers`');
  const product = options.userAgent;
  // Refused as a header value would be: what fetch would refuse, or a CR or LF that could split the request.
  if (product !== undefined) checkHeaders({ 'user-agent': product }, 'DeliveryClient `userAgent`');
  if (apiKey !== undefined && apiKey !== '') {
    const value = scheme === '' ? apiKey : `${scheme} ${apiKey}`;
    if (typeof apiKey !== 'string' || !isSafeHeaderValue(value)) {
      // The key itself is never echoed back, not even in this message.
      throw new ConfigurationError('DeliveryClient `apiKey` and `auth.scheme`: expected strings without CR, LF or NUL (not shown).');
    }
    if (!isHeaderName(authHeaderName))
      throw new ConfigurationError(`DeliveryClient \`auth.headerName\` ${JSON.stringify(authHeaderName)} is not a valid header name.`);
    headers[authHeaderName] = value;
  }

  const fetchImpl = options.fetch;
  if (fetchImpl === undefined && typeof globalThis.fetch !== 'function')
    throw new ConfigurationError('No fetch implementation: pass `fetch` to DeliveryClient.');
  if (fetchImpl !== undefined && typeof fetchImpl !== 'function')
    throw new ConfigurationError(`DeliveryClient \`fetch\`: expected a function, received ${shown(fetchImpl)}.`);

  const logLevel = options.logLevel ?? 'info';
  if (!(logLevel in LOG_LEVELS))
    throw new ConfigurationError(`DeliveryClient \`logLevel\`: expected one of ${Object.keys(LOG_LEVELS).join(', ')}, received ${shown(logLevel)}.`);
  const logThreshold = LOG_LEVELS[logLevel];
  // Not refused: a proxy may mount the API at a path of its own. But on the service itself every
  // call would answer 404, so say it where the developer looks.
  if (!/\/v2$/.test(baseUrl)) {
    log(
      { logger: options.logger, logThreshold },
      'warn',
      `DeliveryClient \`baseUrl\` ${baseUrl} does not end in /v2: calls answer 404 unless a proxy adds it.`,
    );
  }

  return {
    baseUrl,
    /** Headers of every request, auth included; shared, never mutated. */
    headers: headers as Readonly<Record<string, string>>,
    authHeaderName,
    /** What precedes the key in its header (`auth.scheme`), '' for the raw key. */
    authScheme: scheme,
    /** Product tokens after the SDK's User-Agent (`userAgent`), where one is sent (internal/user-agent.ts). */
    userAgent: product,
    /** Whether the key goes to the public lookups too (`auth.sendToPublicEndpoints`). */
    keyForPublicEndpoints: options.auth?.sendToPublicEndpoints === true,
    timeout: nonNegative(options.timeout, 30_000, 'timeout'),
    totalTimeout: nonNegative(options.totalTimeout, 120_000, 'totalTimeout'),
    maxRetries: Math.floor(nonNegative(options.maxRetries, 2, 'maxRetries')),
    retryBase: nonNegative(options.retryDelay?.base, 500, 'retryDelay.base'),
    retryMax: nonNegative(options.retryDelay?.max, 8_000, 'retryDelay.max'),
    fetch: fetchImpl,
    maxResponseBytes: nonNegative(options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, 'maxResponseBytes'),
    /** The key and the values of the client's headers off the allow-list, scrubbed from whatever the SDK builds out of an answer. */
    secrets: secretsOf(headers, authHeaderName, apiKey === undefined ? [] : [apiKey]),
    /** Milliseconds lookup answers are kept; `false` when the lookup cache is off. */
    lookupCacheTtl: options.cache === false ? (false as const) : nonNegative(options.cache?.ttl, 3_600_000, 'cache.ttl'),
    hooks: options.hooks ?? ({} as ClientHooks),
    kyHooks: options.kyHooks ?? ({} as Hooks),
    logger: options.logger,
    logThreshold,
    /** Told of every call (`telemetry`); undefined when off, and then nothing is spent on it. */
    telemetry: options.telemetry === undefined ? undefined : guarded(telemetryOption(options.telemetry)),
  };
}

/** The `telemetry` option of a client or a webhook handler, checked to be an object. */
export function telemetryOption(telemetry: unknown): DeliveryTelemetry {
  if (Object(telemetry) !== telemetry) throw new ConfigurationError('telemetry: expected an object such as openTelemetry() makes');
  return telemetry as DeliveryTelemetry;
}
