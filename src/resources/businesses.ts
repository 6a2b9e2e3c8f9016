import type { APIPromise } from '../core/api-promise.js';
import { onFirstUse } from '../core/on-first-use.js';
import type { Business } from '../functions/businesses.js';
import type { RequestOptions } from '../functions/options.js';
import type { CreateBusinessInput, PickupLocationEntry } from '../schemas/index.js';
import { Resource } from './resource.js';

const businessesCode = onFirstUse(() => import('../functions/businesses.js'));

export type { Business, PickupLocation } from '../functions/businesses.js';

/**
 * Businesses and their pickup locations.
 *
 * @example
 * ```ts
 * const business = await client.businesses.create({ name: 'Nile Shop', salesChannel: 'FACEBOOK_SELLER', website: 'https://nile.example' });
 * await client.businesses.updatePickupLocations(business._id, [{ locationName: 'Warehouse', districtId, firstLine: '5 Makram Ebeid Street' }]);
 * ```
 */
export class BusinessesResource extends Resource {
  /**
   * Registers a business (`POST /businesses`): the basic flow (`salesChannel` a string), or the
   * marketplace flow with `autoCreatePickups: true` (`salesChannel` an array), where orders
   * create their pickups themselves.
   *
   * @throws `ValidationError` before sending, naming each field (`name: required`, `salesChannel` of the wrong flow).
   * @throws `ResponseShapeError` when the answer carries no `_id` (the business may exist all the same).
   *
   * @example
   * ```ts
   * // Basic flow: then add a pickup location with updatePickupLocations
   * const business = await client.businesses.create({ name: 'Nile Shop', salesChannel: 'FACEBOOK_SELLER', website: 'https://nile.example' });
   *
   * // Marketplace flow: orders carry their own pickup address and contact
   * const marketplace = await client.businesses.create({ name: 'Nile Market', autoCreatePickups: true, salesChannel: ['FACEBOOK_SELLER'] });
   * ```
   */
  create(input: CreateBusinessInput, options?: RequestOptions): APIPromise<Business> {
    return this.onDemand(businessesCode, (loaded) => loaded.createBusiness(this.core, input, options));
  }

  /**
   * Adds pickup locations to a business (`PUT /businesses/<businessId>` with `pickupAddress`).
   * The first location a business ever gets becomes its default, the one an order uses when
   * it omits `businessLocationId`; until a business has one, creating an order fails with
   * `BusinessLocationRequiredError` (1073). Not repeated when the outcome is unknown, though
   * it is a PUT: a second call could add the locations twice.
   *
   * @throws `ValidationError` an empty list or an invalid entry (paths from the index: `[1].firstLine`).
   * @throws `NotFoundError` an unknown business.
   *
   * @example
   * ```ts
   * const [district] = (await client.lookup.districts(cairoId)).filter((d) => d.pickupAvailability);
   * const updated = await client.businesses.updatePickupLocations(business._id, [
   *   { locationName: 'Warehouse', districtId: district!.districtId, firstLine: '5 Makram Ebeid Street', buildingNumber: '5', floor: '2' },
   * ]);
   * updated.pickupLocations?.find((location) => location.isDefault);
   * ```
   */
  updatePickupLocations(businessId: string, locations: PickupLocationEntry[], options?: RequestOptions): APIPromise<Business> {
    return this.onDemand(businessesCode, (loaded) => loaded.updatePickupLocations(this.core, businessId, locations, options));
  }
}
