/** The business and its pickup locations, as the spec sets them up. */
import { asRecord, idString, isRecord } from '../../internal/guards.js';
import { schemaCheck } from '../../schemas/check.js';
import type { CreateBusinessInput, PickupLocationEntry } from '../../schemas/index.js';
import { createdRecord } from '../answers.js';
import { type AnswerContext, endpoint } from '../endpoint.js';

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

function businessOf(data: unknown, context: AnswerContext): Business {
  return createdRecord(data, context, ['_id']) as Business;
}

/**
 * Registers a business (`POST /businesses`): the basic flow (`salesChannel` a string), or the
 * marketplace flow with `autoCreatePickups: true` (`salesChannel` an array), where orders
 * create their pickups themselves.
 *
 * @chunk businesses
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
export const createBusiness = /* @__PURE__ */ endpoint<[input: CreateBusinessInput], Business>({
  name: 'businesses.create',
  method: 'POST',
  route: '/businesses',
  check: schemaCheck('checkBusiness'),
  answer: businessOf,
});

/**
 * Adds pickup locations to a business (`PUT /businesses/<businessId>` with `pickupAddress`).
 * The first location a business ever gets becomes its default, the one an order uses when
 * it omits `businessLocationId`; until a business has one, creating an order fails with
 * `BusinessLocationRequiredError` (1073). Not repeated when the outcome is unknown, though
 * it is a PUT: a second call could add the locations twice.
 *
 * @chunk businesses
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
export const updatePickupLocations = /* @__PURE__ */ endpoint<[businessId: string, locations: PickupLocationEntry[]], Business>({
  name: 'businesses.updatePickupLocations',
  method: 'PUT',
  route: '/businesses/{businessId}',
  request: (businessId, locations) => ({ params: { businessId }, body: { pickupAddress: locations } }),
  check: schemaCheck('checkPickupLocationsUpdate'),
  answer: (data, { params }): Business => {
    const record = asRecord(data);
    const locations = Array.isArray(record['pickupLocations']) ? record['pickupLocations'].filter(isRecord) : undefined;
    return { ...record, _id: idString(record['_id']) ?? (params['businessId'] as string), ...(locations === undefined ? {} : { pickupLocations: locations }) };
  },
  // A PUT that adds: a second call could add the locations twice.
  idempotent: false,
});
