import { describeException } from '../catalogue/exceptions.js';
import { WebhookOrderType } from '../catalogue/order-types.js';
import { isKnownState } from '../catalogue/states.js';
import { WebhookPayloadError } from './errors.js';
import type { WebhookEvent } from './event.js';

type Body = Readonly<Record<string, unknown>>;

let knownTypes: ReadonlySet<string> | undefined;
const isKnownType = (type: string): boolean => (knownTypes ??= new Set<string>(Object.values(WebhookOrderType))).has(type);

/**
 * Reads one state-change webhook (spec, Events 3) into a typed {@link WebhookEvent}.
 *
 * Takes the body as an object (a framework already parsed it), a JSON string, or bytes
 * (`Uint8Array`, `ArrayBuffer`, Node's `Buffer`). A state or type the SDK does not know is kept
 * and flagged `known: false`; unknown fields stay in `raw`. `trackingNumber` is always a string.
 * `deliveryPromiseDay` is `deliveryPromiseDate` (DD-MM-YYYY) as a `Date` at midnight UTC.
 *
 * @throws {WebhookPayloadError} when the body is not a JSON object, or a field is missing or of
 * the wrong type; `err.field` names it. Never any other error.
 *
 * @example
 * ```ts
 * const event = parseWebhookEvent(await request.text());
 * switch (event.state) {
 *   case DeliveryState.Delivered: await markPaid(event.trackingNumber, event.cod); break;
 *   case DeliveryState.Exception: await warn(event.businessReference, describeException(event.exceptionCode).reason); break;
 * }
 * ```
 */
export function parseWebhookEvent(body: unknown): WebhookEvent {
  const record = toRecord(body);
  try {
    return readEvent(record);
  } catch (err) {
    // A getter or proxy of a caller's object may throw anything; callers catch one error type.
    if (err instanceof WebhookPayloadError) throw err;
    throw new WebhookPayloadError('the body could not be read', { cause: err });
  }
}

function toRecord(body: unknown): Body {
  let value = body;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) value = decodeUtf8(value);
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch (err) {
      throw new WebhookPayloadError('not valid JSON', { cause: err });
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new WebhookPayloadError(`expected a JSON object, received ${describe(value)}`);
  }
  return value as Body;
}

function decodeUtf8(bytes: ArrayBuffer | ArrayBufferView): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (err) {
    throw new WebhookPayloadError('not valid UTF-8', { cause: err });
  }
}

function readEvent(body: Body): WebhookEvent {
  const state = read(body, 'state', 'a state code, a whole number', isCode);
  const type = read(body, 'type', 'an order type string', isText);
  const typeKnown = isKnownType(type);
  const stateKnown = isKnownState(state);
  const event: Record<string, unknown> = {
    _id: read(body, '_id', 'the order id string', isText),
    trackingNumber: readTrackingNumber(body),
    state,
    type,
    timeStamp: read(body, 'timeStamp', 'epoch milliseconds', isFiniteNumber),
  };
  optional(body, event, 'isConfirmedDelivery', 'a boolean', isBoolean);
  const promised = optional(body, event, 'deliveryPromiseDate', 'a DD-MM-YYYY date string', isString);
  if (promised !== undefined) event['deliveryPromiseDay'] = parsePromiseDate(promised);
  optional(body, event, 'businessReference', 'a string', isString);
  optional(body, event, 'numberOfAttempts', 'a whole number', isCount);
  if (state === 45) {
    // A delivery without cash on delivery collects nothing: the spec promises `cod` in 45.
    event['cod'] = optionalValue(body, 'cod', 'an amount, a number', isFiniteNumber) ?? 0;
  } else if (state === 47) {
    const code = read(body, 'exceptionCode', 'an exception code, a whole number', isCode);
    event['exceptionCode'] = code;
    event['exceptionReason'] = optionalValue(body, 'exceptionReason', 'a string', isString) ?? describeException(code).reason;
  }
  event['stateKnown'] = stateKnown;
  event['typeKnown'] = typeKnown;
  event['known'] = stateKnown && typeKnown;
  event['raw'] = body;
  return event as unknown as WebhookEvent;
}

function own(body: Body, field: string): unknown {
  // Own properties only: an inherited (polluted) `Object.prototype.state` must not count.
  return Object.prototype.hasOwnProperty.call(body, field) ? body[field] : undefined;
}

function read<T>(body: Body, field: string, expected: string, accepts: (value: unknown) => value is T): T {
  const value = own(body, field);
  if (accepts(value)) return value;
  throw new WebhookPayloadError(value === undefined || value === null ? `missing; expected ${expected}` : `expected ${expected}, received ${describe(value)}`, { field });
}

/** `null` counts as absent: some senders write every optional field. */
function optionalValue<T>(body: Body, field: string, expected: string, accepts: (value: unknown) => value is T): T | undefined {
  const value = own(body, field);
  return value === undefined || value === null ? undefined : read(body, field, expected, accepts);
}

function optional<T>(body: Body, event: Record<string, unknown>, field: string, expected: string, accepts: (value: unknown) => value is T): T | undefined {
  const value = optionalValue(body, field, expected, accepts);
  if (value !== undefined) event[field] = value;
  return value;
}

function readTrackingNumber(body: Body): string {
  const value = own(body, 'trackingNumber');
  if (isText(value)) return value;
  if (typeof value === 'number') {
    // Past 2^53 JSON.parse has already changed the digits: better refuse than track the wrong order.
    if (Number.isSafeInteger(value) && value >= 0) return String(value);
    throw new WebhookPayloadError(`a number must be a whole number below 2^53 (send larger ones as strings), received ${value}`, { field: 'trackingNumber' });
  }
  return read(body, 'trackingNumber', 'a string or a whole number', isText);
}

const PROMISE_DATE = /^(\d{2})-(\d{2})-(\d{4})$/;

function parsePromiseDate(text: string): Date {
  const match = PROMISE_DATE.exec(text);
  if (match !== null) {
    const day = Number(match[1]);
    const month = Number(match[2]) - 1;
    const year = Number(match[3]);
    const date = new Date(0);
    // setUTCFullYear, unlike Date.UTC, does not read years 0-99 as 1900-1999.
    date.setUTCFullYear(year, month, day);
    if (date.getUTCDate() === day && date.getUTCMonth() === month) return date;
  }
  throw new WebhookPayloadError(`expected a date as DD-MM-YYYY, received ${JSON.stringify(text.slice(0, 40))}`, { field: 'deliveryPromiseDate' });
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isCode = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isCount = isCode;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (typeof value === 'number' || typeof value === 'string') return `${typeof value} ${JSON.stringify(value).slice(0, 40)}`;
  return typeof value;
}
