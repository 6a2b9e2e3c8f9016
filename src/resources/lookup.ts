import { APIPromise } from '../core/api-promise.js';
import { TtlCache, untilAborted } from '../core/cache.js';
import { checkRequestOptions, type RequestOptions } from '../core/config.js';
import { type Endpoint, type HttpClient, path, type QueryValue } from '../core/http.js';
import type { Address } from '../schemas/index.js';
import { type ResolveAddressInput, resolveAddress } from './resolve-address.js';
import { listOf, requireId } from './shared.js';

export { CountryId, type Country } from './countries.js';

/** A city of `lookup.cities`. The spec does not show the record; these fields are what the service is known to send. */
export interface City {
  _id: string;
  /** The name to send as an address's `city`. */
  name: string;
  /** The name in the local language (Arabic). */
  otherName?: string;
  /** Short code, e.g. `EG-01`. */
  code?: string;
  [field: string]: unknown;
}

/** A zone of `lookup.zones`. */
export interface Zone {
  _id: string;
  name: string;
  /** The name in the local language (Arabic). */
  otherName?: string;
  [field: string]: unknown;
}

/** A district entry, as the spec's table lists it; fields the service adds are kept. */
export interface DistrictEntry {
  zoneId: string;
  zoneName: string;
  /** Zone name in the local language (Arabic). */
  zoneOtherName: string;
  districtId: string;
  districtName: string;
  /** District name in the local language (Arabic). */
  districtOtherName: string;
  /** Whether the service picks up from this district. */
  pickupAvailability: boolean;
  /** Whether the service delivers to this district. */
  dropOffAvailability: boolean;
  /** Who covers the district. */
  coverage: string;
  [field: string]: unknown;
}

/** A district entry of `lookup.allDistricts`, which also names its city. */
export interface DistrictWithCity extends DistrictEntry {
  cityId?: string;
  cityName?: string;
  cityOtherName?: string;
}

/**
 * The public lookup lists (no API key needed), cached per client (see the `cache` client
 * option), and `resolveAddress`, which turns place names into the ids orders need.
 */
export class LookupResource {
  // Private, so util.inspect of the client never reaches the headers (and the key) through here.
  readonly #http: HttpClient;
  readonly #cache: TtlCache | undefined;

  /** @hidden The client builds it. */
  constructor(http: HttpClient, ttl: number | false) {
    this.#http = http;
    this.#cache = ttl === false ? undefined : new TtlCache(ttl);
  }

  /**
   * The cities of a country (`GET /cities?countryId=`).
   *
   * @example
   * ```ts
   * const cities = await client.lookup.cities({ countryId: CountryId.Egypt });
   * const cairo = cities.find((city) => city.name === 'Cairo');
   * ```
   */
  cities(params: { countryId: string }, options?: RequestOptions): APIPromise<City[]> {
    return this.#list<City>(() => ({ method: 'GET', path: '/cities', query: { countryId: requireId(params?.countryId, 'countryId') } }), options);
  }

  /** The district entries of a city (`GET /cities/<cityId>/districts`); an unknown city is `CityNotFoundError` (3001). */
  districts(cityId: string, options?: RequestOptions): APIPromise<DistrictEntry[]> {
    return this.#list<DistrictEntry>(() => ({ method: 'GET', path: path`/cities/${requireId(cityId, 'cityId')}/districts` }), options);
  }

  /** The zones of a city (`GET /cities/<cityId>/zones`). */
  zones(cityId: string, options?: RequestOptions): APIPromise<Zone[]> {
    return this.#list<Zone>(() => ({ method: 'GET', path: path`/cities/${requireId(cityId, 'cityId')}/zones` }), options);
  }

  /** Every district entry of every city (`GET /cities/getAllDistricts`), of one country when `countryId` is given. */
  allDistricts(params?: { countryId?: string | undefined }, options?: RequestOptions): APIPromise<DistrictWithCity[]> {
    // A bare string (`allDistricts('eg')`) is refused rather than quietly listing every country.
    const all = params == null || (typeof params === 'object' && params.countryId === undefined);
    return this.#list<DistrictWithCity>(() => ({ method: 'GET', path: '/cities/getAllDistricts', query: { countryId: all ? undefined : requireId(params.countryId, 'countryId') } }), options);
  }

  /**
   * Turns names into the address an order needs: `city` as the service spells it, `districtId`
   * and `zoneId`. Names are matched in any letter case and spacing, in English or Arabic, and
   * ids are accepted too. Uses the (cached) lookup lists.
   *
   * @throws `CityNotFoundError` 3001, `ZoneNotFoundError` 3002, `DistrictNotFoundError` 3003 (`source: 'client'`), naming the closest candidates.
   * @throws {ValidationError} when the district is not served for `purpose` (default `'dropOff'`:
   * `dropOffAvailability` false; `'pickup'`: `pickupAvailability` false), or when its name is in
   * several zones and `zone` does not say which.
   *
   * @example
   * ```ts
   * const dropOffAddress = await client.lookup.resolveAddress({ city: 'giza', district: 'الدقي', firstLine: '12 Tahrir Street, 3rd floor' });
   * // { city: 'Giza', districtId: '…', zoneId: '…', firstLine: '12 Tahrir Street, 3rd floor' }
   * ```
   */
  resolveAddress(input: ResolveAddressInput, options?: RequestOptions): Promise<Address> {
    return resolveAddress(this, input, options);
  }

  /** Forgets every cached lookup answer of this client. */
  clearCache(): void {
    this.#cache?.clear();
  }

  #list<T>(build: () => Endpoint<unknown>, options: RequestOptions | undefined): APIPromise<T[]> {
    const cache = this.#cache;
    let endpoint: Endpoint<unknown>;
    try {
      endpoint = build();
      if (options != null) checkRequestOptions(options); // before the cache, which handles `signal` itself
    } catch (error) {
      return new APIPromise(Promise.reject(error));
    }
    const listed: Endpoint<T[]> = { ...endpoint, transform: (data, answer) => listOf(data, answer) as T[] };
    if (cache === undefined) return this.#http.request(listed, options);
    // The shared request must not die with the signal of whichever caller started it.
    const { signal, ...shared } = options ?? {};
    const key = `${endpoint.path}?${queryKey(endpoint.query)}`;
    const loaded = cache.get(key, () => this.#http.request(listed, shared).withResponse());
    // A copy per caller: one caller sorting or filtering its array leaves the cached one alone.
    const own = loaded.then(({ data, response }) => ({ data: data.slice(), response }));
    return new APIPromise(untilAborted(own, signal, `GET ${endpoint.path}`));
  }
}

function queryKey(query: Record<string, QueryValue> | undefined): string {
  return query === undefined ? '' : JSON.stringify(Object.entries(query).filter(([, value]) => value !== undefined));
}
