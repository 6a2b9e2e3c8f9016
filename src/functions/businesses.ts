/** Businesses and their pickup locations. */
import type { APIPromise } from '../core/api-promise.js';
import { asRecord, idString } from '../core/guards.js';
import { path } from '../core/http.js';
import { businessCheck, pickupLocationsCheck } from '../schemas/check.js';
import type { CreateBusinessInput, PickupLocationEntry } from '../schemas/index.js';
import { isRecord } from '../schemas/predicates.js';
import { callApi } from './call-api.js';
import type { DeliveryCore } from './delivery-core.js';
import type { RequestOptions } from './options.js';
import { createdRecord, type ResponseContext, requireId } from './shared.js';

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

function businessOf(data: unknown, context: ResponseContext): Business {
  return createdRecord(data, context, ['_id']) as Business;
}

/**
 * Creates a business (`POST /businesses`), as `client.businesses.create` does.
 *
 * @example
 * ```ts
 * import { DeliveryCore, createBusiness } from 'delivery-sdk/functions';
 *
 * const core = new DeliveryCore({ apiKey: process.env.DELIVERY_API_KEY, baseUrl: 'https://api.example.com/v2' });
 * const business = await createBusiness(core, { name: 'Nile Shop', salesChannel: 'FACEBOOK_SELLER', website: 'https://nile.example' });
 * ```
 */
export function createBusiness(core: DeliveryCore, input: CreateBusinessInput, options?: RequestOptions): APIPromise<Business> {
  return callApi(core, options, () => ({
    input,
    check: businessCheck,
    endpoint: ({ json }) => ({ method: 'POST', path: '/businesses', json, transform: businessOf }),
  }));
}

/**
 * Replaces a business's pickup locations (`PUT /businesses/<id>`), as `client.businesses.updatePickupLocations` does.
 *
 * @example
 * ```ts
 * import { DeliveryCore, updatePickupLocations } from 'delivery-sdk/functions';
 *
 * const core = new DeliveryCore({ apiKey: process.env.DELIVERY_API_KEY, baseUrl: 'https://api.example.com/v2' });
 * await updatePickupLocations(core, 'business-id', [{ locationName: 'Warehouse', districtId: 'aiJudRHeOt', firstLine: '5 Makram Ebeid Street' }]);
 * ```
 */
export function updatePickupLocations(
  core: DeliveryCore,
  businessId: string,
  locations: PickupLocationEntry[],
  options?: RequestOptions,
): APIPromise<Business> {
  return callApi(core, options, () => {
    const id = requireId(businessId, 'businessId');
    return {
      input: { pickupAddress: locations },
      check: pickupLocationsCheck,
      endpoint: ({ json }) => ({
        method: 'PUT',
        path: path`/businesses/${id}`,
        json,
        transform: (data: unknown): Business => {
          const record = asRecord(data);
          const locationsOut = Array.isArray(record['pickupLocations']) ? record['pickupLocations'].filter(isRecord) : undefined;
          return { ...record, _id: idString(record['_id']) ?? id, ...(locationsOut === undefined ? {} : { pickupLocations: locationsOut }) };
        },
        idempotent: false,
      }),
    };
  });
}
