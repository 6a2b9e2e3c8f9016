import type { DeliveryClientOptions } from '../core/options.js';
import { ConfigurationError } from '../errors/index.js';
import { TtlCache } from '../internal/cache.js';
import { callOptionsOf, resolveConfig } from '../internal/config.js';
import { type CoreInternals, underneath } from '../internal/core-internals.js';
import { shown } from '../internal/guards.js';
import { NONE, resolveValidation } from '../internal/skip-rules.js';

let internalsOf: (core: DeliveryCore) => CoreInternals;

/** Options a core made by `withOptions` applies to each call over the same transport; any other option needs a transport of its own. */
const CALL_OPTIONS: readonly string[] = ['apiKey', 'timeout', 'totalTimeout', 'headers', 'maxRetries', 'maxResponseBytes', 'validate'];

/**
 * How `withOptions` hands a new core its shared parts: through a token object the constructor gets
 * in place of options, which no caller can make (a WeakMap lookup never throws, a revoked Proxy included).
 */
const sharedParts = new WeakMap<object, { internals: CoreInternals; baseUrl: string }>();

/**
 * The transport and settings every standalone function of `delivery-sdk/functions` runs on: the
 * same options as `DeliveryClient`, none of its namespaces. A page that imports
 * `DeliveryCore` and `createDelivery` ships only what creating an order needs.
 *
 * @example
 * ```ts
 * import { DeliveryCore, createDelivery } from 'delivery-sdk/functions';
 *
 * const core = new DeliveryCore({ apiKey: process.env.DELIVERY_API_KEY, baseUrl: 'https://api.example.com/v2' });
 * const order = await createDelivery(core, {
 *   type: 10,
 *   dropOffAddress: { city: 'Cairo', districtId: 'aiJudRHeOt', firstLine: '12 Talaat Harb Street' },
 *   receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
 * });
 * console.log(order.trackingNumber);
 * ```
 */
export class DeliveryCore {
  // Private, so util.inspect and JSON.stringify of a core (or of a client or resource holding one) never reach the key.
  readonly #internals: CoreInternals;
  /** The base URL every path is relative to (ends in `/v2`). */
  readonly baseUrl: string;

  /** @throws `ConfigurationError` as `DeliveryClient`'s constructor does. */
  constructor(options: DeliveryClientOptions) {
    const shared = sharedParts.get(options);
    if (shared !== undefined) {
      this.baseUrl = shared.baseUrl;
      this.#internals = shared.internals;
      return;
    }
    const config = resolveConfig(options);
    let validate: DeliveryClientOptions['validate'];
    try {
      validate = options.validate;
    } catch (cause) {
      throw new ConfigurationError('DeliveryClient `validate` could not be read.', { cause });
    }
    this.baseUrl = config.baseUrl;
    this.#internals = {
      options: { ...options },
      config,
      defaults: {},
      lookupCache: config.lookupCacheTtl === false ? undefined : new TtlCache(config.lookupCacheTtl),
      validation: resolveValidation(validate, 'DeliveryClient `validate`') ?? NONE,
    };
  }

  /**
   * A core with some options changed. The call options (`apiKey`, `timeout`, `totalTimeout`,
   * `headers`, `maxRetries`, `maxResponseBytes`) and `validate` share this core's transport, lookup
   * cache and hooks, each call sending its own key: one core serves many merchants. Any other option
   * (`baseUrl`, `fetch`, `auth`, `logger`, ...) makes a core of its own, from this one's options
   * with the changes.
   *
   * @throws `ConfigurationError` as the constructor does, for an option that is wrong.
   *
   * @example
   * ```ts
   * const merchant = core.withOptions({ apiKey: process.env.MERCHANT_42_KEY });
   * await createDelivery(merchant, order);
   * ```
   */
  withOptions(changes: Partial<DeliveryClientOptions>): DeliveryCore {
    return coreOf(optionsWith(this, changes));
  }

  static {
    internalsOf = (core) => core.#internals;
  }
}

/**
 * Internal: what a core (or a client, whose constructor hands it on) is made from to be `core` with
 * `changes`: the merged options when one of them needs a transport of its own, else a token that
 * the constructor reads as `core`'s shared parts under the call options changed.
 */
export function optionsWith(core: DeliveryCore, changes: Partial<DeliveryClientOptions>): DeliveryClientOptions {
  if (changes === null || typeof changes !== 'object') throw new ConfigurationError('withOptions: expected an object of client options.');
  let own: Record<string, unknown>;
  try {
    own = { ...changes };
  } catch (cause) {
    throw new ConfigurationError('withOptions: the options could not be read.', { cause });
  }
  const internals = internalsOf(core);
  if (Object.keys(own).some((name) => !CALL_OPTIONS.includes(name))) return { ...internals.options, ...own } as DeliveryClientOptions;
  const { validate, ...callOptions } = own;
  const shared: CoreInternals = {
    options: { ...internals.options, ...own } as DeliveryClientOptions,
    config: internals.config,
    defaults: underneath(internals.defaults, callOptionsOf(callOptions)),
    lookupCache: internals.lookupCache,
    validation: 'validate' in own ? (resolveValidation(validate as DeliveryClientOptions['validate'], 'withOptions `validate`') ?? NONE) : internals.validation,
  };
  const token = {};
  sharedParts.set(token, { internals: shared, baseUrl: core.baseUrl });
  return token as DeliveryClientOptions;
}

// Outside the class: a class body that names its own class makes esbuild rename it (`_DeliveryCore`), and logs read `constructor.name`.
const coreOf = (options: DeliveryClientOptions): DeliveryCore => new DeliveryCore(options);

/**
 * What `core` holds (its transport settings, cache and validation), for the operations.
 *
 * @internal
 */
export function coreInternals(core: DeliveryCore): CoreInternals {
  requireCore(core);
  return internalsOf(core);
}

/**
 * Refuses a first argument that is not a {@link DeliveryCore}: a JavaScript caller's
 * `createDelivery(undefined, order)` gets a typed error, not a TypeError, and before any complaint
 * about the other arguments.
 *
 * @internal
 */
export function requireCore(core: unknown): asserts core is DeliveryCore {
  let isCore = false;
  try {
    isCore = core instanceof DeliveryCore;
  } catch {
    // a revoked Proxy: no prototype to compare, so no core
  }
  if (!isCore) throw new ConfigurationError(`The first argument of a delivery-sdk/functions call: expected a DeliveryCore, received ${shown(core)}.`);
}
