/** The public lookup lists (no API key needed), cached per client (its `cache` option). */
import { isRecord } from '../../internal/guards.js';
import { requireId } from '../../internal/url.js';
import { listOf } from '../answers.js';
import { endpoint } from '../endpoint.js';
import type { City, CityDistricts, DistrictEntry, Zone } from './places.js';

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
 * The cities of a country (`GET /cities?countryId=`).
 *
 * @chunk lookup
 *
 * @example
 * ```ts
 * const cities = await client.lookup.cities({ countryId: CountryId.Egypt });
 * const cairo = cities.find((city) => city.name === 'Cairo');
 * ```
 */
export const listCities = /* @__PURE__ */ endpoint<[params: { countryId: string }], City[]>({
  name: 'lookup.cities',
  method: 'GET',
  route: '/cities',
  request: (params) => ({ query: { countryId: requireId(params?.countryId, 'countryId') } }),
  answer: (data, context) => listOf(data, context) as City[],
  public: true,
  cached: true,
});

/**
 * The district entries of a city (`GET /cities/{cityId}/districts`).
 *
 * @chunk lookup
 *
 * @throws `CityNotFoundError` (3001) for a city the service does not know.
 *
 * @example
 * ```ts
 * const districts = await client.lookup.districts(cairoId);
 * ```
 */
export const listDistricts = /* @__PURE__ */ endpoint<[cityId: string], DistrictEntry[]>({
  name: 'lookup.districts',
  method: 'GET',
  route: '/cities/{cityId}/districts',
  answer: (data, context) => listOf(data, context) as DistrictEntry[],
  public: true,
  cached: true,
});

/**
 * The zones of a city (`GET /cities/{cityId}/zones`).
 *
 * @chunk lookup
 *
 * @example
 * ```ts
 * const zones = await client.lookup.zones(cairoId);
 * ```
 */
export const listZones = /* @__PURE__ */ endpoint<[cityId: string], Zone[]>({
  name: 'lookup.zones',
  method: 'GET',
  route: '/cities/{cityId}/zones',
  answer: (data, context) => listOf(data, context) as Zone[],
  public: true,
  cached: true,
});

/**
 * Every city with its district entries (`GET /cities/getAllDistricts`), of one country when
 * `countryId` is given: one record per city, as the service answers.
 *
 * @chunk lookup
 *
 * @example
 * ```ts
 * const cities = await client.lookup.allDistricts({ countryId: CountryId.Egypt });
 * const giza = cities.find((city) => city.cityName === 'Giza');
 * const served = giza?.districts.filter((district) => district.dropOffAvailability);
 * ```
 */
export const listAllDistricts = /* @__PURE__ */ endpoint<[params?: { countryId?: string | undefined }], CityDistricts[]>({
  name: 'lookup.allDistricts',
  method: 'GET',
  route: '/cities/getAllDistricts',
  request: (params) => {
    // No `countryId`: every country. A bare string (`allDistricts('eg')`) is refused rather than quietly listing them all.
    const countryId = params === undefined || params === null ? undefined : typeof params === 'object' ? params.countryId : null;
    return { query: { countryId: countryId === undefined ? undefined : requireId(countryId, 'countryId') } };
  },
  answer: (data, context) => citiesWithDistricts(listOf(data, context)),
  public: true,
  cached: true,
});
