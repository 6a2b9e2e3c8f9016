import { findCityById } from './addresses.js';
import { districtEntry, SANDBOX_COUNTRY_IDS, seedData, type SeedCity } from './seed.js';
import { notFound, ok } from './wire.js';

const cityView = (city: SeedCity) => ({ _id: city._id, name: city.name, otherName: city.otherName, code: city.code });

function cityOr404(cityId: string): SeedCity {
  const city = findCityById(cityId);
  if (city === undefined) throw notFound('City Not Found', 3001);
  return city;
}

/** GET /cities?countryId=: Egypt's cities when countryId is left out, none for an unknown country. */
export function listCities(url: URL): Response {
  const countryId = url.searchParams.get('countryId') ?? SANDBOX_COUNTRY_IDS.egypt;
  return ok({ list: seedData().cities.filter((city) => city.countryId === countryId).map(cityView) });
}

/** GET /cities/<cityId>/districts: the spec's District entries. */
export function listDistricts(cityId: string): Response {
  const city = cityOr404(cityId);
  return ok(seedData().districts.filter((d) => d.cityId === city._id).map(districtEntry));
}

/** GET /cities/<cityId>/zones. */
export function listZones(cityId: string): Response {
  const city = cityOr404(cityId);
  return ok(seedData().zones.filter((zone) => zone.cityId === city._id).map((zone) => ({ _id: zone._id, name: zone.name, otherName: zone.otherName })));
}

/** GET /cities/getAllDistricts[?countryId=]: every district entry with its city; all countries without the query. */
export function listAllDistricts(url: URL): Response {
  const countryId = url.searchParams.get('countryId');
  const cities = seedData().cities.filter((city) => countryId === null || city.countryId === countryId);
  return ok(
    cities.flatMap((city) =>
      seedData()
        .districts.filter((d) => d.cityId === city._id)
        .map((d) => ({ ...districtEntry(d), cityId: city._id, cityName: city.name, cityOtherName: city.otherName })),
    ),
  );
}
