import { describeException } from '../catalogue/exceptions.js';
import { WebhookOrderType } from '../catalogue/order-types.js';
import { isKnownState } from '../catalogue/states.js';
import { idString, shown } from '../internal/guards.js';
import { WebhookPayloadError } from './errors.js';
import type { WebhookEvent, WebhookIssue } from './event.js';

type Body = Readonly<Record<string, unknown>>;

let knownTypes: ReadonlySet<string> | undefined;
const isKnownType = (type: string): boolean => (knownTypes ??= new Set<string>(Object.values(WebhookOrderType))).has(type);

/**
 * Reads one state-change webhook (spec, Events 3) into a typed {@link WebhookEvent}.
 *
 * Takes the body as an object (a framework already parsed it), a JSON string, or bytes
 * (`Uint8Array`, `ArrayBuffer`, Node's `Buffer`). Only `_id`, `trackingNumber` and `state` are
 * required: a state change must never be lost to strictness, since the service would re-send a
 * refused webhook forever, or drop it. Any other field that cannot be read as the spec has it
 * (a state-47 body without `exceptionCode`, a `deliveryPromiseDate` in another format) is left
 * out of the event and listed in `issues`; `raw` always keeps the body as sent. A state or type
 * the SDK does not know is kept and flagged `known: false`. `trackingNumber` is always a string.
 * `deliveryPromiseDay` is `deliveryPromiseDate` (DD-MM-YYYY, or ISO) as a `Date` at midnight UTC.
 *
 * @throws `WebhookPayloadError` only when the body is not a JSON object, or lacks `_id`,
 * `trackingNumber` or `state`; `err.field` names the field. Never any other error.
 *
 * @example
 * ```ts
 * const event = parseWebhookEvent(await request.text());
 * if (event.issues !== undefined) console.warn('webhook fields not read', event.issues, event.raw);
 * switch (event.state) {
 *   case DeliveryState.Delivered: await markPaid(event.trackingNumber, event.cod); break;
 *   case DeliveryState.Exception: await warn(event.businessReference, event.exceptionReason); break;
 * }
 * ```
 */
