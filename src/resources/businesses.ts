import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/config.js';
import { path } from '../core/http.js';
import type { DeliveryCore } from '../functions/core.js';
import { send } from '../functions/send.js';
import { type CreateBusinessInput, type PickupLocationEntry, validateBusiness, validatePickupLocations } from '../schemas/index.js';
import { isRecord } from '../schemas/predicates.js';
import { type Answer, createdRecord, idText, recordOf, requireId } from '../functions/shared.js';

/** A pickup location of a business, as the service answers it. */
export interface PickupLocation {
  _id?: string;
  locationName?: string;
  /** The location orders use when they omit `businessLocationId`: the first one created. */
  isDefault?: boolean;
  address?: Record<string, unknown>;
  [field: string]: unknown;
}

/** A business. The spec does not show the answer; `_id` is what later calls need, other fields are kept. */
export interface Business {
  _id: string;
  name?: string;
  /** True for a marketplace business. */
  autoCreatePickups?: boolean;
  pickupLocations?: PickupLocation[];
  [field: string]: unknown;
}

function businessOf(data: unknown, answer: Answer): Business {
  return createdRecord(data, answer, ['_id']) as Business;
}

/**
 * Businesses and their pickup locations.
 *
 * @example
 * ```ts
 * const business = await client.businesses.create({ name: 'Nile Shop', salesChannel: 'FACEBOOK_SELLER', website: 'https://nile.example' });
 * await client.businesses.updatePickupLocations(business._id, [{ locationName: 'Warehouse', districtId, firstLine: '5 Makram Ebeid Street' }]);
 * ```
 */
export class BusinessesResource {
  // Private, so util.inspect of the client never reaches the headers (and the key) through here.
  readonly #core: DeliveryCore;

  /** @hidden The client builds it. */
  constructor(core: DeliveryCore) {
    this.#core = core;
  }

  /**
   * Registers a business (`POST /businesses`): the basic flow (`salesChannel` a string), or the
   * marketplace flow with `autoCreatePickups: true` (`salesChannel` an array), where orders
   * create their pickups themselves.
   *
   * @throws {ValidationError} before sending, naming each field (`name: required`, `salesChannel` of the wrong flow).
   * @throws {ResponseShapeError} when the answer carries no `_id` (the business may exist all the same).
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
    return send(this.#core, options, (validation) => ({ method: 'POST', path: '/businesses', body: validation === false ? input : validateBusiness(input), transform: businessOf }));
  }

  /**
   * Adds pickup locations to a business (`PUT /businesses/<businessId>` with `pickupAddress`).
   * The first location a business ever gets becomes its default, the one an order uses when
   * it omits `businessLocationId`; until a business has one, creating an order fails with
   * `BusinessLocationRequiredError` (1073). Not repeated when the outcome is unknown, though
   * it is a PUT: a second call could add the locations twice.
   *
   * @throws {ValidationError} an empty list or an invalid entry (paths from the index: `[1].firstLine`).
   * @throws {NotFoundError} an unknown business.
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
    return send(
      this.#core,
      options,
      (validation) => ({
        method: 'PUT',
        path: path`/businesses/${requireId(businessId, 'businessId')}`,
        body: { pickupAddress: validation === false ? locations : validatePickupLocations(locations) },
        transform: (data: unknown): Business => {
          const record = recordOf(data);
          const locationsOut = Array.isArray(record['pickupLocations']) ? record['pickupLocations'].filter(isRecord) : undefined;
          return { ...record, _id: idText(record['_id']) ?? businessId, ...(locationsOut === undefined ? {} : { pickupLocations: locationsOut }) };
        },
        idempotent: false,
      }),
    );
  }
}
