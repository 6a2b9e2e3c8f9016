import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryClient } from '../../src/client.js';
import {
  AddressLocationRequiredError,
  BulkCreationError,
  BusinessLocationRequiredError,
  CityNotFoundError,
  CodLimitExceededError,
  CodRequiredError,
  CrpRefundCodOnlyError,
  DeliveryImagesRequiredError,
  DistrictNotFoundError,
  InvalidDeliveryImageUrlError,
  MixedDeliveryImageSourcesError,
  NotFoundError,
  RefundCodLimitExceededError,
  StreetCodeNotFoundError,
  ZoneNotFoundError,
} from '../../src/errors/index.js';
import { createSandbox, SANDBOX_UPLOAD_HOST, type Sandbox } from '../../src/testing/index.js';
import { dropOff, pickup, sandboxWithAccount, setUpAccount } from '../support/sandbox.js';

const sandbox = createSandbox();
afterAll(() => sandbox.close());
const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch, maxRetries: 0 });

describe('sandbox.fetch as the DeliveryClient fetch (no msw, no server)', () => {
  it('unwraps the envelope of a public lookup', async () => {
    const zones = await client.request<Array<{ name: string }>>({ method: 'GET', path: '/cities/city-eg-cairo/zones' });
    expect(zones.map((z) => z.name)).toContain('Maadi');
  });

  it('maps 1073, 404 and 1061 to their classes', async () => {
    const order = { type: 10, dropOffAddress: dropOff };
    await expect(client.request({ method: 'POST', path: '/deliveries', query: { apiVersion: 1 }, body: order })).rejects.toBeInstanceOf(
      BusinessLocationRequiredError,
    );
    await expect(client.request({ method: 'GET', path: '/cities/nowhere/zones' })).rejects.toMatchObject({ status: 404, errorCode: 3001 });
    await expect(client.request({ method: 'PUT', path: '/businesses/none', body: { pickupAddress: [] } })).rejects.toBeInstanceOf(NotFoundError);
    await setUpAccount(sandbox);
    const body = { deliveries: [order, { ...order, cod: 99_999, businessReference: 'too-much' }] };
    const bulk = await client.request({ method: 'POST', path: '/deliveries/bulk', query: { apiVersion: 1 }, body }).catch((err: unknown) => err);
    expect(bulk).toBeInstanceOf(BulkCreationError);
    expect((bulk as BulkCreationError).body).toMatchObject({
      data: {
        createdDeliveriesIds: [expect.any(String)],
        failedDeliveries: [{ businessReference: 'too-much', errorMessage: expect.stringContaining('30000') }],
      },
    });
  });
});

describe('a client with validate: false meets every coded rule of the spec on the server side', () => {
  let box: Sandbox;
  let unchecked: DeliveryClient;
  beforeAll(async () => {
    ({ sandbox: box, client: unchecked } = await sandboxWithAccount({}, { validate: false }));
  });
  afterAll(() => box.close());
  const deliver = { type: 10, dropOffAddress: dropOff, cod: 250 };
  const crp = { type: 25, pickupAddress: pickup };
  const images = (urls: string[]) => ({ ...deliver, allowToOpenPackage: true, deliveryImages: [{ type: 'ALLOW_TO_OPEN_THE_PACKAGE', images: urls }] });
  const create = (order: object) => unchecked.deliveries.create(order as Parameters<typeof unchecked.deliveries.create>[0]);

  it.each<[number, new (...args: never[]) => Error, object]>([
    [2150, DeliveryImagesRequiredError, { ...deliver, allowToOpenPackage: true }],
    [2151, InvalidDeliveryImageUrlError, images(['not a url'])],
    [2152, MixedDeliveryImageSourcesError, images([`https://${SANDBOX_UPLOAD_HOST}/a.jpg`, 'https://cdn.example/b.jpg'])],
    [3001, CityNotFoundError, { ...deliver, dropOffAddress: { ...dropOff, city: 'Atlantis' } }],
    [3002, ZoneNotFoundError, { ...deliver, dropOffAddress: { ...dropOff, zoneId: 'zone-nowhere' } }],
    [3003, DistrictNotFoundError, { ...deliver, dropOffAddress: { ...dropOff, districtId: 'district-nowhere' } }],
    [3004, StreetCodeNotFoundError, { ...deliver, dropOffAddress: { ...dropOff, streetCode: 'ST-9999' } }],
    [3005, CrpRefundCodOnlyError, { ...crp, cod: 100 }],
    [3006, CodRequiredError, { type: 15, pickupAddress: pickup }],
    [3007, CodLimitExceededError, { ...deliver, cod: 30_001 }],
    [3008, RefundCodLimitExceededError, { ...crp, cod: -30_001 }],
    [3009, AddressLocationRequiredError, { ...deliver, dropOffAddress: { firstLine: '12 Tahrir Street' } }],
  ])('%i as its class, source server, nothing created', async (code, ErrorClass, order) => {
    const before = box.orders().length;
    const error = await create(order).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ errorCode: code, source: 'server', status: 400 });
    expect(box.orders()).toHaveLength(before);
  });

  it('1061 from createBulk, the valid order created and the failing one reported with the service message', async () => {
    const before = box.orders().length;
    const orders = [
      { ...deliver, businessReference: 'fine' },
      { ...deliver, cod: 30_001, businessReference: 'too-much' },
    ];
    const error = await unchecked.deliveries.createBulk(orders as Parameters<typeof unchecked.deliveries.createBulk>[0]).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(BulkCreationError);
    expect(error).toMatchObject({ errorCode: 1061, source: 'server' });
    const bulk = error as BulkCreationError;
    expect(bulk.created.map((order) => order.index)).toEqual([0]);
    expect(bulk.failed).toHaveLength(1);
    expect(bulk.failed[0]).toMatchObject({ index: 1, mayExist: false });
    // The bulk answer carries the reason as text only (no errorCode per order): the spec's own text, so the code's class.
    expect(bulk.failed[0]?.error).toBeInstanceOf(CodLimitExceededError);
    expect(bulk.failed[0]?.error).toMatchObject({ errorCode: 3007, inferredFrom: 'message', source: 'server' });
    expect(bulk.failed[0]?.error.message).toMatch(/30000/);
    expect(box.orders()).toHaveLength(before + 1);
  });
});
