import type { DeliveryCore } from '../functions/core.js';

/**
 * What every resource holds: the client's core. Kept in a private field and read through a
 * prototype getter, so `util.inspect`, `console.log` and `JSON.stringify` of a resource show no
 * own property that leads to the key. Not exported from any entry. Hidden from the API
 * reference but not stripped from the declarations: the resources' declarations extend it.
 * @hidden
 */
export abstract class Resource {
  readonly #core: DeliveryCore;

  /** @hidden The client builds it. */
  constructor(core: DeliveryCore) {
    this.#core = core;
  }

  /** @internal */
  protected get core(): DeliveryCore {
    return this.#core;
  }
}
