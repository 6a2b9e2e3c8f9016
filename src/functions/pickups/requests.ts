/** Pickup requests: a courier booked to collect parcels from a pickup location. */

import { ResponseShapeError, ValidationError } from '../../errors/index.js';
import { asRecord, idString, isRecord, shown } from '../../internal/guards.js';
import type { PickupChanges, PickupContact, PickupInput } from '../../schemas/after-create.js';
import { schemaCheck } from '../../schemas/check.js';
import type { PickupDate, PickupTimeSlot } from '../../schemas/pickup-date.js';
import { recordOf } from '../answers.js';
import { type AnswerContext, endpoint } from '../endpoint.js';

/** A pickup request as the service answers it; any field it adds is kept. */
export interface Pickup {
  _id: string;
  /** The short pickup id the dashboard shows. */
  puid?: string | number | undefined;
  /** e.g. `'Requested'`. */
  state?: string | undefined;
  scheduledDate?: string | undefined;
  scheduledTimeSlot?: PickupTimeSlot | (string & {}) | undefined;
  businessLocationId?: string | undefined;
  contactPerson?: Partial<PickupContact> | undefined;
  /** The orders the courier collects. */
  deliveries?: unknown[] | undefined;
  createdAt?: string | undefined;
  [field: string]: unknown;
}

/** One page of `pickups.list`. */
export interface PickupList {
  pickups: Pickup[];
  count: number | undefined;
  [field: string]: unknown;
}

/** Filter of `pickups.list`, sent as the query (`page`, `limit`, ...). */
export type PickupListQuery = Record<string, string | number | boolean | undefined>;

function pickupOf(data: unknown, context: AnswerContext): Pickup {
  const record = asRecord(data);
  const id = idString(record['_id']);
  if (id === undefined) {
    const { method, url } = context.request;
    throw new ResponseShapeError(`${method} ${url} answered ${context.status} without the pickup's _id`, context);
  }
  return { ...record, _id: id };
}

function pickupListOf(data: unknown, context: AnswerContext): PickupList {
  const record = isRecord(data) ? data : { pickups: data };
  const list = record['pickups'] ?? record['list'];
  if (!Array.isArray(list)) {
    const { method, url } = context.request;
    throw new ResponseShapeError(`${method} ${url} answered ${context.status} without a pickups list`, context);
  }
  const count = typeof record['count'] === 'number' ? record['count'] : undefined;
  return { ...record, pickups: list.map((entry) => ({ ...asRecord(entry), _id: idString(asRecord(entry)['_id']) ?? '' })), count };
}

/**
 * Books a courier to collect parcels (`POST /pickups`). `scheduledDate` is checked to be a
 * calendar date `YYYY-MM-DD` before sending; Fridays, holidays, past dates and a passed cut-off
 * are the service's to refuse, with the codes of `PickupErrorCode`.
 *
 * @chunk pickups
 *
 * @example
 * ```ts
 * const [date] = await client.pickups.availableDates({ days: 7 });
 * const pickup = await client.pickups.create({
 *   businessLocationId: locationId,
 *   scheduledDate: date ?? '2026-03-15',
 *   scheduledTimeSlot: '10:00 to 13:00',
 *   contactPerson: { name: 'Omar Said', phone: '01098765432' },
 *   numberOfParcels: 12,
 * });
 * console.log(pickup._id, pickup.state);
 * ```
 */
export const createPickup = /* @__PURE__ */ endpoint<[pickup: PickupInput], Pickup>({
  name: 'pickups.create',
  method: 'POST',
  route: '/pickups',
  check: schemaCheck('checkPickup'),
  answer: pickupOf,
});

/**
 * One pickup request (`GET /pickups/{id}`).
 *
 * @chunk pickups
 *
 * @example
 * ```ts
 * const { state, scheduledDate } = await client.pickups.get(pickupId);
 * ```
 */
export const getPickup = /* @__PURE__ */ endpoint<[pickupId: string], Pickup>({
  name: 'pickups.get',
  method: 'GET',
  route: '/pickups/{pickupId}',
  answer: pickupOf,
});

/**
 * The business's pickup requests (`GET /pickups`), one page; `query` is sent as the query
 * (`page`, `limit`, ...).
 *
 * @chunk pickups
 *
 * @example
 * ```ts
 * const { pickups } = await client.pickups.list();
 * ```
 */
export const listPickups = /* @__PURE__ */ endpoint<[query?: PickupListQuery], PickupList>({
  name: 'pickups.list',
  method: 'GET',
  route: '/pickups',
  request: (query) => ({ query: isRecord(query) ? query : undefined }),
  answer: pickupListOf,
});

/**
 * Changes a pickup request (`PUT /pickups/{id}`): the date and slot are checked as for `create`.
 *
 * @chunk pickups
 *
 * @example
 * ```ts
 * await client.pickups.update(pickupId, { scheduledTimeSlot: '13:00 to 16:00' });
 * ```
 */
export const updatePickup = /* @__PURE__ */ endpoint<[pickupId: string, changes: PickupChanges], Pickup>({
  name: 'pickups.update',
  method: 'PUT',
  route: '/pickups/{pickupId}',
  check: schemaCheck('checkPickupChanges'),
  // The answer may carry only `{ _id }` (or nothing of the pickup): the id asked for stands in.
  answer: (data, { params }) => recordOf<Pickup>(data, params['pickupId'] as string),
});

/**
 * Cancels a pickup request (`DELETE /pickups/{id}`).
 *
 * @chunk pickups
 *
 * @example
 * ```ts
 * await client.pickups.delete(pickupId);
 * ```
 */
export const deletePickup = /* @__PURE__ */ endpoint<[pickupId: string], Record<string, unknown>>({
  name: 'pickups.delete',
  method: 'DELETE',
  route: '/pickups/{pickupId}',
  answer: (data) => ({ ...asRecord(data) }),
});

/** How far ahead `availableDates` looks. */
export interface PickupDatesQuery {
  /** Days from today, a whole number of at least 1. Default 7. */
  days?: number | undefined;
}

/**
 * The dates a pickup can be booked on (`GET /pickups/available-dates?days=N`), `YYYY-MM-DD`.
 *
 * @chunk pickups
 *
 * @example
 * ```ts
 * const dates = await client.pickups.availableDates({ days: 7 }); // ['2026-03-14', '2026-03-15', ...]
 * ```
 */
export const listPickupDates = /* @__PURE__ */ endpoint<[query?: PickupDatesQuery], PickupDate[]>({
  name: 'pickups.availableDates',
  method: 'GET',
  route: '/pickups/available-dates',
  request: (query) => {
    const days = query?.days ?? 7;
    if (!Number.isSafeInteger(days) || days < 1)
      throw new ValidationError([{ path: ['days'], message: `expected a whole number of at least 1, received ${shown(days)}` }], {
        subject: 'Invalid argument',
      });
    return { query: { days } };
  },
  answer: (data, context) => {
    const list = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data['dates']) ? data['dates'] : undefined;
    if (list === undefined)
      throw new ResponseShapeError(`${context.request.method} ${context.request.url} answered ${context.status} without a list of dates`, context);
    return list.filter((date): date is PickupDate => typeof date === 'string');
  },
});
