// The whole account flow through the typed methods, against the sandbox (the wire contract's
// other implementation): if client and sandbox disagree on a path, a body or an answer, this fails.
import { afterAll, describe, expect, it } from 'vitest';
import {
  BulkCreationError,
  BusinessLocationRequiredError,
  CodLimitExceededError,
  CountryId,
  DeliveryClient,
  DeliveryType,
  FulfillmentType,
  type OrderInput,
  previewBulkyMerge,
} from '../../src/index.js';
import { createSandbox } from '../../src/testing/index.js';

const sandbox = createSandbox();
afterAll(() => sandbox.close());
const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch, maxRetries: 0 });
const receiver = { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' };

describe('an account from registration to orders, against the sandbox', () => {
  it('registers the admin and confirms phone and e-mail', async () => {
    const admin = await client.users.registerBusinessAdmin({
      email: 'owner@nile.example',
      password: 's3cret!',
      profile: { firstName: 'Mona', lastName: 'Adel', phone: '+201001234567' },
      heardAboutUsFrom: 'FACEBOOK',
      countryId: CountryId.Egypt,
    });
    expect(admin).toMatchObject({ email: 'owner@nile.example', phoneVerified: false });
    expect(typeof admin._id).toBe('string');

    expect(await client.users.verifyPhone({ phone: '+201001234567' })).toMatchObject({ codeSent: true });
    const token = sandbox.lastOtp('+201001234567') as string;
    expect(await client.users.confirmPhone({ phone: '+201001234567', token })).toMatchObject({ phoneVerified: true });
    expect(await client.users.confirmEmail({ token: sandbox.lastEmailToken('owner@nile.example') as string })).toEqual({ emailVerified: true });
  });

  it('cannot order before the business has a pickup location (1073)', async () => {
    await client.businesses.create({ name: 'Nile Shop', salesChannel: 'FACEBOOK_SELLER' });
    const dropOffAddress = await client.lookup.resolveAddress({
      city: 'Giza',
      district: 'Dokki',
      firstLine: '12 Tahrir Street, 3rd floor',
      for: 'dropOffAddress',
    });
    await expect(client.deliveries.create({ type: DeliveryType.Deliver, dropOffAddress, receiver })).rejects.toBeInstanceOf(BusinessLocationRequiredError);
  });

  it('creates a business, resolves its pickup address by Arabic names, and adds the default location', async () => {
    const business = await client.businesses.create({
      name: 'Nile Shop',
      salesChannel: 'FACEBOOK_SELLER',
      website: 'https://nile.example',
      industry: 'Fashion',
      interestedInServices: ['SEND'],
    });
    const address = await client.lookup.resolveAddress({ city: 'القاهرة', district: 'مكرم عبيد', firstLine: '5 Makram Ebeid Street', for: 'pickupAddress' });
    expect(address).toEqual({
      city: 'Cairo',
      districtId: 'district-eg-cairo-makram-ebeid',
      zoneId: 'zone-eg-cairo-nasr-city',
      firstLine: '5 Makram Ebeid Street',
    });
    const updated = await client.businesses.updatePickupLocations(business._id, [
      { locationName: 'Warehouse', districtId: address.districtId, firstLine: address.firstLine },
    ]);
    expect(updated._id).toBe(business._id);
    expect(updated.pickupLocations).toMatchObject([{ locationName: 'Warehouse', isDefault: true }]);
  });

  it('creates an order of every numeric type', async () => {
    const dropOffAddress = await client.lookup.resolveAddress({
      city: 'giza',
      district: '  DOKKI ',
      firstLine: '12 Tahrir Street, 3rd floor',
      for: 'dropOffAddress',
    });
    const pickupAddress = await client.lookup.resolveAddress({
      city: 'Cairo',
      district: 'Zamalek',
      firstLine: '7 Brazil Street, Zamalek',
      for: 'pickupAddress',
    });
    const orders: OrderInput[] = [
      { type: DeliveryType.Deliver, dropOffAddress, receiver, cod: 250, businessReference: 'deliver-1' },
      { type: DeliveryType.CashCollection, pickupAddress, receiver, cod: 500 },
      { type: DeliveryType.CustomerReturnPickup, pickupAddress, receiver, cod: -100 },
      { type: DeliveryType.Exchange, dropOffAddress, receiver, cod: 100 },
    ];
    for (const order of orders) {
      const created = await client.deliveries.create(order);
      expect(created.trackingNumber).toMatch(/^\d+$/);
      expect(created.type).toBe(order.type);
      expect(created.state?.code).toBe(order.type === DeliveryType.CashCollection ? 11 : 10);
    }
  });

  it('uploads in bulk: a 1061 chunk keeps its created orders, the failed one matched by businessReference with the service message', async () => {
    const dropOffAddress = await client.lookup.resolveAddress({
      city: 'Giza',
      district: 'Dokki',
      firstLine: '12 Tahrir Street, 3rd floor',
      for: 'dropOffAddress',
    });
    const orders: OrderInput[] = Array.from({ length: 7 }, (_, i) => ({
      type: DeliveryType.Deliver,
      dropOffAddress,
      receiver,
      cod: i === 4 ? 45_000 : 100,
      businessReference: `bulk-${i}`,
    }));
    const before = sandbox.orders().length;
    const error = await client.deliveries.createBulk(orders, { chunkSize: 3, validate: false }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(BulkCreationError);
    const { created, failed } = error as BulkCreationError;
    expect(created.map((c) => c.index)).toEqual([0, 1, 2, 3, 5, 6]);
    expect(created.map((c) => c.businessReference)).toEqual(['bulk-0', 'bulk-1', 'bulk-2', 'bulk-3', 'bulk-5', 'bulk-6']);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ index: 4, mayExist: false });
    // The service's bulk answer names a failure by reference and message, without errorCode: the spec's text picks the class.
    expect(failed[0]?.error).toBeInstanceOf(CodLimitExceededError);
    expect(failed[0]?.error).toMatchObject({ errorCode: 3007, inferredFrom: 'message' });
    expect(failed[0]?.error.message).toMatch(/30000/);
    expect(sandbox.orders().length - before).toBe(6);
  });

  it('creates a fulfillment order, a return of part of it, and a bulky upload merged per customer', async () => {
    const dropOffAddress = await client.lookup.resolveAddress({
      city: 'Alexandria',
      district: 'Smouha',
      firstLine: '3 Victor Emmanuel Square',
      for: 'dropOffAddress',
    });
    const items = [
      { sku: 'SHIRT-M', quantity: 2 },
      { sku: 'MUG', quantity: 1 },
    ];
    const sent = await client.fulfillment.create({ type: FulfillmentType.Send, dropOffAddress, receiver, fulfillmentInfo: { items } });
    const returned = await client.fulfillment.createReturn(
      {
        type: FulfillmentType.CustomerReturnPickup,
        pickupAddress: dropOffAddress,
        receiver,
        originalFulfillmentTrackingNumber: sent.trackingNumber,
        fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 1 }] },
      },
      { original: { fulfillmentInfo: { items } } },
    );
    expect(returned.type).toBe('CUSTOMER_RETURN_PICKUP');

    const bulky = [
      { type: FulfillmentType.Send, dropOffAddress, receiver, fulfillmentInfo: { items: [{ sku: 'MUG', quantity: 1 }] } },
      { type: FulfillmentType.Send, dropOffAddress, receiver: { phone: '+201099999999' }, fulfillmentInfo: { items: [{ sku: 'MUG', quantity: 3 }] } },
      {
        type: FulfillmentType.Send,
        dropOffAddress,
        receiver,
        fulfillmentInfo: {
          items: [
            { sku: 'MUG', quantity: 2 },
            { sku: 'CAP', quantity: 1 },
          ],
        },
      },
    ];
    const preview = previewBulkyMerge(bulky);
    const answer = await client.fulfillment.createBulky(bulky);
    expect(answer.map((order) => order.mergedFrom)).toEqual(preview.map((group) => group.mergedFrom));
    expect(answer.map((order) => order.receiverPhone)).toEqual(preview.map((group) => group.receiverPhone));
    const merged = sandbox.order(answer[0]?.trackingNumber as string).request['fulfillmentInfo'];
    expect(merged).toEqual(preview[0]?.order.fulfillmentInfo);
  });
});
