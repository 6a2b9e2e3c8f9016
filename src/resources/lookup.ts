import type { APIPromise } from '../core/api-promise.js';
import { onFirstUse } from '../core/on-first-use.js';
import { clearLookupCache } from '../functions/delivery-core.js';
import type { RequestOptions } from '../functions/options.js';
import type { City, CityDistricts, DistrictEntry, Zone } from '../functions/places.js';
import type { ResolveAddressInput } from '../functions/resolve-address.js';
import type { Address } from '../schemas/index.js';
import { operations, Resource } from './resource.js';

const lookupCode = onFirstUse(() => import('../functions/lookup.js'));

export { type Country, CountryId } from '../functions/countries.js';
export type { City, CityDistricts, DistrictEntry, Zone } from '../functions/places.js';

/**
 * The public lookup lists (no API key needed), cached per client (see the `cache` client
 * option), and `resolveAddress`, which turns place names into the ids orders need.
 */
export class LookupResource extends Resource {
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
    return this.onDemand(lookupCode, (loaded) => loaded.listCities(this.core, params, options));
  }

  /** The district entries of a city (`GET /cities/<cityId>/districts`); an unknown city is `CityNotFoundError` (3001). */
  districts(cityId: string, options?: RequestOptions): APIPromise<DistrictEntry[]> {
    return this.onDemand(lookupCode, (loaded) => loaded.listDistricts(this.core, cityId, options));
  }

  /** The zones of a city (`GET /cities/<cityId>/zones`). */
  zones(cityId: string, options?: RequestOptions): APIPromise<Zone[]> {
    return this.onDemand(lookupCode, (loaded) => loaded.listZones(this.core, cityId, options));
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
    return this.onDemand(lookupCode, (loaded) => loaded.listAllDistricts(this.core, params, options));
  }

  /**
   * Turns names into the address an order needs: `city` as the service spells it, `districtId`
   * and `zoneId`. Names are matched in any letter case and spacing, in English or Arabic
   * (`nameAr`), with or without the article (`El Dokki`, `Al-Dokki`, `دقي`) and in common
   * transliteration variants while that stays unambiguous; ids are accepted too. A zone's name
   * given as the district resolves to the zone's only district (or its district of the same
   * name). Uses the (cached) lookup lists.
   *
   * `for` names the order field the address goes in, and so what the service must do there:
   * `'dropOffAddress'` (Deliver, Exchange) needs drop-off availability, `'pickupAddress'` (Cash
   * Collection, Customer Return Pickup, a business's pickup location) needs pickup availability,
   * of the city, the zone when given, and the district. There is no default: a Cash Collection
   * address checked for drop-off would pass here and be refused by `create`.
   *
   * @throws `ValidationError` before any request: a missing name or `for`, a name over 100
   * characters, or a line `create` would refuse (`firstLine` of 5 characters or less).
   * @throws `CityNotFoundError` 3001, `ZoneNotFoundError` 3002, `DistrictNotFoundError` 3003
   * (`source: 'client'`), with `candidates` (`{ id, name, nameAr? }[]`, best first); a zone given
   * as the district is a `DistrictNotFoundError` whose candidates are the zone's districts.
   * @throws `AddressNotServedError` (a `ValidationError`) when the city, zone or district is not
   * served the way `for` needs: `availability` names the flag that is false, `place` the place.
   * @throws `ValidationError` when the district's name is in several zones and `zone` does not say which.
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
    return operations(lookupCode).then((loaded) => loaded.resolveAddress(this.core, input, options));
  }

  /** Forgets every cached lookup answer of this client. */
  clearCache(): void {
    clearLookupCache(this.core);
  }
}
