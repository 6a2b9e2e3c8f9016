// Phones in one form (issue 40, point 3): an order's, a pickup's and a pickup location's phone is
// sent digits only, an Egyptian number as `01…`, however it was typed, so the service stores one
// spelling and `customerHistory` finds every order the SDK created for the customer. Against the
// sandbox (which stores phones as sent) and an independent node:http service.
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryClient, DeliveryType, type OrderInput } from '../../src/index.js';
import { envelope, startFakeService } from '../support/fake-service.js';
import { DOKKI, dropOff, sandboxWithAccount } from '../support/sandbox.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const order = (phone: string, extra: Record<string, unknown> = {}): OrderInput =>
  ({ type: DeliveryType.Deliver, dropOffAddress: dropOff, receiver: { firstName: 'Nour', lastName: 'Saleh', phone }, cod: 400, ...extra }) as OrderInput;

const SPELLINGS = ['0109 999 8888', '010-9999-8888', '+201099998888', '٠١٠٩٩٩٩٨٨٨٨', '+20 (109) 999-8888'];

describe('against the sandbox, which stores a phone as it is sent', () => {
  it('stores one spelling, and customerHistory finds every order the SDK created for the customer', async () => {
    const { sandbox, client } = await sandboxWithAccount();
    closers.push(() => sandbox.close());
    const created = await Promise.all(SPELLINGS.map((phone) => client.deliveries.create(order(phone))));
    await client.deliveries.createBulk([order('0109-999-8888', { businessReference: 'B-1' })]);
    for (const { trackingNumber } of created.slice(0, 4)) await sandbox.play(trackingNumber, 'unsuccessful');
    expect(new Set(sandbox.orders().map((stored) => (stored.request['receiver'] as { phone: string }).phone))).toEqual(new Set(['01099998888']));
    for (const asked of ['01099998888', '010 9999 8888', '+20 109 999 8888']) {
      expect(await client.deliveries.customerHistory(asked)).toMatchObject({ total: 6, returned: 4, delivered: 0, pending: 2 });
    }
  });

  it('a pickup location and a pickup send their contact phone in the same form', async () => {
    const { sandbox, client } = await sandboxWithAccount();
    closers.push(() => sandbox.close());
    const location = await client.pickupLocations.create({
      districtId: DOKKI,
      firstLine: '5 Makram Ebeid Street',
      contactPerson: { name: 'Karim', phone: '+20 100 123 4567' },
    });
    expect((await client.pickupLocations.get(location._id)).contactPerson?.phone).toBe('01001234567');
    await client.pickupLocations.update(location._id, { contactPerson: { name: 'Karim', phone: '0100-123-4568' } });
    expect((await client.pickupLocations.get(location._id)).contactPerson?.phone).toBe('01001234568');
  });
});

describe('against an independent node:http service', () => {
  it('every call that takes a phone sends it digits only, and a search asks for every spelling a merchant may have stored', async () => {
    const fake = await startFakeService();
    closers.push(fake.close);
    fake.on('POST /deliveries', () => envelope({ _id: 'o-1', trackingNumber: '70000001' }));
    fake.on('POST /pickups', () => envelope({ _id: 'p-1' }));
    fake.on('POST /pickup-locations', () => envelope({ _id: 'l-1' }));
    fake.on('PUT /deliveries/business/:id', () => envelope({ _id: 'o-1' }));
    fake.on('POST /deliveries/search', () => envelope({ deliveries: [], count: 0, page: 1, limit: 50 }));
    const client = new DeliveryClient({ baseUrl: fake.baseUrl, apiKey: 'k', maxRetries: 0 });
    await client.deliveries.create(order('+20 10 9999 8888', { pickupLocationContact: { firstName: 'Ali', phone: '0020 100 123 4567' } }));
    await client.deliveries.update('70000001', { receiver: { firstName: 'Nour', phone: '+966 50 123 4567' } });
    await client.pickups.create({
      businessLocationId: 'l-1',
      scheduledDate: '2030-01-07',
      scheduledTimeSlot: '10:00 to 13:00',
      contactPerson: { name: 'Karim', phone: '(02) 2345-6789' },
    });
    await client.pickupLocations.create({ districtId: DOKKI, firstLine: '5 Makram Ebeid Street', contactPerson: { name: 'Karim', phone: '1001234567' } });
    await client.deliveries.customerHistory('010-9999-8888');
    const [create, update, pickup, location, search] = fake.received.map((request) => request.body as Record<string, any>);
    expect(create?.['receiver'].phone).toBe('01099998888');
    expect(create?.['pickupLocationContact'].phone).toBe('01001234567');
    expect(update?.['receiver'].phone).toBe('966501234567');
    expect(pickup?.['contactPerson'].phone).toBe('0223456789');
    expect(location?.['contactPerson'].phone).toBe('01001234567');
    expect(String(search?.['mobilePhones']).split(',')).toEqual(['01099998888', '010-9999-8888', '+201099998888', '201099998888']);
  });
});
