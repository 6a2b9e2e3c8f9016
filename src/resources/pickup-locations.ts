import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../functions/options.js';
import type { PickupLocationRecord } from '../functions/pickup-locations.js';
import { Resource } from './resource.js';

const loadPickupLocations = () => import('../functions/pickup-locations.js');

/** The business's pickup locations, as the service keeps them (`businesses.updatePickupLocations` sets them). */
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
    return this.onDemand(loadPickupLocations, (loaded) => loaded.listPickupLocations(this.core, options));
  }
}
