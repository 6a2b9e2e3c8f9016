/** The public lookup lists (no API key needed), cached per core, and address resolution over them. */
import { APIPromise } from '../core/api-promise.js';
import { untilAborted } from '../core/cache.js';
import { callOptionsOf } from '../core/config.js';
import { type Endpoint, path, type QueryValue } from '../core/http.js';
import type { CallOptions } from '../core/options.js';
import type { Address } from '../schemas/index.js';
import { isRecord } from '../schemas/predicates.js';
import { asTypedError } from './call-api.js';
import { coreInternals, type DeliveryCore, requireCore } from './delivery-core.js';
import type { RequestOptions } from './options.js';
import type { City, CityDistricts, DistrictEntry, Zone } from './places.js';
import { type ResolveAddressInput, resolveAddress as resolveWith } from './resolve-address.js';
import { listOf, requireId } from './shared.js';

export { type Country, CountryId } from './countries.js';

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
 * The cities of a country (`GET /cities?countryId=`), as `client.lookup.cities` does (cached per core).
 *
 * @example
 * ```ts
 * import { DeliveryCore, listCities } from 'delivery-sdk/functions';
 *
 * const cities = await listCities(new DeliveryCore({ baseUrl: 'https://api.example.com/v2' }), { countryId: '60e4482c7cb7d4bc4849c4d5' });
 * ```
 */
export function listCities(core: DeliveryCore, params: { countryId: string }, options?: RequestOptions): APIPromise<City[]> {
  return list<City>(core, () => ({ method: 'GET', path: '/cities', query: { countryId: requireId(params?.countryId, 'countryId') } }), options);
}

/**
 * The district entries of a city (`GET /cities/<cityId>/districts`), as `client.lookup.districts` does.
 *
 * @example
 * ```ts
 * import { DeliveryCore, listDistricts } from 'delivery-sdk/functions';
 *
 * const districts = await listDistricts(new DeliveryCore({ baseUrl: 'https://api.example.com/v2' }), 'city-id');
 * ```
 */
export function listDistricts(core: DeliveryCore, cityId: string, options?: RequestOptions): APIPromise<DistrictEntry[]> {
  return list<DistrictEntry>(core, () => ({ method: 'GET', path: path`/cities/${requireId(cityId, 'cityId')}/districts` }), options);
}

/**
 * The zones of a city (`GET /cities/<cityId>/zones`), as `client.lookup.zones` does.
 *
 * @example
 * ```ts
 * import { DeliveryCore, listZones } from 'delivery-sdk/functions';
 *
 * const zones = await listZones(new DeliveryCore({ baseUrl: 'https://api.example.com/v2' }), 'city-id');
 * ```
 */
export function listZones(core: DeliveryCore, cityId: string, options?: RequestOptions): APIPromise<Zone[]> {
  return list<Zone>(core, () => ({ method: 'GET', path: path`/cities/${requireId(cityId, 'cityId')}/zones` }), options);
}

/**
 * Every city with its district entries (`GET /cities/getAllDistricts`), as `client.lookup.allDistricts` does.
 *
 * @example
 * ```ts
 * import { DeliveryCore, listAllDistricts } from 'delivery-sdk/functions';
 *
 * const cities = await listAllDistricts(new DeliveryCore({ baseUrl: 'https://api.example.com/v2' }), { countryId: '60e4482c7cb7d4bc4849c4d5' });
 * ```
 */
export function listAllDistricts(core: DeliveryCore, params?: { countryId?: string | undefined }, options?: RequestOptions): APIPromise<CityDistricts[]> {
  return list<CityDistricts>(
    core,
    () => {
      // No `countryId`: every country. A bare string (`allDistricts('eg')`) is refused rather than quietly listing them all.
      const countryId = params === undefined || params === null ? undefined : typeof params === 'object' ? params.countryId : null;
      return { method: 'GET', path: '/cities/getAllDistricts', query: { countryId: countryId === undefined ? undefined : requireId(countryId, 'countryId') } };
    },
    options,
    citiesWithDistricts,
  );
}

/**
 * Turns place names into the address an order needs, as `client.lookup.resolveAddress` does
 * (see there for the matching rules and errors).
 *
 * @example
 * ```ts
 * import { DeliveryCore, createDelivery, resolveAddress } from 'delivery-sdk/functions';
 *
 * const core = new DeliveryCore({ apiKey: process.env.DELIVERY_API_KEY, baseUrl: 'https://api.example.com/v2' });
 * const dropOffAddress = await resolveAddress(core, { city: 'giza', district: 'الدقي', firstLine: '12 Tahrir Street, 3rd floor', for: 'dropOffAddress' });
 * await createDelivery(core, { type: 10, dropOffAddress, receiver: { phone: '+201012345678' } });
 * ```
 */
export function resolveAddress(core: DeliveryCore, input: ResolveAddressInput, options?: RequestOptions): Promise<Address> {
  try {
    requireCore(core); // not a core: that, before any complaint about the address
  } catch (error) {
    return Promise.reject(error);
  }
  return resolveWith(
    {
      cities: (params, callOptions) => listCities(core, params, callOptions),
      zones: (cityId, callOptions) => listZones(core, cityId, callOptions),
      districts: (cityId, callOptions) => listDistricts(core, cityId, callOptions),
    },
    input,
    options,
  );
}

function list<T>(
  core: DeliveryCore,
  build: () => Endpoint<unknown>,
  options: RequestOptions | undefined,
  read: (items: unknown[]) => T[] = (items) => items as T[],
): APIPromise<T[]> {
  let endpoint: Endpoint<unknown>;
  let internals: ReturnType<typeof coreInternals>;
  let own: CallOptions;
  try {
    internals = coreInternals(core);
    endpoint = build();
    own = callOptionsOf(options); // before the cache, which handles `signal` itself
  } catch (error) {
    return new APIPromise(Promise.reject(asTypedError(error)));
  }
  const { http, lookupCache: cache } = internals;
  // Public, as the spec says: sent without the key (a storefront page's key would be public anyway).
  const listed: Endpoint<T[]> = { ...endpoint, public: true, transform: (data, answer) => read(listOf(data, answer)) };
  if (cache === undefined) return http.request(listed, own);
  // The shared request must not die with the signal of whichever caller started it.
  const { signal, ...shared } = own;
  const key = `${endpoint.path}?${queryKey(endpoint.query)}`;
  const loaded = cache.get(key, () => http.request(listed, shared).withResponse());
  // A copy per caller: one caller sorting or filtering its array leaves the cached one alone.
  const copy = loaded.then(({ data, response }) => ({ data: data.slice(), response }));
  return new APIPromise(untilAborted(copy, signal, `GET ${endpoint.path}`));
}

function queryKey(query: Record<string, QueryValue> | undefined): string {
  return query === undefined ? '' : JSON.stringify(Object.entries(query).filter(([, value]) => value !== undefined));
}
