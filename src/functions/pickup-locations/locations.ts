/** The business's pickup locations (warehouses): the `businessLocationId` of orders and pickups. */

import type { PickupLocationChanges, PickupLocationInput } from '../../schemas/after-create.js';
import { schemaCheck } from '../../schemas/check.js';
import { createdRecord, listOf, recordOf } from '../answers.js';
import type { DeliveryAddressRecord } from '../deliveries/records.js';
import { endpoint } from '../endpoint.js';

/** A pickup location as `GET /pickup-locations` answers it; any field the service adds is kept. */
export interface PickupLocationRecord {
  _id: string;
  locationName?: string | undefined;
  isDefault?: boolean | undefined;
  contactPerson?:
    | { name?: string | undefined; phone?: string | undefined; secPhone?: string | undefined; email?: string | undefined; [field: string]: unknown }
    | undefined;
  address?: DeliveryAddressRecord | undefined;
  [field: string]: unknown;
}

/**
 * The business's pickup locations (`GET /pickup-locations`, answered `{ total, list }`): the `_id`
 * to give a pickup as `businessLocationId`, and orders as `businessLocationId`.
 *
 * @chunk pickupLocations
 *
 * @example
 * ```ts
 * const locations = await client.pickupLocations.list();
 * const warehouse = locations.find((location) => location.isDefault) ?? locations[0];
 * ```
 */
export const listPickupLocations = /* @__PURE__ */ endpoint<[], PickupLocationRecord[]>({
  name: 'pickupLocations.list',
  method: 'GET',
  route: '/pickup-locations',
  answer: (data, context) => listOf(data, context).map((entry) => recordOf<PickupLocationRecord>(entry, '')),
});

/**
 * Adds a pickup location (`POST /pickup-locations`): the spec's pickup location entry
 * (`districtId`, `firstLine` of at least 5 characters, ...) and `contactPerson`. A business's first
 * location is its default. Checked before sending, like `businesses.updatePickupLocations`; not
 * repeated when the outcome is unknown (a second call would add a second location).
 *
 * @chunk pickupLocations
 *
 * @throws `ValidationError` naming each field, before sending.
 *
 * @example
 * ```ts
 * const location = await client.pickupLocations.create({
 *   locationName: 'Giza warehouse',
 *   districtId,
 *   firstLine: '5 Makram Ebeid Street',
 *   contactPerson: { name: 'Karim', phone: '01012345678' },
 * });
 * ```
 */
export const createPickupLocation = /* @__PURE__ */ endpoint<[location: PickupLocationInput], PickupLocationRecord>({
  name: 'pickupLocations.create',
  method: 'POST',
  route: '/pickup-locations',
  check: schemaCheck('checkPickupLocation'),
  answer: (data, context) => createdRecord(data, context, ['_id']) as PickupLocationRecord,
});

/**
 * One pickup location (`GET /pickup-locations/{id}`); `NotFoundError` when there is none.
 *
 * @chunk pickupLocations
 */
export const getPickupLocation = /* @__PURE__ */ endpoint<[locationId: string], PickupLocationRecord>({
  name: 'pickupLocations.get',
  method: 'GET',
  route: '/pickup-locations/{locationId}',
  answer: (data, { params }) => recordOf<PickupLocationRecord>(data, params['locationId'] as string),
});

/**
 * Changes a pickup location (`PUT /pickup-locations/{id}`): any of its fields, checked before
 * sending. Resolves with what the service answers (`{ _id, isDefault }`).
 *
 * @chunk pickupLocations
 *
 * @example
 * ```ts
 * await client.pickupLocations.update(locationId, { contactPerson: { name: 'Karim', phone: '01012345678' } });
 * ```
 */
export const updatePickupLocation = /* @__PURE__ */ endpoint<[locationId: string, changes: PickupLocationChanges], PickupLocationRecord>({
  name: 'pickupLocations.update',
  method: 'PUT',
  route: '/pickup-locations/{locationId}',
  check: schemaCheck('checkPickupLocationChanges'),
  answer: (data, { params }) => recordOf<PickupLocationRecord>(data, params['locationId'] as string),
});

/**
 * Deletes a pickup location (`DELETE /pickup-locations/{id}`).
 *
 * @chunk pickupLocations
 *
 * @throws `PickupLocationInUseError` when an upcoming pickup is linked to it: nothing is deleted.
 *
 * @example
 * ```ts
 * await client.pickupLocations.delete(locationId);
 * ```
 */
export const deletePickupLocation = /* @__PURE__ */ endpoint<[locationId: string], void>({
  name: 'pickupLocations.delete',
  method: 'DELETE',
  route: '/pickup-locations/{locationId}',
  answer: () => undefined,
  refusal: 'locationInUse',
});

/**
 * Makes a location the default (`PUT /pickup-locations/{id}/default`): orders that name no
 * `businessLocationId` are picked up there.
 *
 * @chunk pickupLocations
 *
 * @example
 * ```ts
 * await client.pickupLocations.setDefault(locationId);
 * ```
 */
export const setDefaultPickupLocation = /* @__PURE__ */ endpoint<[locationId: string], PickupLocationRecord>({
  name: 'pickupLocations.setDefault',
  method: 'PUT',
  route: '/pickup-locations/{locationId}/default',
  answer: (data, { params }) => recordOf<PickupLocationRecord>(data, params['locationId'] as string),
});
