import type { APIPromise } from '../core/api-promise.js';
import { asRecord, idString } from '../core/guards.js';
import type { DeliveryCore } from './core.js';
import type { DeliveryAddressRecord } from './delivery-record.js';
import type { RequestOptions } from './options.js';
import { send } from './send.js';
import { listOf } from './shared.js';

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
  return send(core, options, () => ({
    method: 'GET',
    path: '/pickup-locations',
    transform: (data, answer) =>
      listOf(data, answer).map((entry) => {
        const record = asRecord(entry);
        return { ...record, _id: idString(record['_id']) ?? '' } as PickupLocationRecord;
      }),
  }));
}
