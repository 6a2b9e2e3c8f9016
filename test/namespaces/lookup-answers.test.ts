import { describe, expect, it } from 'vitest';
import { AddressNotServedError, CityNotFoundError, CountryId, ValidationError } from '../../src/index.js';
import { allDistrictsByCity, allDistrictsFlat, cairoDistricts, cairoZones, cities } from '../fixtures/real/answers/lookup.js';
import { capture, HttpResponse, makeClient, useFakeService } from '../support/fake-service.js';

const server = useFakeService();

const answer = (body: object) => () => HttpResponse.json(body as Record<string, unknown>);

function serveRealLookups() {
  return {
    cities: capture(server, 'get', '/cities', answer(cities)),
    zones: capture(server, 'get', '/cities/:cityId/zones', answer(cairoZones)),
    districts: capture(server, 'get', '/cities/:cityId/districts', answer(cairoDistricts)),
  };
}

describe('lookup reads the records the service sends', () => {
  it('cities and zones: nameAr and the other fields typed and kept', async () => {
    serveRealLookups();
    const client = makeClient();
    const [cairo] = await client.lookup.cities({ countryId: CountryId.Egypt });
    expect(cairo).toEqual(cities.data[0]);
    expect(cairo?.nameAr).toBe('القاهرة');
    expect(cairo?.hub?.name).toBe('Cairo Hub');
    expect((await client.lookup.zones('FceDyHXwpSYCCoCqn'))[0]?.nameAr).toBe('مدينة نصر');
  });

  it('allDistricts: one record per city, its districts inside, as the service answers', async () => {
    capture(server, 'get', '/cities/getAllDistricts', answer(allDistrictsByCity));
    const all = await makeClient().lookup.allDistricts({ countryId: CountryId.Egypt });
    expect(all).toEqual(allDistrictsByCity.data);
    expect(all[0]?.districts[0]?.districtId).toBe('district-makram');
  });

  it('allDistricts: a flat list of entries naming their city is grouped the same way', async () => {
    capture(server, 'get', '/cities/getAllDistricts', answer(allDistrictsFlat));
    const all = await makeClient().lookup.allDistricts();
    expect(all.map((city) => [city.cityId, city.cityName, city.cityOtherName, city.cityCode, city.districts.length])).toEqual([
      ['FceDyHXwpSYCCoCqn', 'Cairo', 'القاهرة', 'EG-01', 2],
      ['ZyVK4AoKj6JmnqJEW', 'Aswan', 'أسوان', 'EG-22', 1],
    ]);
    expect(all[0]?.districts[1]).toEqual(cairoDistricts.data[1]);
  });

  it('the cache keeps the read list, whichever shape came: one request, equal answers, separate copies', async () => {
    for (const body of [allDistrictsByCity, allDistrictsFlat]) {
      const sent = capture(server, 'get', '/cities/getAllDistricts', answer(body));
      const client = makeClient();
      const first = await client.lookup.allDistricts();
      first.pop();
      const second = await client.lookup.allDistricts();
      expect(sent).toHaveLength(1);
      expect(second.map((city) => city.districts.map((d) => d.districtId))).toEqual([['district-makram', 'district-madinaty'], ['district-aswan']]);
      server.reset();
    }
  });
});

describe('resolveAddress with the real records', () => {
  it('matches a city by nameAr: { city: "القاهرة" } resolves', async () => {
    serveRealLookups();
    const address = await makeClient().lookup.resolveAddress({
      city: 'القاهرة',
      district: 'مكرم عبيد',
      firstLine: '5 Makram Ebeid Street',
      for: 'dropOffAddress',
    });
    expect(address).toEqual({ city: 'Cairo', districtId: 'district-makram', zoneId: 'zone-nasr-city', firstLine: '5 Makram Ebeid Street' });
  });

  it('matches a zone by nameAr', async () => {
    serveRealLookups();
    const address = await makeClient().lookup.resolveAddress({
      city: 'Cairo',
      zone: 'القاهرة الجديدة',
      district: 'Madinaty',
      firstLine: '12 Central Park Road',
      for: 'dropOffAddress',
    });
    expect(address.districtId).toBe('district-madinaty');
  });

  it('an unknown city names the closest by both names', async () => {
    serveRealLookups();
    const error = await makeClient()
      .lookup.resolveAddress({ city: 'القاهره الكبرى', district: 'x', firstLine: '5 Makram Ebeid Street', for: 'dropOffAddress' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CityNotFoundError);
    expect((error as Error).message).toMatch(/closest: Cairo \(القاهرة\)/);
  });
});

describe('resolveAddress knows which way the package goes (`for`)', () => {
  it('pickupAddress: a district the service does not pick up from is refused, naming the field; dropOffAddress takes it', async () => {
    serveRealLookups();
    const lookup = makeClient().lookup;
    const line = { city: 'Cairo', district: 'Madinaty', firstLine: '12 Central Park Road' };
    const error = await lookup.resolveAddress({ ...line, for: 'pickupAddress' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AddressNotServedError);
    expect((error as AddressNotServedError).issues).toEqual([
      { path: ['district'], message: 'the service does not pick up from Madinaty (مدينتي) in Cairo (القاهرة)' },
    ]);
    expect(error).toMatchObject({
      availability: 'pickupAvailability',
      place: { kind: 'district', id: 'district-madinaty', name: 'Madinaty', nameAr: 'مدينتي' },
    });
    expect((error as AddressNotServedError).hint).toBe('pickupAvailability is false in the lookup lists');
    expect((await lookup.resolveAddress({ ...line, for: 'dropOffAddress' })).districtId).toBe('district-madinaty');
  });

  it('pickupAddress: a city the service does not pick up from is refused before its districts are fetched', async () => {
    const { districts } = serveRealLookups();
    const error = await makeClient()
      .lookup.resolveAddress({ city: 'أسوان', district: 'Aswan City', firstLine: '1 Corniche Street', for: 'pickupAddress' })
      .catch((e: unknown) => e);
    expect((error as ValidationError).issues).toEqual([{ path: ['city'], message: 'the service does not pick up from Aswan (أسوان)' }]);
    expect(error).toMatchObject({ availability: 'pickupAvailability', place: { kind: 'city', name: 'Aswan' } });
    expect(districts).toHaveLength(0);
  });

  it('there is no default: without `for` nothing is looked up, and the error says what to give', async () => {
    const { cities: sent } = serveRealLookups();
    const lookup = makeClient().lookup;
    const missing = await lookup.resolveAddress({ city: 'Cairo', district: 'Madinaty', firstLine: '12 Central Park Road' } as never).catch((e: unknown) => e);
    expect((missing as ValidationError).issues).toEqual([
      { path: ['for'], message: "required: 'dropOffAddress' or 'pickupAddress', the order field the address goes in" },
    ]);
    const renamed = await lookup
      .resolveAddress({ city: 'Cairo', district: 'Madinaty', firstLine: '12 Central Park Road', purpose: 'pickup' } as never)
      .catch((e: unknown) => e);
    expect((renamed as ValidationError).hint).toBe('`purpose` is now `for`');
    expect((renamed as Error).message).not.toContain('purpose');
    expect(sent).toHaveLength(0);
  });

  it('refuses a firstLine that create would refuse (5 characters or less), before any request', async () => {
    const { cities: sent } = serveRealLookups();
    const error = await makeClient()
      .lookup.resolveAddress({ city: 'Cairo', district: 'Madinaty', firstLine: ' 12 A ', for: 'dropOffAddress' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([{ path: ['firstLine'], message: 'must be longer than 5 characters' }]);
    expect(sent).toHaveLength(0);
  });
});
