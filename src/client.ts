import { APIPromise } from './core/api-promise.js';
import type { HttpMethod, QueryValue } from './core/http.js';
import { onFirstUse } from './core/on-first-use.js';
import { DeliveryCore, optionsWith } from './functions/delivery-core.js';
import type { DeliveryClientOptions, RequestOptions } from './functions/options.js';
import { BusinessesResource } from './resources/businesses.js';
import { DeliveriesResource } from './resources/deliveries.js';
import { FulfillmentResource } from './resources/fulfillment.js';
import { LookupResource } from './resources/lookup.js';
import { PickupLocationsResource } from './resources/pickup-locations.js';
import { PickupsResource } from './resources/pickups.js';
import { PricingResource } from './resources/pricing.js';
import { operations } from './resources/resource.js';
import { UsersResource } from './resources/users.js';

const callApiCode = onFirstUse(() => import('./functions/call-api.js'));

/** A call of an endpoint the SDK does not wrap (yet). */
export interface RawRequest {
  /** GET and PUT are retried like any lookup; POST, PATCH and DELETE only when they surely were not processed (429, or never sent). */
  method: HttpMethod;
  /** Path below `baseUrl`, starting with `/`, e.g. `/deliveries/123`. */
  path: string;
  /** Query parameters, encoded for you; `undefined` values are left out. */
  query?: Record<string, QueryValue> | undefined;
  /** Sent as JSON; not validated (no spec rule is known for an unwrapped endpoint). */
  body?: unknown;
}

/**
 * The client of the Delivery Service API.
 *
 * @example
 * ```ts
 * const client = new DeliveryClient({ apiKey: process.env.DELIVERY_API_KEY, baseUrl: 'https://api.example.com/v2' });
 * const order = await client.deliveries.create({
 *   type: DeliveryType.Deliver,
 *   dropOffAddress: { city: 'Cairo', districtId: 'aiJudRHeOt', firstLine: '12 Talaat Harb Street' },
 *   receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
 *   cod: 250,
 * });
 * console.log(order.trackingNumber);
 * ```
 */
export class DeliveryClient {
  readonly #core: DeliveryCore;
  /** The base URL every path is relative to (ends in `/v2`). */
  readonly baseUrl: string;
  /** Cities, zones and districts (public, cached), and `resolveAddress` from names to ids. */
  readonly lookup: LookupResource;
  /** Registration of the business admin: `registerBusinessAdmin`, `verifyPhone`, `confirmPhone`, `confirmEmail` (public). */
  readonly users: UsersResource;
  /** `create` (basic or marketplace) and `updatePickupLocations`. */
  readonly businesses: BusinessesResource;
  /** `create` and `createBulk`; after creation `get`, `search`, `list`, `findByReference`, `update`, `terminate`, `airwayBills`, `resolveTrackingNumbers`. */
  readonly deliveries: DeliveriesResource;
  /** Pickup requests: `create`, `get`, `list`, `update`, `delete`, `availableDates`. */
  readonly pickups: PickupsResource;
  /** `list`: the business's pickup locations. */
  readonly pickupLocations: PickupLocationsResource;
  /** `calculate`: what an order would cost. */
  readonly pricing: PricingResource;
  /** `create` (FXF_SEND), `createReturn` (CUSTOMER_RETURN_PICKUP), `createBulky` and `previewBulkyMerge`. */
  readonly fulfillment: FulfillmentResource;

  /**
   * Sets the client up; nothing is sent until a method is called. One client per API key and
   * base URL is enough: it is safe to share, and the lookup cache lives in it.
   *
   * @throws `ConfigurationError` when an option is wrong: no `baseUrl`, or one that is not an
   * absolute https URL (`http://` only to loopback, or with `allowInsecureHttp`), a header name
   * or value that is not valid, a negative timeout, no `fetch` available.
   *
   * @example
   * ```ts
   * import { DeliveryClient } from 'delivery-sdk';
   *
   * // The key defaults to process.env.DELIVERY_API_KEY where `process` exists
   * const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2' });
   *
   * // Every option, with its default
   * const tuned = new DeliveryClient({
   *   baseUrl: 'https://api.example.com/v2',
   *   apiKey: process.env.DELIVERY_API_KEY,
   *   auth: { headerName: 'Authorization', scheme: '' }, // sends `Authorization: <apiKey>`
   *   timeout: 30_000, // per attempt
   *   totalTimeout: 120_000, // per call, retries and waits included
   *   maxRetries: 2,
   *   retryDelay: { base: 500, max: 8000 },
   *   cache: { ttl: 3_600_000 }, // lookup lists
   *   validate: true,
   *   logger: console,
   *   logLevel: 'info',
   * });
   * ```
   */
  constructor(options: DeliveryClientOptions) {
    const core = new DeliveryCore(options);
    this.#core = core;
    this.baseUrl = core.baseUrl;
    this.lookup = new LookupResource(core);
    this.users = new UsersResource(core);
    this.businesses = new BusinessesResource(core);
    this.deliveries = new DeliveriesResource(core);
    this.fulfillment = new FulfillmentResource(core);
    this.pickups = new PickupsResource(core);
    this.pickupLocations = new PickupLocationsResource(core);
    this.pricing = new PricingResource(core);
  }

  /**
   * A client with some options changed, for a platform that serves many merchants (one key per
   * business). The call options (`apiKey`, `timeout`, `totalTimeout`, `headers`, `maxRetries`,
   * `maxResponseBytes`) and `validate` share this client's transport, lookup cache and hooks: each
   * request carries its own key, and its errors and logs are scrubbed of it. Any other option
   * (`baseUrl`, `fetch`, `auth`, `logger`, ...) makes a client of its own from this one's options
   * with the changes. Every method also takes `apiKey` per call.
   *
   * @throws `ConfigurationError` for an option that is wrong, as the constructor does.
   *
   * @example
   * ```ts
   * const platform = new DeliveryClient({ baseUrl: 'https://api.example.com/v2' });
   * const merchant = platform.withOptions({ apiKey: process.env.MERCHANT_42_KEY });
   * await merchant.deliveries.create(order);
   * // or per call: await platform.deliveries.get('70000012', { apiKey: process.env.MERCHANT_42_KEY });
   * ```
   */
  withOptions(changes: Partial<DeliveryClientOptions>): DeliveryClient {
    return clientOf(optionsWith(this.#core, changes));
  }

  /**
   * Calls any endpoint with the client's auth, retries, timeouts and error mapping.
   * A POST is not repeated when its outcome is unknown, as for every wrapped method.
   *
   * @example
   * ```ts
   * const raw = await client.request<{ trackingNumber: string }>({ method: 'GET', path: '/deliveries/123' });
   * ```
   */
  request<T = unknown>(request: RawRequest, options?: RequestOptions): APIPromise<T> {
    const core = this.#core;
    const sent = operations(callApiCode).then(({ callApi }) =>
      callApi<T>(core, options, () => {
        // `?? {}`: a JavaScript caller's null becomes a ValidationError naming `method`, not a TypeError.
        const { method, path, query, body } = request ?? ({} as Partial<RawRequest>);
        return { input: body, endpoint: ({ json }) => ({ method: method as HttpMethod, path: path as string, query, json }) };
      }).withResponse(),
    );
    return new APIPromise(sent);
  }
}

// Outside the class: a class body that names its own class makes esbuild rename it (`_DeliveryClient`), and logs read `constructor.name`.
const clientOf = (options: DeliveryClientOptions): DeliveryClient => new DeliveryClient(options);
