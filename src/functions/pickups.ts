import type { APIPromise } from '../core/api-promise.js';
import { asRecord, idString, shown } from '../core/guards.js';
import { path } from '../core/http.js';
import { ResponseShapeError, ValidationError } from '../errors/index.js';
import type { PickupChanges, PickupContact, PickupInput } from '../schemas/after-create.js';
import { pickupChangesCheck, pickupCheck } from '../schemas/check.js';
import type { PickupDate, PickupTimeSlot } from '../schemas/pickup-date.js';
import { isRecord } from '../schemas/predicates.js';
import { callApi } from './call-api.js';
import type { DeliveryCore } from './delivery-core.js';
import type { RequestOptions } from './options.js';
import { type ResponseContext, requireId } from './shared.js';

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

function pickupOf(data: unknown, context: ResponseContext): Pickup {
  const record = asRecord(data);
  const id = idString(record['_id']);
  if (id === undefined) {
    const { method, url } = context.request;
    throw new ResponseShapeError(`${method} ${url} answered ${context.status} without the pickup's _id`, context);
  }
  return { ...record, _id: id };
}

function pickupListOf(data: unknown, context: ResponseContext): PickupList {
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
 * @example
 * ```ts
 * const [date] = await listPickupDates(core, { days: 7 });
 * const pickup = await createPickup(core, {
 *   businessLocationId: locationId,
 *   scheduledDate: date ?? '2026-03-15',
 *   scheduledTimeSlot: '10:00 to 13:00',
 *   contactPerson: { name: 'Omar Said', phone: '01098765432' },
 *   numberOfParcels: 12,
 * });
 * console.log(pickup._id, pickup.state);
 * ```
 */
export function createPickup(core: DeliveryCore, pickup: PickupInput, options?: RequestOptions): APIPromise<Pickup> {
  return callApi(core, options, () => ({
    input: pickup,
    check: pickupCheck,
    endpoint: ({ json }) => ({ method: 'POST', path: '/pickups', json, transform: pickupOf }),
  }));
}

/**
 * One pickup request (`GET /pickups/{id}`).
 *
 * @example
 * ```ts
 * const pickup = await getPickup(core, pickupId);
 * ```
 */
export function getPickup(core: DeliveryCore, pickupId: string, options?: RequestOptions): APIPromise<Pickup> {
  return callApi(core, options, () => ({ method: 'GET', path: path`/pickups/${requireId(pickupId, 'pickupId')}`, transform: pickupOf }));
}

/**
 * The business's pickup requests (`GET /pickups`), one page.
 *
 * @example
 * ```ts
 * const { pickups } = await listPickups(core);
 * ```
 */
export function listPickups(core: DeliveryCore, query?: PickupListQuery, options?: RequestOptions): APIPromise<PickupList> {
  return callApi(core, options, () => ({ method: 'GET', path: '/pickups', query: isRecord(query) ? query : undefined, transform: pickupListOf }));
}

/**
 * Changes a pickup request (`PUT /pickups/{id}`): the date and slot are checked as for `createPickup`.
 *
 * @example
 * ```ts
 * await updatePickup(core, pickupId, { scheduledTimeSlot: '13:00 to 16:00' });
 * ```
 */
export function updatePickup(core: DeliveryCore, pickupId: string, changes: PickupChanges, options?: RequestOptions): APIPromise<Pickup> {
  return callApi(core, options, () => {
    const id = requireId(pickupId, 'pickupId');
    return {
      input: changes,
      check: pickupChangesCheck,
      endpoint: ({ json }) => ({
        method: 'PUT',
        path: path`/pickups/${id}`,
        json,
        // The answer may carry only `{ _id }` (or nothing of the pickup): the id asked for stands in.
        transform: (data) => ({ ...asRecord(data), _id: idString(asRecord(data)['_id']) ?? id }) as Pickup,
      }),
    };
  });
}

/**
 * Cancels a pickup request (`DELETE /pickups/{id}`).
 *
 * @example
 * ```ts
 * await deletePickup(core, pickupId);
 * ```
 */
export function deletePickup(core: DeliveryCore, pickupId: string, options?: RequestOptions): APIPromise<Record<string, unknown>> {
  return callApi(core, options, () => ({
    method: 'DELETE',
    path: path`/pickups/${requireId(pickupId, 'pickupId')}`,
    transform: (data) => ({ ...asRecord(data) }),
  }));
}

/** How far ahead `listPickupDates` looks. */
export interface PickupDatesQuery {
  /** Days from today, a whole number of at least 1. Default 7. */
  days?: number | undefined;
}

/**
 * The dates a pickup can be booked on (`GET /pickups/available-dates?days=N`), `YYYY-MM-DD`.
 *
 * @example
 * ```ts
 * const dates = await listPickupDates(core, { days: 7 }); // ['2026-03-14', '2026-03-15', ...]
 * ```
 */
export function listPickupDates(core: DeliveryCore, query?: PickupDatesQuery, options?: RequestOptions): APIPromise<PickupDate[]> {
  return callApi(core, options, () => {
    const days = query?.days ?? 7;
    if (!Number.isSafeInteger(days) || days < 1)
      throw new ValidationError([{ path: ['days'], message: `expected a whole number of at least 1, received ${shown(days)}` }], {
        subject: 'Invalid argument',
      });
    return {
      method: 'GET',
      path: '/pickups/available-dates',
      query: { days },
      transform: (data, context) => {
        const list = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data['dates']) ? data['dates'] : undefined;
        if (list === undefined)
          throw new ResponseShapeError(`${context.request.method} ${context.request.url} answered ${context.status} without a list of dates`, context);
        return list.filter((date): date is PickupDate => typeof date === 'string');
      },
    };
  });
}
