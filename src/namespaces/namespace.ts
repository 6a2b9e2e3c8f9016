import { APIPromise } from '../core/api-promise.js';
import type { DeliveryCore } from '../functions/delivery-core.js';
import type { OnFirstUse } from '../internal/on-first-use.js';

/** An operation of a chunk: its standalone function. */
// biome-ignore lint/suspicious/noExplicitAny: any operation's arguments
type Operation = (core: DeliveryCore, ...args: any[]) => unknown;
/** The arguments of an operation after the core. */
type ArgsOf<F> = F extends (core: DeliveryCore, ...args: infer A) => unknown ? A : never;
type ResultOf<F> = F extends (...args: never[]) => infer R ? R : never;

/**
 * What every namespace of the client is: its core, and the one way its methods call their
 * operation, in the chunk that holds it, loaded on first use (a page ships the code of the calls
 * it makes). A chunk that cannot be loaded fails the call with the typed error of
 * internal/on-first-use.ts, nothing sent. The core is kept in a private field: `util.inspect`,
 * `console.log` and `JSON.stringify` of a namespace show nothing that leads to the key. Not
 * exported from any entry.
 * @hidden
 */
export abstract class Namespace {
  readonly #core: DeliveryCore;

  /** @hidden The client makes it. */
  constructor(core: DeliveryCore) {
    this.#core = core;
  }

  /** @internal */
  protected get core(): DeliveryCore {
    return this.#core;
  }

  /** An operation that answers an APIPromise: at once once its chunk is loaded, after it arrives otherwise. @internal */
  protected call<M extends Record<K, Operation>, K extends keyof M>(chunk: OnFirstUse<M>, name: K, ...args: ArgsOf<M[K]>): ResultOf<M[K]> {
    const loaded = chunk.ready;
    // Once loaded, the call starts at once: no promise between the method and the request.
    if (loaded !== undefined) return loaded[name](this.#core, ...args) as ResultOf<M[K]>;
    const later = chunk.load().then((arrived) => (arrived[name](this.#core, ...args) as APIPromise<unknown>).withResponse());
    return new APIPromise(later) as ResultOf<M[K]>;
  }

  /** An operation that answers a Promise. @internal */
  protected promise<M extends Record<K, Operation>, K extends keyof M>(chunk: OnFirstUse<M>, name: K, ...args: ArgsOf<M[K]>): ResultOf<M[K]> {
    const loaded = chunk.ready;
    if (loaded !== undefined) return loaded[name](this.#core, ...args) as ResultOf<M[K]>;
    return chunk.load().then((arrived) => arrived[name](this.#core, ...args)) as ResultOf<M[K]>;
  }

  /** An operation that yields: an async generator whose first step loads the chunk. @internal */
  protected stream<M extends Record<K, Operation>, K extends keyof M>(chunk: OnFirstUse<M>, name: K, ...args: ArgsOf<M[K]>): ResultOf<M[K]> {
    const core = this.#core;
    const loaded = chunk.ready;
    if (loaded !== undefined) return loaded[name](core, ...args) as ResultOf<M[K]>;
    return (async function* () {
      yield* (await chunk.load())[name](core, ...args) as AsyncIterable<unknown>;
    })() as ResultOf<M[K]>;
  }
}
