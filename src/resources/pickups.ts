import type { APIPromise } from '../core/api-promise.js';
import { onFirstUse } from '../core/on-first-use.js';
import type { RequestOptions } from '../functions/options.js';
import type { Pickup, PickupDatesQuery, PickupList, PickupListQuery } from '../functions/pickups.js';
import type { PickupChanges, PickupInput } from '../schemas/after-create.js';
import type { PickupDate } from '../schemas/pickup-date.js';
import { Resource } from './resource.js';

const pickupsCode = onFirstUse(() => import('../functions/pickups.js'));

/**
 * Pickup requests: a courier collects your parcels at a pickup location on a date and in a time
 * slot. Not in the spec: the shapes are those of the service's own SDKs and plugins.
 *
 * @example
 * ```ts
 * const [date] = await client.pickups.availableDates({ days: 7 });
 * const pickup = await client.pickups.create({
 *   businessLocationId: locationId,
 *   scheduledDate: date ?? '2026-03-15',
 *   scheduledTimeSlot: '10:00 to 13:00',
 *   contactPerson: { name: 'Omar Said', phone: '01098765432' },
 * });
 * ```
 */
export class PickupsResource extends Resource {
  /**
   * Books a pickup (`POST /pickups`); the date (`YYYY-MM-DD`) and slot are checked before sending.
   * Fridays, holidays, past dates and a passed cut-off are refused by the service with a `PickupErrorCode`.
   *
   * @example
   * ```ts
   * const pickup = await client.pickups.create({
   *   businessLocationId: locationId,
   *   scheduledDate: '2026-03-15',
   *   scheduledTimeSlot: '13:00 to 16:00',
   *   contactPerson: { name: 'Omar Said', phone: '01098765432' },
   *   numberOfParcels: 12,
   * });
   * ```
   */
  create(pickup: PickupInput, options?: RequestOptions): APIPromise<Pickup> {
    return this.onDemand(pickupsCode, (loaded) => loaded.createPickup(this.core, pickup, options));
  }

  /**
   * One pickup request (`GET /pickups/{id}`).
   *
   * @example
   * ```ts
   * const { state, scheduledDate } = await client.pickups.get(pickupId);
   * ```
   */
  get(pickupId: string, options?: RequestOptions): APIPromise<Pickup> {
    return this.onDemand(pickupsCode, (loaded) => loaded.getPickup(this.core, pickupId, options));
  }

  /**
   * The business's pickup requests (`GET /pickups`).
   *
   * @example
   * ```ts
   * const { pickups } = await client.pickups.list();
   * ```
   */
  list(query?: PickupListQuery, options?: RequestOptions): APIPromise<PickupList> {
    return this.onDemand(pickupsCode, (loaded) => loaded.listPickups(this.core, query, options));
  }

  /**
   * Changes a pickup request (`PUT /pickups/{id}`).
   *
   * @example
   * ```ts
   * await client.pickups.update(pickupId, { scheduledTimeSlot: '13:00 to 16:00' });
   * ```
   */
  update(pickupId: string, changes: PickupChanges, options?: RequestOptions): APIPromise<Pickup> {
    return this.onDemand(pickupsCode, (loaded) => loaded.updatePickup(this.core, pickupId, changes, options));
  }

  /**
   * Cancels a pickup request (`DELETE /pickups/{id}`).
   *
   * @example
   * ```ts
   * await client.pickups.delete(pickupId);
   * ```
   */
  delete(pickupId: string, options?: RequestOptions): APIPromise<Record<string, unknown>> {
    return this.onDemand(pickupsCode, (loaded) => loaded.deletePickup(this.core, pickupId, options));
  }

  /**
   * The dates a pickup can be booked on (`GET /pickups/available-dates?days=N`).
   *
   * @example
   * ```ts
   * const dates = await client.pickups.availableDates({ days: 7 }); // ['2026-03-14', ...]
   * ```
   */
  availableDates(query?: PickupDatesQuery, options?: RequestOptions): APIPromise<PickupDate[]> {
    return this.onDemand(pickupsCode, (loaded) => loaded.listPickupDates(this.core, query, options));
  }
}
