import type { APIPromise } from '../core/api-promise.js';
import { onFirstUse } from '../core/on-first-use.js';
import type { RequestOptions } from '../functions/options.js';
import type { PickupLocationRecord } from '../functions/pickup-locations.js';
import type { PickupLocationChanges, PickupLocationInput } from '../schemas/after-create.js';
import { Resource } from './resource.js';

const pickupLocationsCode = onFirstUse(() => import('../functions/pickup-locations.js'));

/**
 * The business's pickup locations, its warehouses: list, add, read, change, delete, and which one
 * is the default (the location an order without `businessLocationId` is picked up from).
 */
export class PickupLocationsResource extends Resource {
  /**
   * Every pickup location (`GET /pickup-locations`).
   *
   * @example
   * ```ts
   * const locations = await client.pickupLocations.list();
   * const warehouse = locations.find((location) => location.isDefault) ?? locations[0];
   * ```
   */
  list(options?: RequestOptions): APIPromise<PickupLocationRecord[]> {
    return this.onDemand(pickupLocationsCode, (loaded) => loaded.listPickupLocations(this.core, options));
  }

  /**
   * Adds a pickup location (`POST /pickup-locations`): `districtId`, `firstLine` (at least 5
   * characters), the optional address details, `locationName` and `contactPerson`. A business's
   * first location is its default. Checked before sending; not repeated when the outcome is unknown.
   *
   * @throws `ValidationError` naming each field, before sending.
   *
   * @example
   * ```ts
   * const giza = await client.pickupLocations.create({
   *   locationName: 'Giza warehouse',
   *   districtId: 'aiJudRHeOt',
   *   firstLine: '5 Makram Ebeid Street',
   *   contactPerson: { name: 'Karim', phone: '01012345678' },
   * });
   * ```
   */
  create(location: PickupLocationInput, options?: RequestOptions): APIPromise<PickupLocationRecord> {
    return this.onDemand(pickupLocationsCode, (loaded) => loaded.createPickupLocation(this.core, location, options));
  }

  /** One pickup location (`GET /pickup-locations/{id}`); `NotFoundError` when there is none. */
  get(locationId: string, options?: RequestOptions): APIPromise<PickupLocationRecord> {
    return this.onDemand(pickupLocationsCode, (loaded) => loaded.getPickupLocation(this.core, locationId, options));
  }

  /**
   * Changes a pickup location (`PUT /pickup-locations/{id}`): any of its fields, checked before sending.
   *
   * @example
   * ```ts
   * await client.pickupLocations.update(locationId, { contactPerson: { name: 'Karim', phone: '01012345678' } });
   * ```
   */
  update(locationId: string, changes: PickupLocationChanges, options?: RequestOptions): APIPromise<PickupLocationRecord> {
    return this.onDemand(pickupLocationsCode, (loaded) => loaded.updatePickupLocation(this.core, locationId, changes, options));
  }

  /**
   * Deletes a pickup location (`DELETE /pickup-locations/{id}`).
   *
   * @throws `PickupLocationInUseError` when an upcoming pickup is linked to it: nothing is deleted.
   *
   * @example
   * ```ts
   * await client.pickupLocations.delete(locationId);
   * ```
   */
  delete(locationId: string, options?: RequestOptions): APIPromise<void> {
    return this.onDemand(pickupLocationsCode, (loaded) => loaded.deletePickupLocation(this.core, locationId, options));
  }

  /**
   * Makes a location the default (`PUT /pickup-locations/{id}/default`): orders that name no
   * `businessLocationId` are picked up there.
   *
   * @example
   * ```ts
   * await client.pickupLocations.setDefault(locationId);
   * ```
   */
  setDefault(locationId: string, options?: RequestOptions): APIPromise<PickupLocationRecord> {
    return this.onDemand(pickupLocationsCode, (loaded) => loaded.setDefaultPickupLocation(this.core, locationId, options));
  }
}
