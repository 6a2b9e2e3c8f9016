import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, SANDBOX_COUNTRY_IDS, type SandboxServer } from '../../src/testing/index.js';
import { allDistrictsByCity, cairoZones, cities as realCities } from '../fixtures/real/answers/lookup.js';

/** The field names of a record, to compare the sandbox's shape with the service's. */
const keysOf = (record: object | undefined) => Object.keys(record ?? {}).sort();

const sandbox = createSandbox();
let server: SandboxServer;

beforeAll(async () => {
  server = await sandbox.listen();
});
afterAll(() => sandbox.close());

const get = async (path: string) => {
  const response = await fetch(`${server.baseUrl}${path}`);
  return { status: response.status, body: (await response.json()) as any };
};

describe('lookup endpoints (public, over HTTP on 127.0.0.1)', () => {
  it('listen() answers on 127.0.0.1 with a base URL ending in /v2', () => {
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
  });

  it('lists the Egyptian governorates with Arabic names and codes, without an API key', async () => {
    const { status, body } = await get(`/cities?countryId=${SANDBOX_COUNTRY_IDS.egypt}`);
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    const cities = body.data.list as Array<Record<string, string>>;
    expect(cities.length).toBeGreaterThanOrEqual(8);
    expect(cities.map((c) => c['name'])).toEqual(expect.arrayContaining(['Cairo', 'Giza', 'Alexandria']));
    const cairo = cities.find((c) => c['name'] === 'Cairo');
    expect(cairo).toMatchObject({
      _id: expect.any(String),
      name: 'Cairo',
      nameAr: 'القاهرة',
      code: expect.stringMatching(/^EG-\d{2}$/),
      pickupAvailability: true,
      dropOffAvailability: true,
    });
    // The record the service sends, field for field: `nameAr`, no `otherName`.
    expect(keysOf(cairo)).toEqual(keysOf(realCities.data[0]));
  });

  it('lists KSA cities for the KSA country id only', async () => {
    const { body } = await get(`/cities?countryId=${SANDBOX_COUNTRY_IDS.ksa}`);
    const names = (body.data.list as Array<{ name: string }>).map((c) => c.name);
    expect(names).toContain('Riyadh');
    expect(names).not.toContain('Cairo');
  });

  it('returns district entries with exactly the spec fields, some without pickup or drop-off', async () => {
    const { body: cities } = await get(`/cities?countryId=${SANDBOX_COUNTRY_IDS.egypt}`);
    const cairoId = cities.data.list.find((c: { name: string }) => c.name === 'Cairo')._id;
    const { status, body } = await get(`/cities/${cairoId}/districts`);
    expect(status).toBe(200);
    const entries = body.data as Array<Record<string, unknown>>;
    expect(Object.keys(entries[0] ?? {}).sort()).toEqual(
      [
        'coverage',
        'districtId',
        'districtName',
        'districtOtherName',
        'dropOffAvailability',
        'pickupAvailability',
        'zoneId',
        'zoneName',
        'zoneOtherName',
      ].sort(),
    );
    expect(entries.find((e) => e['districtName'] === 'Zamalek')).toMatchObject({
      districtOtherName: 'الزمالك',
      zoneName: 'Downtown',
      zoneOtherName: 'وسط البلد',
    });
    expect(entries.some((e) => e['pickupAvailability'] === false)).toBe(true);
    expect(entries.some((e) => e['dropOffAvailability'] === false)).toBe(true);
  });

  it('lists zones of a city, with nameAr as the service sends it', async () => {
    const { body } = await get('/cities/city-eg-alexandria/zones');
    expect(body.data).toContainEqual({ _id: expect.any(String), name: 'Montaza', nameAr: 'المنتزه', pickupAvailability: true, dropOffAvailability: true });
    expect(keysOf(body.data[0])).toEqual(keysOf(cairoZones.data[0]));
  });

  it('lists every city with its districts (one record per city, as the service does), filtered by country when asked', async () => {
    const all = await get('/cities/getAllDistricts');
    const egypt = await get(`/cities/getAllDistricts?countryId=${SANDBOX_COUNTRY_IDS.egypt}`);
    expect(egypt.body.data.length).toBeLessThan(all.body.data.length);
    const alexandria = egypt.body.data.find((city: { cityName: string }) => city.cityName === 'Alexandria');
    expect(alexandria).toMatchObject({
      cityId: 'city-eg-alexandria',
      cityOtherName: 'الإسكندرية',
      cityCode: expect.stringMatching(/^EG-/),
      pickupAvailability: true,
      dropOffAvailability: true,
    });
    expect(alexandria.districts).toContainEqual(expect.objectContaining({ districtName: 'Smouha', districtOtherName: 'سموحة' }));
    expect(keysOf(alexandria)).toEqual(keysOf(allDistrictsByCity.data[0]));
    expect(keysOf(alexandria.districts[0])).toEqual(keysOf(allDistrictsByCity.data[0]?.districts[0]));
  });

  it('keeps ids stable between sandboxes', async () => {
    const other = createSandbox();
    const mine = await get('/cities/getAllDistricts');
    const theirs = (await (await other.fetch(`${other.baseUrl}/cities/getAllDistricts`)).json()) as { data: unknown };
    expect(theirs.data).toEqual(mine.body.data);
    await other.close();
  });

  it('answers an unknown city id with 404 and errorCode 3001', async () => {
    const { status, body } = await get('/cities/nowhere/districts');
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, message: 'City Not Found', errorCode: 3001, data: null });
  });

  it('answers an unknown path with 404 and no errorCode', async () => {
    const { status, body } = await get('/nothing/here');
    expect(status).toBe(404);
    expect(body.success).toBe(false);
    expect(body).not.toHaveProperty('errorCode');
  });

  it("answers a loopback page's CORS preflight allowing Authorization and custom headers", async () => {
    const response = await fetch(`${server.baseUrl}/deliveries?apiVersion=1`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-shop-id',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-shop-id');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    const plain = await fetch(`${server.baseUrl}/cities`, { headers: { origin: 'http://127.0.0.1:8080' } });
    expect(plain.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:8080');
  });
});

