import { APIPromise } from '../core/api-promise.js';
import { type TtlCache, untilAborted } from '../core/cache.js';
import { checkRequestOptions, type RequestOptions } from '../core/config.js';
import { type Endpoint, type HttpClient, path, type QueryValue } from '../core/http.js';
import { coreInternals, type DeliveryCore } from '../functions/core.js';
import type { Address } from '../schemas/index.js';
import { isRecord } from '../schemas/predicates.js';
import { type ResolveAddressInput, resolveAddress } from './resolve-address.js';
import { listOf, requireId } from '../functions/shared.js';

export { CountryId, type Country } from './countries.js';

/**
 * A city of `lookup.cities`, as the service sends it (the spec does not show the record):
 * `{ _id, name, nameAr, code, alias, hub, sector, pickupAvailability, dropOffAvailability,
 * showAsDropOff, showAsPickup }`. Fields it adds are kept.
 */
export interface City {
  _id: string;
  /** The name to send as an address's `city`. */
  name: string;
  /** The name in Arabic. */
  nameAr?: string | undefined;
  /** The name in the local language, as some answers spell the Arabic name. */
  otherName?: string | undefined;
  /** Short code, e.g. `EG-01`. */
  code?: string | undefined;
  /** Another name the city goes by. */
  alias?: string | undefined;
  /** The hub that serves the city. */
  hub?: { _id: string; name: string; [field: string]: unknown } | undefined;
  sector?: number | undefined;
  /** Whether the service picks up anywhere in the city. */
  pickupAvailability?: boolean | undefined;
  /** Whether the service delivers anywhere in the city. */
  dropOffAvailability?: boolean | undefined;
  showAsDropOff?: boolean | undefined;
  showAsPickup?: boolean | undefined;
  [field: string]: unknown;
}

/** A zone of `lookup.zones`: `{ _id, name, nameAr, pickupAvailability, dropOffAvailability }`. */
export interface Zone {
  _id: string;
  name: string;
  /** The name in Arabic. */
  nameAr?: string | undefined;
  /** The name in the local language, as some answers spell the Arabic name. */
  otherName?: string | undefined;
  pickupAvailability?: boolean | undefined;
  dropOffAvailability?: boolean | undefined;
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

/**
 * One city of `lookup.allDistricts` with its district entries, as the service answers
 * `GET /cities/getAllDistricts`. Fields it adds are kept.
 */
export interface CityDistricts {
  cityId: string;
  cityName: string;
  /** City name in the local language (Arabic). */
  cityOtherName?: string | undefined;
  cityCode?: string | undefined;
  /** Whether the service picks up anywhere in the city. */
  pickupAvailability?: boolean | undefined;
  /** Whether the service delivers anywhere in the city. */
  dropOffAvailability?: boolean | undefined;
  districts: DistrictEntry[];
  [field: string]: unknown;
}

/**
 * The all-districts answer as one record per city. The service groups them so; a flat list of
 * district entries that each name their city (`cityId`, `cityName`, ...) is grouped here.
 */
function citiesWithDistricts(items: unknown[]): CityDistricts[] {
  const byCity = new Map<unknown, CityDistricts>();
  return items.flatMap((item): CityDistricts[] => {
    if (!isRecord(item)) return [];
    if (Array.isArray(item['districts'])) return [item as CityDistricts];
    const { cityId, cityName, cityOtherName, cityCode, ...entry } = item;
    const known = byCity.get(cityId ?? cityName);
    if (known !== undefined) {
      known.districts.push(entry as DistrictEntry);
      return [];
    }
    const city = { cityId, cityName, cityOtherName, cityCode, districts: [entry] } as CityDistricts;
    byCity.set(cityId ?? cityName, city);
    return [city];
  });
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
  constructor(core: DeliveryCore) {
    const { http, lookupCache } = coreInternals(core);
    this.#http = http;
    this.#cache = lookupCache;
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

  /**
   * Every city with its district entries (`GET /cities/getAllDistricts`), of one country when
   * `countryId` is given: one record per city, as the service answers.
   *
   * @example
   * ```ts
   * const cities = await client.lookup.allDistricts({ countryId: CountryId.Egypt });
   * const giza = cities.find((city) => city.cityName === 'Giza');
   * const served = giza?.districts.filter((district) => district.dropOffAvailability);
   * ```
   */
  allDistricts(params?: { countryId?: string | undefined }, options?: RequestOptions): APIPromise<CityDistricts[]> {
    // A bare string (`allDistricts('eg')`) is refused rather than quietly listing every country.
    const all = params == null || (typeof params === 'object' && params.countryId === undefined);
    return this.#list<CityDistricts>(() => ({ method: 'GET', path: '/cities/getAllDistricts', query: { countryId: all ? undefined : requireId(params.countryId, 'countryId') } }), options, citiesWithDistricts);
  }

  /**
   * Turns names into the address an order needs: `city` as the service spells it, `districtId`
   * and `zoneId`. Names are matched in any letter case and spacing, in English or Arabic
   * (`nameAr`), and ids are accepted too. Uses the (cached) lookup lists.
   *
   * `for` names the order field the address goes in, and so what the service must do there:
   * `'dropOffAddress'` (Deliver, Exchange) needs drop-off availability, `'pickupAddress'` (Cash
   * Collection, Customer Return Pickup, a business's pickup location) needs pickup availability,
   * of the city, the zone when given, and the district. There is no default: a Cash Collection
   * address checked for drop-off would pass here and be refused by `create`.
   *
   * @throws {ValidationError} before any request: a missing name or `for`, or a line `create`
   * would refuse (`firstLine` of 5 characters or less).
   * @throws `CityNotFoundError` 3001, `ZoneNotFoundError` 3002, `DistrictNotFoundError` 3003 (`source: 'client'`), naming the closest candidates.
   * @throws {ValidationError} when the city, zone or district is not served the way `for` needs
   * (`dropOffAvailability` or `pickupAvailability` false), or when the district's name is in
   * several zones and `zone` does not say which.
   *
   * @example
   * ```ts
   * const dropOffAddress = await client.lookup.resolveAddress({ city: 'giza', district: 'الدقي', firstLine: '12 Tahrir Street, 3rd floor', for: 'dropOffAddress' });
   * // { city: 'Giza', districtId: '…', zoneId: '…', firstLine: '12 Tahrir Street, 3rd floor' }
   * const pickupAddress = await client.lookup.resolveAddress({ city: 'القاهرة', district: 'Zamalek', firstLine: '7 Brazil Street', for: 'pickupAddress' });
   * await client.deliveries.create({ type: DeliveryType.CashCollection, pickupAddress, receiver, cod: 1200 });
   * ```
   */
  resolveAddress(input: ResolveAddressInput, options?: RequestOptions): Promise<Address> {
    return resolveAddress(this, input, options);
  }

  /** Forgets every cached lookup answer of this client. */
  clearCache(): void {
    this.#cache?.clear();
  }

  #list<T>(build: () => Endpoint<unknown>, options: RequestOptions | undefined, read: (items: unknown[]) => T[] = (items) => items as T[]): APIPromise<T[]> {
    const cache = this.#cache;
    let endpoint: Endpoint<unknown>;
    try {
      endpoint = build();
      if (options != null) checkRequestOptions(options); // before the cache, which handles `signal` itself
    } catch (error) {
      return new APIPromise(Promise.reject(error));
    }
    const listed: Endpoint<T[]> = { ...endpoint, transform: (data, answer) => read(listOf(data, answer)) };
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
