import { ConfigurationError } from '../errors/base.js';
import { constantTimeEqual, isHeaderName } from '../internal/guards.js';

/**
 * The header the service sends with every webhook: the authorization key name and value set in
 * the dashboard (Settings, API Integration), or one entry of an order's `webhookCustomHeaders`.
 */
export interface WebhookAuth {
  /** Header name, any case (`X-Webhook-Key` matches `x-webhook-key`). */
  readonly name: string;
  /** The exact value expected: visible ASCII, with spaces only inside (what an HTTP header can carry). */
  readonly value: string;
}

/** Request headers as Fetch (`Headers`) or Node (`req.headers`) give them. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** What `read` gives; a ConfigurationError naming `what` when reading the caller's argument throws (a getter, a Proxy, undefined headers). */
export function readArgument<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (cause) {
    throw new ConfigurationError(`${what}: unreadable`, { cause });
  }
}

export interface ExpectedHeader {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/**
 * Checks the auth options once, when a handler is set up, so a mistake fails at start-up and
 * not on the first webhook. The spec: name and value are entered together, never one alone.
 */
export function compileWebhookAuth(auth: WebhookAuth, where = 'auth'): ExpectedHeader {
  const { name, value } = readArgument(where, (): { name?: unknown; value?: unknown } => ({ ...auth }));
  const hasName = typeof name === 'string' && name !== '';
  const hasValue = typeof value === 'string' && value !== '';
  if (typeof name !== 'string' || typeof value !== 'string' || !hasName || !hasValue) {
    const problem = hasName ? 'a header name without a value' : hasValue ? 'a header value without a name' : 'neither a header name nor a value';
    throw new ConfigurationError(`${where}: ${problem}; give both, or omit ${where}`);
  }
  if (!isHeaderName(name)) throw new ConfigurationError(`${where}.name: ${JSON.stringify(name)} is not a valid HTTP header name`);
  if (value.trim() !== value) throw new ConfigurationError(`${where}.value: has spaces at its ends`);
  const outside = /[^\x20-\x7e\t]/u.exec(value);
  if (outside !== null) {
    // Fetch refuses such a header and Node reads its bytes as Latin-1: the comparison could only
    // fail. The value is a secret, so the message names the position, not the text around it.
    const code = outside[0].codePointAt(0) ?? 0;
    throw new ConfigurationError(`${where}.value: U+${code.toString(16).toUpperCase().padStart(4, '0')} at position ${outside.index + 1} is not visible ASCII`);
  }
  return { name: name.toLowerCase(), bytes: new TextEncoder().encode(value) };
}

/** Whether the headers carry the expected value; the value comparison takes the same time wherever it differs. */
export function headersMatch(headers: WebhookHeaders, expected: ExpectedHeader): boolean {
  return constantTimeEqual(new TextEncoder().encode(headerValue(headers, expected.name) ?? ''), expected.bytes);
}

/**
 * Whether a webhook request carries the configured authorization header: header names compare
 * case-insensitively, the value in constant time (a wrong guess takes as long however many of its
 * first characters are right).
 *
 * @throws `ConfigurationError` when `auth` has a name without a value or a value without a name, or
 * a value no HTTP header can carry (outside visible ASCII, or with surrounding spaces).
 *
 * @example
 * ```ts
 * const auth = { name: 'X-Webhook-Key', value: process.env.WEBHOOK_KEY! };
 * if (!verifyWebhookHeaders(request.headers, auth)) return new Response(null, { status: 401 });
 * ```
 */
export function verifyWebhookHeaders(headers: WebhookHeaders, auth: WebhookAuth): boolean {
  const expected = compileWebhookAuth(auth);
  return readArgument('headers', () => headersMatch(headers, expected));
}

function headerValue(headers: WebhookHeaders, lowerName: string): string | undefined {
  // Duck-typed, so a `Headers` of another realm or polyfill counts too.
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(lowerName) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() !== lowerName) continue;
    const value = record[key];
    // A repeated header reads as Fetch's `Headers.get` would join it.
    return typeof value === 'string' ? value.trim() : Array.isArray(value) ? value.map((part: string) => part.trim()).join(', ') : undefined;
  }
  return undefined;
}
