/** An order as the service answers it: created, or read back. */
import type { DeliveryState } from '../../catalogue/states.js';
import { ResponseShapeError } from '../../errors/index.js';
import { asRecord, idString, isRecord } from '../../internal/guards.js';
import { createdRecord } from '../answers.js';
import type { AnswerContext } from '../endpoint.js';

/**
 * A created order. The spec does not show the answer: `_id` and `trackingNumber` are always
 * there (as strings, even when the service sends a number); the other fields are what the
 * service is known to send, and any field it adds is kept.
 */
export interface CreatedDelivery {
  _id: string;
  trackingNumber: string;
  /** As created: 10, 15, 25, 30, `'FXF_SEND'` or `'CUSTOMER_RETURN_PICKUP'`. */
  type?: number | string;
  /** The state it starts in: 10 Pickup requested (11 Waiting for route for Cash Collection). */
  state?: { code?: number; value?: string; [field: string]: unknown };
  cod?: number;
  businessReference?: string;
  createdAt?: string;
  [field: string]: unknown;
}

/** Reads a created order; a `ResponseShapeError` when `_id` or `trackingNumber` is missing (the order may exist). */
export function createdDelivery(data: unknown, context: AnswerContext): CreatedDelivery {
  return createdRecord(data, context, ['_id', 'trackingNumber']) as CreatedDelivery;
}

/** A place of a read address (`city`, `zone`, `district`): its name, and whatever else the service sends. */
export interface NamedPlace {
  name?: string | undefined;
  _id?: string | undefined;
  [field: string]: unknown;
}

/** An address as the service answers it: places as `{ name }` objects, lines as given. */
export interface DeliveryAddressRecord {
  city?: NamedPlace | undefined;
  zone?: NamedPlace | undefined;
  district?: NamedPlace | undefined;
  firstLine?: string | undefined;
  secondLine?: string | undefined;
  buildingNumber?: string | number | undefined;
  floor?: string | number | undefined;
  apartment?: string | number | undefined;
  [field: string]: unknown;
}

/** `receiver` of a read order. */
export interface ReceiverRecord {
  firstName?: string | undefined;
  lastName?: string | undefined;
  fullName?: string | undefined;
  phone?: string | undefined;
  secondPhone?: string | undefined;
  [field: string]: unknown;
}

/** One step of an order's `timeline`. */
export interface TimelineStep {
  value?: string | undefined;
  /** As the service writes it (not parsed). */
  date?: string | undefined;
  done?: boolean | undefined;
  nextAction?: string | undefined;
  [field: string]: unknown;
}

/**
 * An order as `deliveries.get`, `search` and `list` read it. `_id` and `trackingNumber` are always
 * there (an answer without them is a `ResponseShapeError`); every other field may be missing; any
 * field the service adds is kept. Dates are the strings the service sends (`updatedAt` has been
 * seen as `Date#toString()` text, not ISO), never parsed.
 */
export interface DeliveryRecord {
  /** The order's id: what `update` and `terminate` take, as the tracking number is. */
  _id: string;
  trackingNumber: string;
  /**
   * Read `state.code`, not `state.value`: the text reads "Delivered" for both 45 (Delivered) and
   * 46 (Returned to business). `code` is a {@link DeliveryState} or a code the SDK does not know yet.
   * Optional, as the integrations read it (`order.state?.code`): none of them holds that every
   * answer carries it (docs/assumptions.md).
   */
  state?: { code: DeliveryState | (number & {}); value?: string | undefined; [field: string]: unknown } | undefined;
  maskedState?: string | undefined;
  /** `value` is "Send" here where webhooks say "SEND": compare `code`. */
  type?: { code?: number | string | undefined; value?: string | undefined; [field: string]: unknown } | undefined;
  cod?: number | undefined;
  businessReference?: string | undefined;
  receiver?: ReceiverRecord | undefined;
  dropOffAddress?: DeliveryAddressRecord | undefined;
  pickupAddress?: DeliveryAddressRecord | undefined;
  pickupRequestId?: string | undefined;
  timeline?: TimelineStep[] | undefined;
  deliveryAttemptsLength?: number | undefined;
  outboundActionsCount?: number | undefined;
  createdAt?: string | undefined;
  updatedAt?: string | undefined;
  [field: string]: unknown;
}

/** `{ code }` from what the service sends: an object with a numeric code (a numeric string is read as a number), or a bare code. */
function codeRecord(value: unknown): Record<string, unknown> | undefined {
  if (isRecord(value)) {
    const code = value['code'];
    return typeof code === 'string' && /^\d+$/.test(code) ? { ...value, code: Number(code) } : value;
  }
  if (typeof value === 'number') return { code: value };
  return undefined;
}

/**
 * Reads one order leniently: ids as strings (tracking numbers arrive as JSON numbers too), `state`
 * and `type` as `{ code, value }` objects, every other field as sent. An order without `_id` or
 * `trackingNumber` is a `ResponseShapeError`: no call could act on it, and a record that looks
 * whole but is not would be counted or changed as another.
 */
export function deliveryRecord(data: unknown, context: Pick<AnswerContext, 'status' | 'request'>): DeliveryRecord {
  const record = asRecord(data);
  const out: Record<string, unknown> = { ...record };
  const missing: string[] = [];
  for (const field of ['_id', 'trackingNumber'] as const) {
    const text = idString(record[field]);
    if (text === undefined) missing.push(field);
    else out[field] = text;
  }
  if (missing.length > 0) {
    const { method, url } = context.request;
    throw new ResponseShapeError(`${method} ${url} answered ${context.status} with an order without ${missing.join(' and ')}`, context);
  }
  for (const field of ['state', 'type'] as const) {
    const value = codeRecord(record[field]);
    if (value !== undefined) out[field] = value;
  }
  return out as DeliveryRecord;
}
