import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryClient, DeliveryState } from '../../src/index.js';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { sandboxHandlers } from '../../src/testing/msw.js';
import { dropOff, setUpAccount } from '../support/sandbox.js';

/** Every call after creation once, through whatever transport the client is on. */
async function everyCall(client: DeliveryClient, sandbox: Sandbox, locationId: string): Promise<void> {
  const created = await client.deliveries.create({
    type: 10,
    dropOffAddress: dropOff,
    receiver: { firstName: 'Mona', phone: '01012345678' },
    businessReference: 'T-1',
  });
  expect((await client.deliveries.get(created.trackingNumber)).state?.code).toBe(DeliveryState.PickupRequested);
  expect((await client.deliveries.search({ businessReference: 'T-1' })).deliveries).toHaveLength(1);
  await client.deliveries.update(created.trackingNumber, { notes: 'Ring twice' });
  expect(sandbox.order(created.trackingNumber).request['notes']).toBe('Ring twice');
  const pdf = await client.deliveries.airwayBills([created.trackingNumber]);
  expect(new TextDecoder('latin1').decode(pdf.subarray(0, 5))).toBe('%PDF-');
  const [date] = await client.pickups.availableDates({ days: 3 });
  const pickup = await client.pickups.create({
    businessLocationId: locationId,
    scheduledDate: date ?? '2099-01-01',
    scheduledTimeSlot: '13:00 to 16:00',
    contactPerson: { name: 'Omar', phone: '01098765432' },
  });
  expect((await client.pickups.list()).pickups).toHaveLength(1);
  await client.pickups.delete(pickup._id);
  expect(await client.pickupLocations.list()).toHaveLength(1);
  expect((await client.pricing.calculate({ dropOffCity: 'Giza', pickupCity: 'Cairo' })).shippingFee).toBe(70);
  await client.deliveries.terminate(created.trackingNumber);
  expect(sandbox.order(created.trackingNumber).state).toBe(DeliveryState.Terminated);
}

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe('the calls after creation through every way of serving the sandbox', () => {
  it('msw handlers (setupServer)', async () => {
    const sandbox = createSandbox();
    const server = setupServer(...sandboxHandlers(sandbox));
    server.listen({ onUnhandledRequest: 'error' });
    cleanup.push(
      () => sandbox.close(),
      () => server.close(),
    );
    const { locationId } = await setUpAccount(sandbox);
    await everyCall(new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, maxRetries: 0 }), sandbox, locationId);
  });

  it('the HTTP server on 127.0.0.1', async () => {
    const sandbox = createSandbox();
    cleanup.push(() => sandbox.close());
    const { baseUrl } = await sandbox.listen({ port: 0 });
    const { locationId } = await setUpAccount(sandbox);
    await everyCall(new DeliveryClient({ baseUrl, apiKey: sandbox.apiKey, maxRetries: 0 }), sandbox, locationId);
  });
});
