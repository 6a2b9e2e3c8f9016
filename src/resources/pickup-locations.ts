import type { APIPromise } from '../core/api-promise.js';
import type { DeliveryCore } from '../functions/core.js';
import type { RequestOptions } from '../functions/options.js';
import { listPickupLocations, type PickupLocationRecord } from '../functions/pickup-locations.js';

/** The business's pickup locations, as the service keeps them (`businesses.updatePickupLocations` sets them). */
export class PickupLocationsResource {
  readonly #core: DeliveryCore;

  /** @hidden The client builds it. */
  constructor(core: DeliveryCore) {
    this.#core = core;
  }

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
    return listPickupLocations(this.#core, options);
  }
}
