import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AddressNotServedError,
  CityNotFoundError,
  ConfigurationError,
  CountryId,
  DistrictNotFoundError,
  NotFoundError,
  RequestAbortedError,
  type ResolveAddressInput,
  ResponseShapeError,
  ValidationError,
  ZoneNotFoundError,
} from '../../src/index.js';
import { capture, delay, errorBody, HttpResponse, KEY, makeClient, ok, useFakeService } from '../support/fake-service.js';

const server = useFakeService();
afterEach(() => vi.useRealTimers());

const cities = [
  { _id: 'city-cairo', name: 'Cairo', otherName: 'القاهرة', code: 'EG-01' },
  { _id: 'city-giza', name: 'Giza', otherName: 'الجيزة', code: 'EG-02', population: 9_000_000 },
  { _id: 'city-alex', name: 'Alexandria', otherName: 'الإسكندرية', code: 'EG-03' },
];
const zone = (id: string, name: string, otherName: string) => ({ zoneId: id, zoneName: name, zoneOtherName: otherName });
const district = (z: ReturnType<typeof zone>, districtId: string, districtName: string, districtOtherName: string, pickup = true, dropOff = true) => ({
  ...z,
  districtId,
  districtName,
  districtOtherName,
  pickupAvailability: pickup,
  dropOffAvailability: dropOff,
  coverage: 'OWN_FLEET',
});
const DOKKI = zone('zone-dokki', 'Dokki', 'الدقي');
const HARAM = zone('zone-haram', 'Haram', 'الهرم');
const FAISAL = zone('zone-faisal', 'Faisal', 'فيصل');
const SOUTH = zone('zone-south', 'South Giza', 'جنوب الجيزة');
const gizaDistricts = [
  district(DOKKI, 'district-dokki', 'Dokki', 'الدقي'),
  district(DOKKI, 'district-mohandessin', 'Mohandessin', 'المهندسين'),
  district(HARAM, 'district-haram-faisal', 'Faisal', 'فيصل'),
  district(FAISAL, 'district-faisal-faisal', 'Faisal', 'فيصل'),
  district(SOUTH, 'district-ayyat', 'Al Ayyat', 'العياط', true, false),
  district(SOUTH, 'district-october', 'Hadayek October', 'حدائق أكتوبر', false, true),
];
const gizaZones = [DOKKI, HARAM, FAISAL, SOUTH].map((z) => ({ _id: z.zoneId, name: z.zoneName, otherName: z.zoneOtherName }));

/** Serves the lookup lists (cities wrapped in `{ list }`, the others as arrays) and counts requests per path. */
function serveLookups() {
  const citiesSent = capture(server, 'get', '/cities', () => ok({ list: cities }));
  const districtsSent = capture(server, 'get', '/cities/:cityId/districts', (sent) =>
    sent.path === '/cities/city-giza/districts' ? ok(gizaDistricts) : ok([]),
  );
  const zonesSent = capture(server, 'get', '/cities/:cityId/zones', () => ok(gizaZones));
  return { citiesSent, districtsSent, zonesSent };
}

