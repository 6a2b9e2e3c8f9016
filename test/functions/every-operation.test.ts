import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as functions from '../../src/functions/index.js';
import { ConfigurationError } from '../../src/index.js';
import { BASE, capture, dropOffAddress, KEY, makeClient, ok, receiver, useFakeService } from '../support/fake-service.js';

const server = useFakeService();
const core = () => new functions.DeliveryCore({ apiKey: KEY, baseUrl: BASE });

const FUNCTIONS_DIR = fileURLToPath(new URL('../../src/functions/', import.meta.url));

describe('delivery-sdk/functions: every operation as a function over a DeliveryCore', () => {
  // Each function, the call of the client namespace that delegates to it, and what both send.
  const location = { locationName: 'Main', districtId: 'd1', firstLine: '12 Talaat Harb Street' };
  const send = { type: 'FXF_SEND' as const, dropOffAddress, receiver, fulfillmentInfo: { items: [{ sku: 'A', quantity: 1 }] } };
  const cases = [
    ['listCities', 'get', '/cities', [], () => functions.listCities(core(), { countryId: 'eg' }), () => makeClient().lookup.cities({ countryId: 'eg' })],
    ['listZones', 'get', '/cities/c1/zones', [], () => functions.listZones(core(), 'c1'), () => makeClient().lookup.zones('c1')],
    ['listDistricts', 'get', '/cities/c1/districts', [], () => functions.listDistricts(core(), 'c1'), () => makeClient().lookup.districts('c1')],
    ['listAllDistricts', 'get', '/cities/getAllDistricts', [], () => functions.listAllDistricts(core()), () => makeClient().lookup.allDistricts()],
    [
      'registerBusinessAdmin',
      'post',
      '/users/business/admin',
      { _id: 'u1' },
      () =>
        functions.registerBusinessAdmin(core(), {
          email: 'a@shop.example',
          password: 'pw',
          countryId: 'eg',
          profile: { firstName: 'M', lastName: 'A', phone: '+201001234567' },
        }),
      () =>
        makeClient().users.registerBusinessAdmin({
          email: 'a@shop.example',
          password: 'pw',
          countryId: 'eg',
          profile: { firstName: 'M', lastName: 'A', phone: '+201001234567' },
        }),
    ],
    [
      'verifyPhone',
      'post',
      '/users/business-admin/phone/verify',
      { codeSent: true },
      () => functions.verifyPhone(core(), { phone: '+201001234567' }),
      () => makeClient().users.verifyPhone({ phone: '+201001234567' }),
    ],
    [
      'confirmPhone',
      'post',
      '/users/business-admin/phone/confirm',
      { phoneVerified: true },
      () => functions.confirmPhone(core(), { phone: '+201001234567', token: '1234' }),
      () => makeClient().users.confirmPhone({ phone: '+201001234567', token: '1234' }),
    ],
    [
      'confirmEmail',
      'post',
      '/users/mail/confirm',
      { emailVerified: true },
      () => functions.confirmEmail(core(), { token: 't' }),
      () => makeClient().users.confirmEmail({ token: 't' }),
    ],
    [
      'createBusiness',
      'post',
      '/businesses',
      { _id: 'b1' },
      () => functions.createBusiness(core(), { name: 'Nile', salesChannel: 'FACEBOOK_SELLER' }),
      () => makeClient().businesses.create({ name: 'Nile', salesChannel: 'FACEBOOK_SELLER' }),
    ],
    [
      'updatePickupLocations',
      'put',
      '/businesses/b1',
      { _id: 'b1' },
      () => functions.updatePickupLocations(core(), 'b1', [location]),
      () => makeClient().businesses.updatePickupLocations('b1', [location]),
    ],
    [
      'createFulfillmentOrder',
      'post',
      '/deliveries',
      { _id: 'd1', trackingNumber: '7' },
      () => functions.createFulfillmentOrder(core(), send),
      () => makeClient().fulfillment.create(send),
    ],
    [
      'createBulkyFulfillment',
      'post',
      '/fulfillment/deliveries/bulky',
      [{ _id: 'd1', trackingNumber: '7' }],
      () => functions.createBulkyFulfillment(core(), [send]),
      () => makeClient().fulfillment.createBulky([send]),
    ],
  ] as const;

  it.each(cases)('%s sends what the client namespace sends, and resolves the same', async (_, method, path, answer, viaFunction, viaClient) => {
    const sent = capture(server, method, path, () => ok(answer, method === 'get' ? 200 : 201));
    const fromFunction = await viaFunction();
    const fromClient = await viaClient();
    expect(fromFunction).toEqual(fromClient);
    expect(sent).toHaveLength(2);
    expect(sent[0]?.json).toEqual(sent[1]?.json);
    expect(sent[0]?.search).toEqual(sent[1]?.search);
  });

  it('createBulkDeliveries and streamBulkDeliveries send the same chunks', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', () => ok({ createdDeliveriesIds: ['x'], failedDeliveries: [] }));
    const order = { type: 10 as const, dropOffAddress, receiver, businessReference: 'r1' };
    await functions.createBulkDeliveries(core(), [order]);
    for await (const outcome of functions.streamBulkDeliveries(core(), [order])) expect(outcome.created).toHaveLength(1);
    expect(sent.map((s) => s.json)).toEqual([
      { deliveries: [order], deleteFailedDeliveries: false },
      { deliveries: [order], deleteFailedDeliveries: false },
    ]);
  });

  it('resolveAddress and clearLookupCache work over the core’s own cache', async () => {
    const cities = capture(server, 'get', '/cities', () => ok([{ _id: 'c1', name: 'Cairo', dropOffAvailability: true }]));
    capture(server, 'get', '/cities/c1/districts', () => ok([{ districtId: 'd1', districtName: 'Zamalek', zoneId: 'z1', dropOffAvailability: true }]));
    const own = core();
    const address = await functions.resolveAddress(own, { city: 'cairo', district: 'zamalek', firstLine: '7 Brazil Street', for: 'dropOffAddress' });
    expect(address).toMatchObject({ city: 'Cairo', districtId: 'd1' });
    await functions.listCities(own, { countryId: '60e4482c7cb7d4bc4849c4d5' });
    expect(cities).toHaveLength(1); // answered from the cache
    functions.clearLookupCache(own);
    await functions.listCities(own, { countryId: '60e4482c7cb7d4bc4849c4d5' });
    expect(cities).toHaveLength(2);
  });

  it('every function refuses a first argument that is not a DeliveryCore with a ConfigurationError', async () => {
    const names = Object.entries(functions).filter(([name, value]) => typeof value === 'function' && name !== 'DeliveryCore');
    expect(names.length).toBeGreaterThanOrEqual(18);
    for (const [name, fn] of names) {
      const call = async (): Promise<unknown> => {
        const result = (fn as (...args: unknown[]) => unknown)({}, {});
        if (result !== null && typeof result === 'object' && Symbol.asyncIterator in result) for await (const _ of result as AsyncIterable<unknown>);
        return result;
      };
      await expect(call(), name).rejects.toBeInstanceOf(ConfigurationError);
    }
  });

  it('imports point down: no file of src/functions imports src/namespaces or the client', () => {
    const files = readdirSync(FUNCTIONS_DIR, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter((file) => /from '(?:\.\.\/)+(?:namespaces\/|client\.js)/.test(readFileSync(`${FUNCTIONS_DIR}${file}`, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
