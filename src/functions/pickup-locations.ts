import { APIPromise } from '../core/api-promise.js';
import { asRecord, idString } from '../core/guards.js';
import { path } from '../core/http.js';
import { ApiError, PickupLocationInUseError } from '../errors/index.js';
import type { PickupLocationChanges, PickupLocationInput } from '../schemas/after-create.js';
import { pickupLocationChangesCheck, pickupLocationCheck } from '../schemas/check.js';
import { callApi } from './call-api.js';
import type { DeliveryCore } from './delivery-core.js';
import type { DeliveryAddressRecord } from './delivery-record.js';
import type { RequestOptions } from './options.js';
import { createdRecord, listOf, refusalText, requireId, sameAnswer } from './shared.js';

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
 * The business's pickup locations (`GET /pickup-locations`, answered `{ total, list }`): the
 * `_id` to give `createPickup` as `businessLocationId`, and orders as `businessLocationId`.
 *
 * @example
 * ```ts
 * const locations = await listPickupLocations(core);
 * const warehouse = locations.find((location) => location.isDefault) ?? locations[0];
 * ```
 */
export function listPickupLocations(core: DeliveryCore, options?: RequestOptions): APIPromise<PickupLocationRecord[]> {
  return callApi(core, options, () => ({
    method: 'GET',
    path: '/pickup-locations',
    transform: (data, context) => listOf(data, context).map((entry) => locationRecord(entry, '')),
  }));
}

function locationRecord(data: unknown, id: string): PickupLocationRecord {
  const record = asRecord(data);
  return { ...record, _id: idString(record['_id']) ?? id } as PickupLocationRecord;
}

/**
 * Adds a pickup location (`POST /pickup-locations`): the spec's pickup location entry
 * (`districtId`, `firstLine` of at least 5 characters, ...) and `contactPerson`. A business's first
 * location is its default. Checked before sending, like `updatePickupLocations`; not repeated when
 * the outcome is unknown (a second call would add a second location).
 *
 * @throws `ValidationError` naming each field, before sending.
 *
 * @example
 * ```ts
 * const location = await createPickupLocation(core, {
 *   locationName: 'Giza warehouse',
 *   districtId: 'aiJudRHeOt',
 *   firstLine: '5 Makram Ebeid Street',
 *   contactPerson: { name: 'Karim', phone: '01012345678' },
 * });
 * ```
 */
export function createPickupLocation(core: DeliveryCore, location: PickupLocationInput, options?: RequestOptions): APIPromise<PickupLocationRecord> {
  return callApi(core, options, () => ({
    input: location,
    check: pickupLocationCheck,
    endpoint: ({ json }) => ({
      method: 'POST',
      path: '/pickup-locations',
      json,
      transform: (data, context) => createdRecord(data, context, ['_id']) as PickupLocationRecord,
    }),
  }));
}

/**
 * One pickup location (`GET /pickup-locations/{id}`).
 *
 * @example
 * ```ts
 * const location = await getPickupLocation(core, locationId);
 * ```
 */
export function getPickupLocation(core: DeliveryCore, locationId: string, options?: RequestOptions): APIPromise<PickupLocationRecord> {
  return callApi(core, options, () => {
    const id = requireId(locationId, 'locationId');
    return { method: 'GET', path: path`/pickup-locations/${id}`, transform: (data) => locationRecord(data, id) };
  });
}

/**
 * Changes a pickup location (`PUT /pickup-locations/{id}`): any of its fields, checked before
 * sending. Resolves with what the service answers (`{ _id, isDefault }`).
 *
 * @example
 * ```ts
 * await updatePickupLocation(core, locationId, { contactPerson: { name: 'Karim', phone: '01012345678' } });
 * ```
 */
export function updatePickupLocation(
  core: DeliveryCore,
  locationId: string,
  changes: PickupLocationChanges,
  options?: RequestOptions,
): APIPromise<PickupLocationRecord> {
  return callApi(core, options, () => {
    const id = requireId(locationId, 'locationId');
    return {
      input: changes,
      check: pickupLocationChangesCheck,
      endpoint: ({ json }) => ({ method: 'PUT', path: path`/pickup-locations/${id}`, json, transform: (data) => locationRecord(data, id) }),
    };
  });
}

/**
 * Deletes a pickup location (`DELETE /pickup-locations/{id}`).
 *
 * @throws `PickupLocationInUseError` when an upcoming pickup is linked to it (nothing deleted).
 *
 * @example
 * ```ts
 * await deletePickupLocation(core, locationId);
 * ```
 */
export function deletePickupLocation(core: DeliveryCore, locationId: string, options?: RequestOptions): APIPromise<void> {
  const deleted = callApi(core, options, () => ({
    method: 'DELETE',
    path: path`/pickup-locations/${requireId(locationId, 'locationId')}`,
    transform: () => undefined,
  }));
  return new APIPromise(deleted.withResponse().catch((error: unknown) => Promise.reject(inUse(error))));
}

/**
 * Makes a location the default, the one orders without `businessLocationId` use
 * (`PUT /pickup-locations/{id}/default`).
 *
 * @example
 * ```ts
 * await setDefaultPickupLocation(core, locationId);
 * ```
 */
export function setDefaultPickupLocation(core: DeliveryCore, locationId: string, options?: RequestOptions): APIPromise<PickupLocationRecord> {
  return callApi(core, options, () => {
    const id = requireId(locationId, 'locationId');
    return { method: 'PUT', path: path`/pickup-locations/${id}/default`, transform: (data) => locationRecord(data, id) };
  });
}

/**
 * The refusal to delete a location an upcoming pickup uses, as its own class. The wording is not
 * in the spec (docs/assumptions.md): a 4xx naming a pickup that the location is linked to.
 */
function inUse(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500 || error.status === 404) return error;
  const text = refusalText(error);
  if (!/pickup/i.test(text) || !/\b(?:linked|upcoming|scheduled|assigned|in use|used by)\b/i.test(text)) return error;
  return new PickupLocationInUseError(error.message, sameAnswer(error));
}