describe('lookup lists (public, GET, no apiVersion)', () => {
  it('cities: GET /cities?countryId=, a plain array out of the { list } wrapper, extra fields kept', async () => {
    const { citiesSent } = serveLookups();
    const result = await makeClient().lookup.cities({ countryId: CountryId.Egypt });
    expect(citiesSent).toHaveLength(1);
    expect(citiesSent[0]).toMatchObject({ method: 'GET', path: '/cities', search: '?countryId=60e4482c7cb7d4bc4849c4d5', text: '' });
    expect(citiesSent[0]?.headers['content-type']).toBeUndefined();
    expect(citiesSent[0]?.headers['accept']).toBe('application/json');
    expect(result).toEqual(cities);
    expect(Array.isArray(result)).toBe(true);
    expect(result[1]?.['population']).toBe(9_000_000);
  });

  it('districts and zones: the city id is a path segment, percent-encoded; an array answer is returned as it is', async () => {
    const sent = capture(server, 'get', '/cities/:cityId/:list', () => ok(gizaDistricts));
    const client = makeClient();
    expect(await client.lookup.districts('city-giza')).toEqual(gizaDistricts);
    await client.lookup.zones('city/giza ü');
    expect(sent.map((s) => [s.method, s.path, s.search])).toEqual([
      ['GET', '/cities/city-giza/districts', ''],
      ['GET', '/cities/city%2Fgiza%20%C3%BC/zones', ''],
    ]);
  });

  it('allDistricts: GET /cities/getAllDistricts, with countryId only when given', async () => {
    const sent = capture(server, 'get', '/cities/getAllDistricts', () => ok({ list: [{ ...gizaDistricts[0], cityId: 'city-giza', cityName: 'Giza' }] }));
    const client = makeClient();
    const all = await client.lookup.allDistricts();
    await client.lookup.allDistricts({ countryId: CountryId.KSA });
    expect(sent.map((s) => s.search)).toEqual(['', '?countryId=eF-3f9FZr']);
    // An answer of entries that each name their city is read as the service's one record per city.
    expect(all).toEqual([{ cityId: 'city-giza', cityName: 'Giza', districts: [gizaDistricts[0]] }]);
  });

  it('an unknown city is the 3001 class from the server', async () => {
    capture(server, 'get', '/cities/:cityId/districts', () => HttpResponse.json(errorBody(3001, 'City Not Found'), { status: 404 }));
    const error = await makeClient()
      .lookup.districts('nowhere')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CityNotFoundError);
    expect(error).toMatchObject({ source: 'server', status: 404, errorCode: 3001 });
  });

  it('an unknown path without a code is a NotFoundError', async () => {
    capture(server, 'get', '/cities/:cityId/zones', () => HttpResponse.json(errorBody(undefined, 'Not Found'), { status: 404 }));
    await expect(makeClient().lookup.zones('city-giza')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('a 2xx body that is no list is a ResponseShapeError naming the request', async () => {
    capture(server, 'get', '/cities', () => ok({ cities: 'nope' }));
    const error = await makeClient({ maxRetries: 0 })
      .lookup.cities({ countryId: CountryId.Egypt })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as ResponseShapeError).message).toMatch(/GET .*\/cities\?countryId=.* neither a list/);
  });

  it('refuses an empty city id or countryId before sending', async () => {
    const sent = capture(server, 'get', '/cities/:cityId/districts', () => ok([]));
    const client = makeClient();
    const error = await client.lookup.districts('  ').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([{ path: ['cityId'], message: "expected a non-empty string, received '  '" }]);
    await expect(client.lookup.cities({ countryId: '' })).rejects.toBeInstanceOf(ValidationError);
    expect(sent).toHaveLength(0);
  });
});

describe('the public lookups and the key', () => {
  it('sends no key to the lookups: a storefront page need not hold one, and a server sends it nowhere it is not needed', async () => {
    const sent = ['/cities', '/cities/city-giza/districts', '/cities/city-giza/zones', '/cities/getAllDistricts'].map((path) =>
      capture(server, 'get', path, () => ok([])),
    );
    const client = makeClient({ cache: false });
    await client.lookup.cities({ countryId: CountryId.Egypt });
    await client.lookup.districts('city-giza');
    await client.lookup.zones('city-giza');
    await client.lookup.allDistricts();
    for (const requests of sent) {
      expect(requests).toHaveLength(1);
      expect(requests[0]?.headers['authorization']).toBeUndefined();
    }
  });

  it('leaves out a key sent under a header name of its own too, and keeps the headers of the call', async () => {
    const sent = capture(server, 'get', '/cities', () => ok([]));
    const client = makeClient({ cache: false, auth: { headerName: 'X-Api-Key' } });
    await client.lookup.cities({ countryId: CountryId.Egypt }, { headers: { 'X-Request-Id': 'r-1' } });
    expect(sent[0]?.headers['x-api-key']).toBeUndefined();
    expect(sent[0]?.headers['x-request-id']).toBe('r-1');
  });

  it('sends the key to them with auth.sendToPublicEndpoints, for a proxy that asks for it everywhere; other calls send it always', async () => {
    const sent = capture(server, 'get', '/cities', () => ok([]));
    const order = capture(server, 'get', '/deliveries/business/1', () => ok({ _id: 'o1', trackingNumber: '1' }));
    await makeClient({ cache: false, auth: { sendToPublicEndpoints: true } }).lookup.cities({ countryId: CountryId.Egypt });
    expect(sent[0]?.headers['authorization']).toBe(KEY);
    await makeClient().deliveries.get('1');
    expect(order[0]?.headers['authorization']).toBe(KEY);
  });
});

