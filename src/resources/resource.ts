import { APIPromise } from '../core/api-promise.js';
import type { OnFirstUse } from '../core/on-first-use.js';
import { ConnectionError } from '../errors/index.js';
import type { DeliveryCore } from '../functions/delivery-core.js';

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

  /**
   * Calls an operation of a module loaded on first use: a page ships the code of the calls it
   * makes, not of every call the client has (docs/performance.md).
   * @internal
   */
  protected onDemand<M, T>(module: OnFirstUse<M>, call: (loaded: M) => APIPromise<T>): APIPromise<T> {
    // Once loaded, the call starts at once: no promise between the method and the request.
    const ready = module.ready;
    if (ready !== undefined) {
      try {
        return call(ready);
      } catch (error) {
        // What the call throws rejects its promise, as it does before the module arrives.
        return new APIPromise(Promise.reject(error));
      }
    }
    return new APIPromise(operations(module).then((loaded) => call(loaded).withResponse()));
  }
}

/**
 * The operations of `module`, loaded once. A module that cannot be loaded (a page whose chunks
 * were redeployed, a connection lost) fails the call with a `ConnectionError` before anything is
 * sent, and the next call tries again.
 * @internal
 */
export function operations<M>(module: OnFirstUse<M>): Promise<M> {
  return module.load().catch((cause: unknown) => {
    // A bundled page loads each call on first use: its chunks must be served.
    throw new ConnectionError('The SDK could not load the code of this call; nothing was sent.', { cause });
  });
}