export function parseWebhookEvent(body: unknown): WebhookEvent {
  try {
    return readEvent(toRecord(body));
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
    throw new WebhookPayloadError(`expected a JSON object, received ${shown(value)}`);
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

/** Reads the optional fields of one body, noting each one that was sent but could not be read. */
class FieldReader {
  readonly issues: WebhookIssue[] = [];

  constructor(private readonly body: Body) {}

  /** The field read by `read`, or `undefined` when absent (`null` too: some senders write every field) or unreadable. */
  optional<T>(field: string, expected: string, read: (value: unknown) => T | undefined): T | undefined {
    const value = own(this.body, field);
    if (value === undefined || value === null) return undefined;
    const typed = read(value);
    if (typed === undefined) this.flag(field, `expected ${expected}, received ${shown(value)}`);
    return typed;
  }

  flag(field: string, message: string): void {
    this.issues.push({ field, message });
  }
}

function readEvent(body: Body): WebhookEvent {
  const event: Record<string, unknown> = {
    _id: required(body, '_id', 'the order id, a string', idString),
    trackingNumber: required(body, 'trackingNumber', 'a string or a whole number below 2^53', idString),
    state: required(body, 'state', 'a state code, a whole number', wholeNumber),
  };
  const state = event['state'] as number;
  const fields = new FieldReader(body);
  const set = (field: string, value: unknown): void => {
    if (value !== undefined) event[field] = value;
  };
  const type = fields.optional('type', 'an order type string', text);
  set('type', type);
  set('timeStamp', fields.optional('timeStamp', 'epoch milliseconds', epochMillis));
  set(
    'isConfirmedDelivery',
    fields.optional('isConfirmedDelivery', 'a boolean', (value) => (typeof value === 'boolean' ? value : undefined)),
  );
  const promised = fields.optional('deliveryPromiseDate', 'a date string', (value) => (typeof value === 'string' ? value : undefined));
  if (promised !== undefined) {
    event['deliveryPromiseDate'] = promised;
    const day = promiseDay(promised);
    if (day === undefined) fields.flag('deliveryPromiseDate', `expected a date as DD-MM-YYYY or YYYY-MM-DD, received ${JSON.stringify(promised.slice(0, 40))}`);
    set('deliveryPromiseDay', day);
  }
  set(
    'businessReference',
    fields.optional('businessReference', 'a string', (value) => (typeof value === 'string' ? value : idString(value))),
  );
  set('numberOfAttempts', fields.optional('numberOfAttempts', 'a whole number', wholeNumber));
  if (state === 45) {
    // A delivery without cash on delivery collects nothing: the spec promises `cod` in 45.
    event['cod'] = fields.optional('cod', 'an amount, a number', amount) ?? 0;
  } else if (state === 47) {
    const code = fields.optional('exceptionCode', 'an exception code, a whole number', wholeNumber);
    set('exceptionCode', code);
    event['exceptionReason'] = fields.optional('exceptionReason', 'a string', text) ?? describeException(code).reason;
  }
  const stateKnown = isKnownState(state);
  const typeKnown = type !== undefined && isKnownType(type);
  event['stateKnown'] = stateKnown;
  event['typeKnown'] = typeKnown;
  event['known'] = stateKnown && typeKnown;
  event['raw'] = body;
  if (fields.issues.length > 0) event['issues'] = fields.issues;
  return event as unknown as WebhookEvent;
}

/** What places an event in its order's history: its `trackingNumber` and what tells it from the order's other events. */
export interface Placement {
  readonly trackingNumber: string;
  readonly state: number;
  readonly type?: string | undefined;
  readonly timeStamp?: number | undefined;
  readonly exceptionCode?: number | undefined;
}

/**
 * Those fields of the JSON text `body`, read exactly as {@link parseWebhookEvent} reads them, and
 * nothing else: the order tracker checks with it that a body it stores says what its event says,
 * at a fraction of a whole parse. A body parseWebhookEvent refuses is refused the same way.
 */
export function placementOf(body: string): Placement {
  let record: unknown;
  try {
    record = JSON.parse(body);
  } catch {
    return parseWebhookEvent(body);
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return parseWebhookEvent(body);
  const read = <T>(field: string, reader: (value: unknown) => T | undefined): T | undefined => {
    const value = own(record as Body, field);
    return value === undefined || value === null ? undefined : reader(value);
  };
  const trackingNumber = idString(own(record as Body, 'trackingNumber'));
  const state = wholeNumber(own(record as Body, 'state'));
  // Without these parseWebhookEvent throws: its error, word for word.
  if (trackingNumber === undefined || state === undefined || idString(own(record as Body, '_id')) === undefined) return parseWebhookEvent(body);
  return {
    trackingNumber,
    state,
    type: read('type', text),
    timeStamp: read('timeStamp', epochMillis),
    exceptionCode: state === 47 ? read('exceptionCode', wholeNumber) : undefined,
  };
}

function own(body: Body, field: string): unknown {
  // Own properties only: an inherited (polluted) `Object.prototype.state` must not count.
  return Object.hasOwn(body, field) ? body[field] : undefined;
}

/** One of the three fields without which the event cannot be placed: refused when absent or unreadable. */
function required<T>(body: Body, field: string, expected: string, read: (value: unknown) => T | undefined): T {
  const value = own(body, field);
  const typed = read(value);
  if (typed !== undefined) return typed;
  throw new WebhookPayloadError(value === undefined || value === null ? `missing; expected ${expected}` : `expected ${expected}, received ${shown(value)}`, {
    field,
  });
}

const DIGITS = /^\d{1,15}$/;
const NUMBER_TEXT = /^-?\d{1,15}(?:\.\d{1,15})?$/;

/** A whole number of 0 or more, also written as digits (`"47"`). */
function wholeNumber(value: unknown): number | undefined {
  if (Number.isSafeInteger(value) && (value as number) >= 0) return value as number;
  return typeof value === 'string' && DIGITS.test(value.trim()) ? Number(value.trim()) : undefined;
}

/** A finite number, also written as a decimal string (`"1250.50"`). */
function amount(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return typeof value === 'string' && NUMBER_TEXT.test(value.trim()) ? Number(value.trim()) : undefined;
}

/** Epoch milliseconds, also as digits or as an ISO date-time string. */
function epochMillis(value: unknown): number | undefined {
  const number = amount(value);
  if (number !== undefined) return number;
  if (typeof value !== 'string' || !ISO_DATE.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

const PROMISE_DATE = /^(\d{2})-(\d{2})-(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/;

/** The promised day at midnight UTC: DD-MM-YYYY as the spec has it, or an ISO date (its calendar day as written). */
function promiseDay(text: string): Date | undefined {
  const spec = PROMISE_DATE.exec(text.trim());
  if (spec !== null) return utcDay(Number(spec[3]), Number(spec[2]), Number(spec[1]));
  const iso = ISO_DATE.exec(text.trim());
  return iso === null ? undefined : utcDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
}

function utcDay(year: number, month: number, day: number): Date | undefined {
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not read years 0-99 as 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCDate() === day && date.getUTCMonth() === month - 1 ? date : undefined;
}
