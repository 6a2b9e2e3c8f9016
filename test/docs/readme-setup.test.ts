// README's Set-up test, verbatim below this comment: test/docs/examples.test.ts checks that README
// still holds exactly this code, and vitest runs it here as a reader would run it in their own suite.
import { afterAll, expect, it } from 'vitest';
import { DeliveryClient, DeliveryState, DeliveryType } from 'delivery-sdk';
import { createSandbox } from 'delivery-sdk/testing';

const sandbox = createSandbox();
const client = new DeliveryClient({
  baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch,
});
afterAll(() => sandbox.close());

it('ships a cash-on-delivery order to the customer', async () => {
  // Once per account: a business and its first pickup location (orders fail with 1073 before).
  const business = await client.businesses.create({ name: 'Nile Shop' });
  const warehouse = await client.lookup.resolveAddress({
    city: 'Cairo', district: 'Makram Ebeid', firstLine: '5 Makram Ebeid Street', for: 'pickupAddress',
  });
  await client.businesses.updatePickupLocations(business._id, [
    { locationName: 'Warehouse', districtId: warehouse.districtId, firstLine: warehouse.firstLine },
  ]);

  const order = await client.deliveries.create({
    type: DeliveryType.Deliver,
    dropOffAddress: await client.lookup.resolveAddress({
      city: 'Giza', district: 'الدقي', firstLine: '12 Nile Street', for: 'dropOffAddress',
    }),
    receiver: { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' },
    cod: 250,
  });
  expect(sandbox.orders()[0]?.cod).toBe(250);

  await sandbox.play(order.trackingNumber, 'success'); // the service's webhooks, state by state
  expect(sandbox.order(order.trackingNumber).state).toBe(DeliveryState.Delivered);
});