describe('resolveAddress against the sandbox data, as customers type names', () => {
  it('"Nasr City", "مدينة نصر" and "Heliopolis" given as districts say they are zones of Cairo and offer their districts', async () => {
    const { DeliveryClient, DistrictNotFoundError } = await import('../../src/index.js');
    const lookup = new DeliveryClient({ baseUrl: server.baseUrl, apiKey: 'sandbox-api-key' }).lookup;
    for (const [district, districts] of [
      ['Nasr City', ['Makram Ebeid', 'Abbas El Akkad', 'Seventh District']],
      ['مدينة نصر', ['Makram Ebeid', 'Abbas El Akkad', 'Seventh District']],
      ['Heliopolis', ['Korba', 'Almaza', 'Sheraton']],
    ] as const) {
      const error = await lookup
        .resolveAddress({ city: 'Cairo', district, firstLine: '5 Abbas El Akkad Street', for: 'dropOffAddress' })
        .catch((e: unknown) => e);
      expect(error, district).toBeInstanceOf(DistrictNotFoundError);
      expect((error as Error).message).toContain(`'${district}' is a zone in Cairo`);
      expect((error as InstanceType<typeof DistrictNotFoundError>).candidates.map((place) => place.name)).toEqual(districts);
    }
  });

  it('"El Dokki" and "Al Dokki" resolve in Giza', async () => {
    const { DeliveryClient } = await import('../../src/index.js');
    const lookup = new DeliveryClient({ baseUrl: server.baseUrl, apiKey: 'sandbox-api-key' }).lookup;
    for (const district of ['El Dokki', 'Al Dokki', 'El-Dokki']) {
      const address = await lookup.resolveAddress({ city: 'Giza', district, firstLine: '12 Tahrir Street', for: 'dropOffAddress' });
      expect(address.districtId, district).toBe('district-eg-giza-dokki');
    }
  });
});
