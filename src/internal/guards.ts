/**
 * The guards: plain checks on values the SDK did not build (answers, inputs, headers, options),
 * and how a message shows such a value. Their one home: the transport, the schemas, the
 * operations, the webhooks and the sandbox all import them from here.
 */

export function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  try {
    return !Array.isArray(value);
  } catch {
    // A revoked Proxy: nothing can be read from it, so it is no record.
    return false;
  }
}

/** A string with something other than whitespace in it. */
export function isFilled(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** An answer's object, or an empty one when the service answered something else (lenient parsing). */
export function asRecord(data: unknown): Record<string, unknown> {
  return isRecord(data) ? data : {};
}

/**
 * An id or tracking number as a string: the service has been seen sending tracking numbers as JSON
 * numbers. Past 2^53 JSON.parse has already changed the digits: better no id than the wrong one.
 */
export function idString(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  return Number.isSafeInteger(value) && (value as number) >= 0 ? String(value) : undefined;
}

// RFC 9110 token: the characters a header name may have.
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE_BREAK = /[\r\n\u0000]/;

export function isHeaderName(value: string): boolean {
  return HEADER_TOKEN.test(value);
}

/** A header value that cannot split the header block (no CR, LF or NUL). */
export function isSafeHeaderValue(value: string): boolean {
  return !HEADER_VALUE_BREAK.test(value);
}

/**
 * A value as a message shows it: a primitive as written (a string quoted and cut at 40
 * characters), anything else by its kind. Never throws: `String()` does for an object without a
 * prototype, a Symbol does in a template.
 */
export function shown(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}...` : value}'`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' || value === undefined || value === null) return String(value);
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'function') return 'a function';
  try {
    return Array.isArray(value) ? 'an array' : 'an object';
  } catch {
    // Array.isArray throws on a revoked Proxy, and only on one.
    return 'a revoked Proxy';
  }
}

/** XOR of every byte over the longer length, lengths folded in: no early exit. */
export function constantTimeEqual(actual: Uint8Array, expected: Uint8Array): boolean {
  const length = Math.max(actual.length, expected.length);
  let difference = actual.length ^ expected.length;
  for (let i = 0; i < length; i++) difference |= (actual[i] ?? 0) ^ (expected[i] ?? 0);
  return difference === 0;
}

/**
 * Whether `value` has a tracking number's shape: 4 to 15 digits, as every answer, webhook and
 * integration seen carries them. What telemetry records as `delivery.tracking_number`, and
 * nothing else: not a key a caller passed in its place (`get(apiKey)`), nor a sender's text.
 */
export const isTrackingNumber = (value: unknown): value is string => typeof value === 'string' && /^\d{4,15}$/.test(value);