describe('lookup cache', () => {
  it('keeps answers for the TTL (default one hour), then asks again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { citiesSent } = serveLookups();
    const client = makeClient();
    await client.lookup.cities({ countryId: CountryId.Egypt });
    vi.setSystemTime(Date.now() + 59 * 60_000);
    await client.lookup.cities({ countryId: CountryId.Egypt });
    expect(citiesSent).toHaveLength(1);
    vi.setSystemTime(Date.now() + 2 * 60_000);
    await client.lookup.cities({ countryId: CountryId.Egypt });
    expect(citiesSent).toHaveLength(2);
  });

  it('takes its TTL from the cache option', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { zonesSent } = serveLookups();
    const client = makeClient({ cache: { ttl: 1000 } });
    await client.lookup.zones('city-giza');
    vi.setSystemTime(Date.now() + 999);
    await client.lookup.zones('city-giza');
    expect(zonesSent).toHaveLength(1);
    vi.setSystemTime(Date.now() + 2);
    await client.lookup.zones('city-giza');
    expect(zonesSent).toHaveLength(2);
  });

  it('keys on path and query: another country or city is another request', async () => {
    const { citiesSent, zonesSent } = serveLookups();
    const client = makeClient();
    await client.lookup.cities({ countryId: CountryId.Egypt });
    await client.lookup.cities({ countryId: CountryId.KSA });
    await client.lookup.cities({ countryId: CountryId.Egypt });
    await client.lookup.zones('city-giza');
    await client.lookup.zones('city-cairo');
    expect(citiesSent.map((s) => s.search)).toEqual(['?countryId=60e4482c7cb7d4bc4849c4d5', '?countryId=eF-3f9FZr']);
    expect(zonesSent).toHaveLength(2);
  });

  it('shares one request between concurrent identical calls', async () => {
    const sent = capture(server, 'get', '/cities', async () => {
      await delay(30);
      return ok({ list: cities });
    });
    const client = makeClient();
    const results = await Promise.all([1, 2, 3].map(() => client.lookup.cities({ countryId: CountryId.Egypt })));
    expect(sent).toHaveLength(1);
    expect(results.every((list) => list.length === 3)).toBe(true);
  });

  it('gives each caller its own array', async () => {
    serveLookups();
    const client = makeClient();
    const first = await client.lookup.cities({ countryId: CountryId.Egypt });
    first.pop();
    expect(await client.lookup.cities({ countryId: CountryId.Egypt })).toHaveLength(3);
  });

  it('lets one caller abort without failing the others sharing the request', async () => {
    const sent = capture(server, 'get', '/cities', async () => {
      await delay(40);
      return ok({ list: cities });
    });
    const client = makeClient();
    const controller = new AbortController();
    const aborted = client.lookup.cities({ countryId: CountryId.Egypt }, { signal: controller.signal });
    const patient = client.lookup.cities({ countryId: CountryId.Egypt });
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(RequestAbortedError);
    expect(await patient).toHaveLength(3);
    expect(sent).toHaveLength(1);
  });

  it('does not keep failures: the next call asks again', async () => {
    let calls = 0;
    capture(server, 'get', '/cities', () => (++calls === 1 ? HttpResponse.json(errorBody(undefined, 'down'), { status: 503 }) : ok({ list: cities })));
    const client = makeClient({ maxRetries: 0 });
    await expect(client.lookup.cities({ countryId: CountryId.Egypt })).rejects.toThrow(/503/);
    expect(await client.lookup.cities({ countryId: CountryId.Egypt })).toHaveLength(3);
    expect(calls).toBe(2);
  });

  it('is off with cache: false, and emptied by clearCache()', async () => {
    const { citiesSent } = serveLookups();
    const uncached = makeClient({ cache: false });
    await Promise.all([uncached.lookup.cities({ countryId: CountryId.Egypt }), uncached.lookup.cities({ countryId: CountryId.Egypt })]);
    await uncached.lookup.cities({ countryId: CountryId.Egypt });
    expect(citiesSent).toHaveLength(3);

    const cached = makeClient();
    await cached.lookup.cities({ countryId: CountryId.Egypt });
    cached.lookup.clearCache();
    await cached.lookup.cities({ countryId: CountryId.Egypt });
    expect(citiesSent).toHaveLength(5);
  });

  it('is per client', async () => {
    const { citiesSent } = serveLookups();
    await makeClient().lookup.cities({ countryId: CountryId.Egypt });
    await makeClient().lookup.cities({ countryId: CountryId.Egypt });
    expect(citiesSent).toHaveLength(2);
  });

  it('refuses a negative TTL', () => {
    expect(() => makeClient({ cache: { ttl: -1 } })).toThrow(ConfigurationError);
  });
});

