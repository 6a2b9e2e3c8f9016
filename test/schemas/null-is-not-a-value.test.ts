// Null is not a value for a field the service requires (issue 40, point 5; issue 50 for a
// location's name): an update or a new location that names `locationName` (in a change),
// `districtId`, `firstLine`, `contactPerson`, an order's `receiver`,
// `dropOffAddress` or `cod` as null (or as a `new Date(NaN)`, which JSON writes as null) is refused
// before sending, by the one checking step; the warehouse and the order keep what they had.
// Against the sandbox, and against an independent node:http service that would store the null.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryClient, ValidationError } from '../../src/index.js';
import { envelope, startFakeService } from '../support/fake-service.js';
import { DOKKI, dropOff, sandboxWithAccount } from '../support/sandbox.js';

const contactPerson = { name: 'Karim', phone: '01012345678' };
const location = { locationName: 'Giza warehouse', districtId: DOKKI, firstLine: '5 Makram Ebeid Street', contactPerson };

/** What a call rejected with, and the issue paths it named. */
async function refusal(call: Promise<unknown>): Promise<Array<string>> {
  const error = await call.catch((err: unknown) => err);
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).issues.map((issue) => issue.path.join('.'));
}

describe('against an independent node:http service, which would store a null as sent', () => {
  let fake: Awaited<ReturnType<typeof startFakeService>>;
  let client: DeliveryClient;
  beforeAll(async () => {
    fake = await startFakeService();
    fake.on('PUT /pickup-locations/:id', () => envelope({ isDefault: false }, 'pickup location updated successfully.'));
    fake.on('POST /pickup-locations', () => envelope({ _id: 'loc-2' }));
    fake.on('PUT /deliveries/business/:id', () => envelope({ _id: 'o-1' }, 'Done successfully.'));
    fake.on('PUT /pickups/:id', () => envelope({ _id: 'p-1' }));
    client = new DeliveryClient({ baseUrl: fake.baseUrl, apiKey: 'k', maxRetries: 0 });
  });
  afterAll(() => fake.close());

  it.each([
    ['locationName: null', { locationName: null }, 'locationName'],
    ['districtId: null', { districtId: null }, 'districtId'],
    ['firstLine: null', { firstLine: null }, 'firstLine'],
    ['districtId: new Date(NaN)', { districtId: new Date(Number.NaN) }, 'districtId'],
    ['contactPerson: null', { contactPerson: null }, 'contactPerson'],
  ])('pickupLocations.update refuses %s, sending nothing', async (_, changes, path) => {
    const before = fake.received.length;
    expect(await refusal(client.pickupLocations.update('loc-1', changes as never))).toEqual([path]);
    expect(fake.received.length).toBe(before);
  });

  it('pickupLocations.update sends a new name and the other fields as given, and null for a field a location can do without (secondLine)', async () => {
    await client.pickupLocations.update('loc-1', { locationName: 'Dokki warehouse', firstLine: '7 Brazil Street', secondLine: null });
    expect(fake.received.at(-1)?.body).toEqual({ locationName: 'Dokki warehouse', firstLine: '7 Brazil Street', secondLine: null });
  });

  it('pickupLocations.create refuses contactPerson: null', async () => {
    expect(await refusal(client.pickupLocations.create({ ...location, contactPerson: null } as never))).toEqual(['contactPerson']);
  });

  it.each([
    ['receiver: null', { receiver: null }, 'receiver'],
    ['dropOffAddress: null', { dropOffAddress: null }, 'dropOffAddress'],
    ['cod: null', { cod: null }, 'cod'],
    ['cod: new Date(NaN)', { cod: new Date(Number.NaN) }, 'cod'],
  ])('deliveries.update refuses %s; notes: null (cleared) is sent', async (_, changes, path) => {
    expect(await refusal(client.deliveries.update('70000012', changes as never))).toEqual([path]);
    await client.deliveries.update('70000012', { notes: null });
    expect(fake.received.at(-1)?.body).toEqual({ notes: null });
  });

  it('pickups.update refuses contactPerson: null and a scheduledDate of new Date(NaN)', async () => {
    expect(await refusal(client.pickups.update('p-1', { contactPerson: null, scheduledDate: new Date(Number.NaN) } as never))).toEqual([
      'scheduledDate',
      'contactPerson',
    ]);
  });
});

describe('against the sandbox', () => {
  it("a warehouse's address and an order's customer survive an update that names them null", async () => {
    const { sandbox, client } = await sandboxWithAccount();
    const created = await client.pickupLocations.create(location);
    await expect(client.pickupLocations.update(created._id, { districtId: null, contactPerson: null } as never)).rejects.toBeInstanceOf(ValidationError);
    expect(await client.pickupLocations.get(created._id)).toMatchObject({ contactPerson: { name: 'Karim' } });

    const order = await client.deliveries.create({
      type: 10,
      dropOffAddress: dropOff,
      receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
    });
    await expect(client.deliveries.update(order.trackingNumber, { receiver: null, dropOffAddress: null } as never)).rejects.toBeInstanceOf(ValidationError);
    const read = await client.deliveries.get(order.trackingNumber);
    expect(read.receiver?.firstName).toBe('Mona');
    expect(read.dropOffAddress?.firstLine).toBe(dropOff.firstLine);
    await sandbox.close();
  });
});
