import { findCityById } from './addresses.js';
import { districtEntry, SANDBOX_COUNTRY_IDS, type SeedCity, type SeedDistrict, type SeedZone, seedData } from './seed.js';
import { notFound, ok } from './wire.js';

/** Whether the service picks up from / delivers to any of `districts`. */
function served(districts: readonly SeedDistrict[]) {
  return { pickupAvailability: districts.some((d) => d.pickupAvailability), dropOffAvailability: districts.some((d) => d.dropOffAvailability) };
}

const districtsOf = (city: SeedCity) => seedData().districts.filter((d) => d.cityId === city._id);

/** A city as the service sends it: `{ _id, name, nameAr, code, alias, hub, sector, ... }` (no `otherName`). */
function cityView(city: SeedCity) {
  const { pickupAvailability, dropOffAvailability } = served(districtsOf(city));
  return {
    _id: city._id,
    name: city.name,
    nameAr: city.otherName,
    code: city.code,
    alias: city.name,
    hub: { _id: `hub-${city._id.replace(/^city-/, '')}`, name: `${city.name} Hub` },
    sector: Number(city.code.replace(/^\D+-/, '')),
    pickupAvailability,
    dropOffAvailability,
    showAsDropOff: dropOffAvailability,
    showAsPickup: pickupAvailability,
  };
}

/** A zone as the service sends it: `{ _id, name, nameAr, pickupAvailability, dropOffAvailability }`. */
function zoneView(zone: SeedZone) {
  return { _id: zone._id, name: zone.name, nameAr: zone.otherName, ...served(seedData().districts.filter((d) => d.zoneId === zone._id)) };
}

function cityOr404(cityId: string): SeedCity {
  const city = findCityById(cityId);
  if (city === undefined) throw notFound('City Not Found', 3001);
  return city;
}

/** GET /cities?countryId=: Egypt's cities when countryId is left out, none for an unknown country. */
export function listCities(url: URL): Response {
  const countryId = url.searchParams.get('countryId') ?? SANDBOX_COUNTRY_IDS.egypt;
  return ok({
    list: seedData()
      .cities.filter((city) => city.countryId === countryId)
      .map(cityView),
  });
}

/** GET /cities/<cityId>/districts: the spec's District entries. */
export function listDistricts(cityId: string): Response {
  return ok(districtsOf(cityOr404(cityId)).map(districtEntry));
}

/** GET /cities/<cityId>/zones. */
export function listZones(cityId: string): Response {
  const city = cityOr404(cityId);
  return ok(
    seedData()
      .zones.filter((zone) => zone.cityId === city._id)
      .map(zoneView),
  );
}

/**
 * GET /cities/getAllDistricts[?countryId=]: one record per city with its district entries, as
 * the service answers; every country without the query.
 */
export function listAllDistricts(url: URL): Response {
  const countryId = url.searchParams.get('countryId');
  const cities = seedData().cities.filter((city) => countryId === null || city.countryId === countryId);
  return ok(
    cities.map((city) => {
      const districts = districtsOf(city);
      return {
        cityId: city._id,
        cityName: city.name,
        cityOtherName: city.otherName,
        cityCode: city.code,
        ...served(districts),
        districts: districts.map(districtEntry),
      };
    }),
  );
}