describe('resolveAddress', () => {
  it('turns names into the first address format: city as listed, districtId, zoneId, the lines as given', async () => {
    serveLookups();
    const address = await makeClient().lookup.resolveAddress({
      city: 'giza',
      district: 'Dokki',
      firstLine: '12 Tahrir Street',
      buildingNumber: '12',
      floor: '3',
      for: 'dropOffAddress',
    });
    expect(address).toEqual({
      city: 'Giza',
      districtId: 'district-dokki',
      zoneId: 'zone-dokki',
      firstLine: '12 Tahrir Street',
      buildingNumber: '12',
      floor: '3',
    });
  });

  it('matches in any letter case and spacing, in Arabic with or without diacritics and hamza, and by id', async () => {
    serveLookups();
    const lookup = makeClient().lookup;
    const resolve = (city: string, district: string, use: 'pickupAddress' | 'dropOffAddress' = 'dropOffAddress') =>
      lookup.resolveAddress({ city, district, firstLine: 'Street 1234', for: use }).then((a) => a.districtId);
    expect(await resolve('  GIZA ', 'moHANdessin')).toBe('district-mohandessin');
    expect(await resolve('الجيزة', 'الدُّقِّي')).toBe('district-dokki');
    expect(await resolve('الجيزه', 'المهندسين')).toBe('district-mohandessin');
    expect(await resolve('city-giza', 'حدائق اكتوبر')).toBe('district-october');
    expect(await resolve('EG-02', 'district-ayyat', 'pickupAddress')).toBe('district-ayyat');
  });

  it('uses the cached lists: two resolutions, one request per list', async () => {
    const { citiesSent, districtsSent } = serveLookups();
    const lookup = makeClient().lookup;
    await lookup.resolveAddress({ city: 'Giza', district: 'Dokki', firstLine: 'Street 1234', for: 'dropOffAddress' });
    await lookup.resolveAddress({ city: 'Giza', district: 'Mohandessin', firstLine: 'Street 5678', for: 'dropOffAddress' });
    expect(citiesSent).toHaveLength(1);
    expect(districtsSent).toHaveLength(1);
  });

  it('an unknown city is CityNotFoundError (3001, client) naming the country searched, the closest cities, and how to search another', async () => {
    const { districtsSent } = serveLookups();
    const error = await makeClient()
      .lookup.resolveAddress({ city: 'Gizah', district: 'Dokki', firstLine: 'Street 1234', for: 'dropOffAddress' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CityNotFoundError);
    const coded = error as CityNotFoundError;
    expect(coded.source).toBe('client');
    expect(coded.issues[0]).toMatchObject({ path: ['city'], errorCode: 3001 });
    expect(coded.message).toMatch(/^City Not Found: no city matches 'Gizah' in Egypt; closest: Giza \(الجيزة\)/);
    expect(coded.message).not.toContain('CountryId');
    expect(coded.hint).toBe('searched countryId: CountryId.Egypt, the default; for KSA pass countryId: CountryId.KSA');
    expect(coded.hint).not.toContain(CountryId.Egypt);
    expect(coded.candidates[0]).toEqual({ id: 'city-giza', name: 'Giza', nameAr: 'الجيزة' });
    expect(districtsSent).toHaveLength(0);
  });

  it('an unknown district is DistrictNotFoundError (3003) naming the closest, in Arabic too', async () => {
    serveLookups();
    const error = await makeClient()
      .lookup.resolveAddress({ city: 'Giza', district: 'Mohandisin', firstLine: 'Street 1234', for: 'dropOffAddress' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DistrictNotFoundError);
    expect((error as DistrictNotFoundError).message).toMatch(/no district matches 'Mohandisin' in Giza \(الجيزة\); closest: Mohandessin \(المهندسين\)/);
    const arabic = await makeClient()
      .lookup.resolveAddress({ city: 'Giza', district: 'العياظ', firstLine: 'Street 1234', for: 'dropOffAddress' })
      .catch((e: unknown) => e);
    expect((arabic as Error).message).toMatch(/closest: Al Ayyat \(العياط\)/);
  });

  it('an unknown zone is ZoneNotFoundError (3002); a zone narrows the districts searched', async () => {
    serveLookups();
    const lookup = makeClient().lookup;
    const error = await lookup
      .resolveAddress({ city: 'Giza', zone: 'Harm', district: 'Faisal', firstLine: 'Street 1234', for: 'dropOffAddress' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZoneNotFoundError);
    expect((error as Error).message).toMatch(/no zone matches 'Harm' in Giza \(الجيزة\); closest: Haram \(الهرم\)/);
    const outside = await lookup
      .resolveAddress({ city: 'Giza', zone: 'Haram', district: 'Dokki', firstLine: 'Street 1234', for: 'dropOffAddress' })
      .catch((e: unknown) => e);
    expect(outside).toBeInstanceOf(DistrictNotFoundError);
    expect((outside as Error).message).toMatch(/in zone Haram \(الهرم\) of Giza; closest: Faisal/);
  });

  it('reads zone: null (a database row without one) as no zone, not as a name to match', async () => {
    const { zonesSent } = serveLookups();
    const row = { city: 'Giza', zone: null, district: 'Dokki', firstLine: 'Street 1234', for: 'dropOffAddress' } as unknown as ResolveAddressInput;
    await expect(makeClient().lookup.resolveAddress(row)).resolves.toMatchObject({ districtId: 'district-dokki', zoneId: 'zone-dokki' });
    expect(zonesSent).toHaveLength(0);
  });

  it('a district name found in several zones needs the zone, and resolves with it', async () => {
    serveLookups();
    const lookup = makeClient().lookup;
    const error = await lookup.resolveAddress({ city: 'Giza', district: 'Faisal', firstLine: 'Street 1234', for: 'dropOffAddress' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      { path: ['zone'], message: "required: 'Faisal' is a district of several zones in Giza (الجيزة) (Haram (الهرم), Faisal (فيصل))" },
    ]);
    const address = await lookup.resolveAddress({ city: 'Giza', zone: 'الهرم', district: 'Faisal', firstLine: 'Street 1234', for: 'dropOffAddress' });
    expect(address).toMatchObject({ districtId: 'district-haram-faisal', zoneId: 'zone-haram' });
  });

  it('refuses a district without drop-off for a dropOffAddress, or without pickup for a pickupAddress, naming the field', async () => {
    serveLookups();
    const lookup = makeClient().lookup;
    const noDropOff = await lookup
      .resolveAddress({ city: 'Giza', district: 'Al Ayyat', firstLine: 'Street 1234', for: 'dropOffAddress' })
      .catch((e: unknown) => e);
    expect(noDropOff).toBeInstanceOf(AddressNotServedError);
    expect(noDropOff).toBeInstanceOf(ValidationError); // still caught where ValidationError is
    expect((noDropOff as ValidationError).issues[0]?.path).toEqual(['district']);
    expect((noDropOff as Error).message).toBe('District not served for drop-off: district: the service does not deliver to Al Ayyat (العياط) in Giza (الجيزة)');
    expect(noDropOff).toMatchObject({
      availability: 'dropOffAvailability',
      place: { kind: 'district', id: 'district-ayyat', name: 'Al Ayyat', nameAr: 'العياط' },
    });
    const noPickup = await lookup
      .resolveAddress({ city: 'Giza', district: 'Hadayek October', firstLine: 'Street 1234', for: 'pickupAddress' })
      .catch((e: unknown) => e);
    expect((noPickup as Error).message).toMatch(/^District not served for pickup: .*does not pick up from Hadayek October/);
    expect(noPickup).toMatchObject({ availability: 'pickupAvailability', place: { kind: 'district', id: 'district-october' } });
    expect(await lookup.resolveAddress({ city: 'Giza', district: 'Hadayek October', firstLine: 'Street 1234', for: 'dropOffAddress' })).toMatchObject({
      districtId: 'district-october',
    });
  });

  it('lists every missing name before any request', async () => {
    const { citiesSent } = serveLookups();
    const error = await makeClient()
      .lookup.resolveAddress({ city: ' ', district: '', firstLine: 'Street 1234', for: 'dropOffAddress' })
      .catch((e: unknown) => e);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['city'], ['district']]);
    expect(citiesSent).toHaveLength(0);
  });

  it('searches the country given, Egypt by default', async () => {
    const { citiesSent } = serveLookups();
    const lookup = makeClient().lookup;
    await lookup.resolveAddress({ city: 'Giza', district: 'Dokki', firstLine: 'Street 1234', for: 'dropOffAddress' });
    await lookup.resolveAddress({ city: 'Giza', district: 'Dokki', firstLine: 'Street 1234', countryId: CountryId.KSA, for: 'dropOffAddress' });
    expect(citiesSent.map((s) => s.search)).toEqual(['?countryId=60e4482c7cb7d4bc4849c4d5', '?countryId=eF-3f9FZr']);
  });
});

describe('resolveAddress: names as customers type them', () => {
  const resolve = (district: string, extra: Partial<ResolveAddressInput> = {}) =>
    makeClient().lookup.resolveAddress({ city: 'Giza', district, firstLine: 'Street 1234', for: 'dropOffAddress', ...extra });

  it('the Arabic article is optional: El Dokki, Al-Dokki, الدقي without ال, and Ayyat for Al Ayyat', async () => {
    serveLookups();
    for (const name of ['El Dokki', 'Al Dokki', 'el-dokki', 'AL-Dokki', 'دقي']) expect((await resolve(name)).districtId, name).toBe('district-dokki');
    expect((await resolve('Ayyat', { for: 'pickupAddress' })).districtId).toBe('district-ayyat');
    expect((await resolve('Mohandesin')).districtId).toBe('district-mohandessin'); // one s
    expect((await resolve('Doqqi')).districtId).toBe('district-dokki'); // q for k, doubled letters
  });

  it('a loose match that could mean two different names is no match: the suggestions name both', async () => {
    const twins = [district(DOKKI, 'district-sharq', 'Sharq', 'شرق'), district(DOKKI, 'district-el-sharq', 'El Sharq', 'الشرق الجديد')];
    capture(server, 'get', '/cities/:cityId/districts', () => ok(twins));
    capture(server, 'get', '/cities', () => ok({ list: cities }));
    const error = await resolve('Al Sharq').catch((e: unknown) => e);
    expect((await resolve('El Sharq')).districtId).toBe('district-el-sharq'); // the exact name still wins
    expect(error).toBeInstanceOf(DistrictNotFoundError);
    expect(
      (error as DistrictNotFoundError).candidates
        .map((place) => place.id)
        .slice(0, 2)
        .sort(),
    ).toEqual(['district-el-sharq', 'district-sharq']);
  });

  it('not-found errors carry candidates { id, name, nameAr? }, best first, for city, zone and district', async () => {
    serveLookups();
    const city = await makeClient()
      .lookup.resolveAddress({ city: 'Gyza', district: 'Dokki', firstLine: 'Street 1234', for: 'dropOffAddress' })
      .catch((e: unknown) => e);
    expect((city as CityNotFoundError).candidates[0]).toEqual({ id: 'city-giza', name: 'Giza', nameAr: 'الجيزة' });
    const zone = await resolve('Faisal', { zone: 'Harm' }).catch((e: unknown) => e);
    expect((zone as ZoneNotFoundError).candidates[0]).toEqual({ id: 'zone-haram', name: 'Haram', nameAr: 'الهرم' });
    const found = await resolve('Mohandisin').catch((e: unknown) => e);
    expect((found as DistrictNotFoundError).candidates[0]).toEqual({ id: 'district-mohandessin', name: 'Mohandessin', nameAr: 'المهندسين' });
    expect((found as DistrictNotFoundError).candidates.length).toBeLessThanOrEqual(5);
    // What was not found, and where, apart from the candidates: a "did you mean" of one's own is built from data.
    expect([city, zone, found].map((error) => (error as DistrictNotFoundError).unmatched)).toEqual([
      "no city matches 'Gyza' in Egypt",
      "no zone matches 'Harm' in Giza (الجيزة)",
      "no district matches 'Mohandisin' in Giza (الجيزة)",
    ]);
    expect((found as Error).message).toBe(`District Not Found: ${(found as DistrictNotFoundError).unmatched}; closest: Mohandessin (المهندسين), Faisal (فيصل)`);
  });

  it('a zone typed as the district: its district of the same name, its only district, or an error saying it is a zone with its districts', async () => {
    serveLookups();
    const south = await resolve('South Giza').catch((e: unknown) => e);
    expect(south).toBeInstanceOf(DistrictNotFoundError);
    expect((south as Error).message).toBe(
      "District Not Found: 'South Giza' is a zone in Giza (الجيزة) (South Giza (جنوب الجيزة)), not a district; its districts: Al Ayyat (العياط), Hadayek October (حدائق أكتوبر)",
    );
    expect((south as DistrictNotFoundError).candidates.map((place) => place.id)).toEqual(['district-ayyat', 'district-october']);
    expect((await resolve('جنوب الجيزة', { zone: 'Haram' }).catch((e: unknown) => e)) as Error).toBeInstanceOf(DistrictNotFoundError);
  });

  it('a zone with a single district resolves to it', async () => {
    const lone = zone('zone-nasr', 'Nasr City', 'مدينة نصر');
    capture(server, 'get', '/cities', () => ok({ list: cities }));
    capture(server, 'get', '/cities/:cityId/districts', () => ok([...gizaDistricts, district(lone, 'district-makram', 'Makram Ebeid', 'مكرم عبيد')]));
    expect((await resolve('Nasr City')).districtId).toBe('district-makram');
    expect(await resolve('مدينة نصر')).toMatchObject({ districtId: 'district-makram', zoneId: 'zone-nasr' });
  });

  it('a zone typed in Arabic whose district bears its English name resolves to that district', async () => {
    const downtown = zone('zone-downtown', 'Downtown', 'وسط البلد');
    capture(server, 'get', '/cities', () => ok({ list: cities }));
    const districts = [district(downtown, 'district-downtown', 'Downtown', 'وسط المدينة'), district(downtown, 'district-garden', 'Garden City', 'جاردن سيتي')];
    capture(server, 'get', '/cities/:cityId/districts', () => ok(districts));
    expect((await resolve('وسط البلد')).districtId).toBe('district-downtown');
  });

  it('refuses a place name over 100 characters before any request, and never echoes more than 40 characters of one', async () => {
    const { citiesSent } = serveLookups();
    const long = await makeClient()
      .lookup.resolveAddress({ city: 'x'.repeat(1_000_000), district: 'Dokki', zone: 'y'.repeat(101), firstLine: 'Street 1234', for: 'dropOffAddress' })
      .catch((e: unknown) => e);
    expect(long).toBeInstanceOf(ValidationError);
    expect((long as ValidationError).issues).toEqual([
      { path: ['city'], message: 'expected at most 100 characters, received 1000000' },
      { path: ['zone'], message: 'expected at most 100 characters, received 101' },
    ]);
    expect(citiesSent).toHaveLength(0);
    const name = `Mohandisin ${'z'.repeat(89)}`;
    const error = await resolve(name).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DistrictNotFoundError);
    expect((error as Error).message).toContain(`no district matches '${name.slice(0, 40)}…' in Giza`);
    expect((error as Error).message.length).toBeLessThan(200);
  });
});
