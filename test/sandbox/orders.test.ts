import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, SANDBOX_UPLOAD_HOST, type Sandbox } from '../../src/testing/index.js';
import { AL_AYYAT_NO_DROPOFF, CAIRO, call, createOrder, dropOff, pickup, sandboxWithAccount, setUpAccount } from '../support/sandbox.js';

let sandbox: Sandbox;
afterEach(() => sandbox.close());

const deliver = { type: 10, dropOffAddress: dropOff, cod: 250, receiver: { firstName: 'Omar', lastName: 'Ali', phone: '+201112223334' } };
const dashboard = (name: string) => `https://${SANDBOX_UPLOAD_HOST}/${name}.jpg`;

describe('a business location comes first (1073)', () => {
  it('refuses an order without a business, then without a location, then accepts it', async () => {
    sandbox = createSandbox();
    const noBusiness = await createOrder(sandbox, deliver);
    expect(noBusiness.status).toBe(400);
    expect(noBusiness.body).toEqual({ success: false, message: expect.any(String), errorCode: 1073, data: null });

    const business = await call(sandbox, 'POST', '/businesses', { name: 'Nile Shop' });
    expect((await createOrder(sandbox, deliver)).body.errorCode).toBe(1073);

    await call(sandbox, 'PUT', `/businesses/${business.body.data._id}`, {
      pickupAddress: [{ districtId: 'district-eg-cairo-korba', firstLine: '7 Korba Street' }],
    });
    const created = await createOrder(sandbox, { ...deliver, businessReference: 'order-1001' });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      _id: expect.any(String),
      trackingNumber: expect.stringMatching(/^\d+$/),
      type: 10,
      state: { code: 10, value: 'Pickup requested' },
      cod: 250,
      businessReference: 'order-1001',
      createdAt: expect.any(String),
    });
    expect(sandbox.orders().map((o) => o.businessReference)).toEqual(['order-1001']);
  });

  it('puts orders on the business created last; that one needs its own location', async () => {
    ({ sandbox } = await sandboxWithAccount());
    await call(sandbox, 'POST', '/businesses', { name: 'Second brand' });
    expect((await createOrder(sandbox, deliver)).body.errorCode).toBe(1073);
  });
});

describe('server-side rules, whatever the client checked', () => {
  let locationId: string;
  beforeEach(async () => {
    ({ sandbox, locationId } = await sandboxWithAccount());
  });

  const crp = { type: 25, pickupAddress: pickup };
  const cases: Array<[string, Record<string, unknown>, number]> = [
    ['3001: a city name not in the list', { ...deliver, dropOffAddress: { ...dropOff, city: 'Atlantis' } }, 3001],
    [
      '3001: a cityId not in the list',
      { ...deliver, dropOffAddress: { cityId: 'city-nowhere', districtName: 'Dokki', city: 'Giza', firstLine: '12 Tahrir Street' } },
      3001,
    ],
    ['3002: an unknown zoneId', { ...deliver, dropOffAddress: { ...dropOff, zoneId: 'zone-nowhere' } }, 3002],
    ['3002: a zone of another city', { ...deliver, dropOffAddress: { ...dropOff, zoneId: 'zone-eg-cairo-maadi' } }, 3002],
    ['3003: an unknown districtId', { ...deliver, dropOffAddress: { ...dropOff, districtId: 'district-nowhere' } }, 3003],
    ['3003: a district of another city', { ...deliver, dropOffAddress: { ...dropOff, city: 'Cairo' } }, 3003],
    [
      '3003: an unknown districtName',
      { ...deliver, dropOffAddress: { city: 'Cairo', cityId: CAIRO, districtName: 'Atlantis Heights', firstLine: '12 Tahrir Street' } },
      3003,
    ],
    ['3004: an unknown streetCode', { ...deliver, dropOffAddress: { ...dropOff, streetCode: 'ST-9999' } }, 3004],
    ['3005: a CRP with a positive cod', { ...crp, cod: 100 }, 3005],
    ['3006: a Cash Collection without cod', { type: 15, pickupAddress: pickup }, 3006],
    ['3007: a cod above 30000', { ...deliver, cod: 30000.5 }, 3007],
    ['3008: a refund above 30000', { ...crp, cod: -30001 }, 3008],
    ['3009: an address with none of city, zoneId, districtId', { ...deliver, dropOffAddress: { firstLine: '12 Tahrir Street' } }, 3009],
    ['2150: allowToOpenPackage without images', { ...deliver, allowToOpenPackage: true }, 2150],
    ['2150: allowToOpenPackage with an empty list', { ...deliver, allowToOpenPackage: true, deliveryImages: [] }, 2150],
    [
      '2151: an invalid image URL',
      { ...deliver, allowToOpenPackage: true, deliveryImages: [{ type: 'ALLOW_TO_OPEN_THE_PACKAGE', images: ['not a url'] }] },
      2151,
    ],
    [
      '2152: dashboard uploads mixed with links',
      { ...deliver, allowToOpenPackage: true, deliveryImages: [{ type: 'ALLOW_TO_OPEN_THE_PACKAGE', images: [dashboard('a'), 'https://cdn.example/b.jpg'] }] },
      2152,
    ],
  ];

  it.each(cases)('%s', async (_name, order, code) => {
    const answer = await createOrder(sandbox, order);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, message: expect.any(String), errorCode: code, data: null });
    expect(sandbox.orders()).toHaveLength(0);
  });

  const accepted: Array<[string, Record<string, unknown>]> = [
    ['a cod of exactly 30000', { ...deliver, cod: 30000 }],
    ['a CRP refund of exactly 30000', { ...crp, cod: -30000 }],
    ['a CRP without cod', crp],
    [
      'the second address format (cityId + districtName, Arabic name too)',
      { ...deliver, dropOffAddress: { city: 'القاهرة', cityId: CAIRO, districtName: 'الزمالك', firstLine: '3 Brazil Street' } },
    ],
    ['a known streetCode and a matching zone', { ...deliver, dropOffAddress: { ...dropOff, streetCode: 'ST-0001', zoneId: 'zone-eg-giza-dokki' } }],
    [
      'images all uploaded from the dashboard',
      { ...deliver, allowToOpenPackage: true, deliveryImages: [{ type: 'ALLOW_TO_OPEN_THE_PACKAGE', images: [dashboard('a'), dashboard('b')] }] },
    ],
    [
      'images all external',
      { ...deliver, allowToOpenPackage: true, deliveryImages: [{ type: 'ALLOW_TO_OPEN_THE_PACKAGE', images: ['https://cdn.example/a.jpg'] }] },
    ],
    ['an Exchange', { type: 30, dropOffAddress: dropOff, cod: 50 }],
    ['a Cash Collection', { type: 15, pickupAddress: pickup, cod: 1200 }],
  ];

  it.each(accepted)('accepts %s', async (_name, order) => {
    const answer = await createOrder(sandbox, order);
    expect(answer.body).toMatchObject({ success: true });
    expect(answer.status).toBe(201);
  });

  it('starts a Cash Collection in state 11 and the others in 10', async () => {
    expect((await createOrder(sandbox, { type: 15, pickupAddress: pickup, cod: 100 })).body.data.state).toEqual({ code: 11, value: 'Waiting for route' });
    expect((await createOrder(sandbox, crp)).body.data.state.code).toBe(10);
  });

  it('requires the addresses of each type (400, no errorCode)', async () => {
    for (const order of [{ type: 10 }, { type: 30 }, { type: 15, cod: 10 }, { type: 25 }]) {
      const answer = await createOrder(sandbox, order);
      expect(answer.status).toBe(400);
      expect(answer.body.errorCode).toBeUndefined();
      expect(answer.body.message).toMatch(/(dropOff|pickup)Address is required/);
    }
  });

  it('requires firstLine longer than 5 characters in order addresses', async () => {
    expect((await createOrder(sandbox, { ...deliver, dropOffAddress: { ...dropOff, firstLine: '12345' } })).status).toBe(400);
    expect((await createOrder(sandbox, { ...deliver, dropOffAddress: { ...dropOff, firstLine: '123456' } })).status).toBe(201);
  });

  it('refuses a drop-off in a district without drop-off availability', async () => {
    const answer = await createOrder(sandbox, { ...deliver, dropOffAddress: { city: 'Giza', districtId: AL_AYYAT_NO_DROPOFF, firstLine: 'Main road 12' } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('dropOffAvailability');
  });

  it('needs apiVersion=1 and a known type', async () => {
    expect((await call(sandbox, 'POST', '/deliveries', deliver)).status).toBe(400);
    expect((await createOrder(sandbox, { ...deliver, type: 99 })).status).toBe(400);
  });

  it('accepts a businessLocationId of the business only', async () => {
    expect((await createOrder(sandbox, { ...deliver, businessLocationId: locationId })).status).toBe(201);
    expect((await createOrder(sandbox, { ...deliver, businessLocationId: 'elsewhere' })).status).toBe(400);
  });
});

describe('fulfillment orders', () => {
  beforeEach(async () => {
    ({ sandbox } = await sandboxWithAccount());
  });
  const items = [
    { sku: 'TSHIRT-M', quantity: 2 },
    { sku: 'CAP', quantity: 1 },
  ];

  it('needs fulfillmentInfo items for FXF_SEND', async () => {
    expect((await createOrder(sandbox, { type: 'FXF_SEND', dropOffAddress: dropOff })).status).toBe(400);
    expect((await createOrder(sandbox, { type: 'FXF_SEND', dropOffAddress: dropOff, fulfillmentInfo: { items: [{ sku: 'A', quantity: 0 }] } })).status).toBe(
      400,
    );
    expect((await createOrder(sandbox, { type: 'FXF_SEND', dropOffAddress: dropOff, fulfillmentInfo: { items } })).status).toBe(201);
  });

  it('accepts a return of a subset of the original FXF_SEND items only', async () => {
    const original = await createOrder(sandbox, { type: 'FXF_SEND', dropOffAddress: dropOff, fulfillmentInfo: { items } });
    const tn: string = original.body.data.trackingNumber;
    const ret = (returned: object[], originalFulfillmentTrackingNumber: string | null = tn) =>
      createOrder(sandbox, {
        type: 'CUSTOMER_RETURN_PICKUP',
        pickupAddress: pickup,
        fulfillmentInfo: { items: returned },
        ...(originalFulfillmentTrackingNumber === null ? {} : { originalFulfillmentTrackingNumber }),
      });
    expect((await ret([{ sku: 'TSHIRT-M', quantity: 1 }])).status).toBe(201);
    expect((await ret(items)).status).toBe(201);
    expect((await ret([{ sku: 'TSHIRT-M', quantity: 3 }])).status).toBe(400);
    expect((await ret([{ sku: 'SHOES', quantity: 1 }])).status).toBe(400);
    expect((await ret([{ sku: 'CAP', quantity: 1 }], null)).status).toBe(400);
    expect((await ret([{ sku: 'CAP', quantity: 1 }], '99999999')).status).toBe(400);
    const plain = await createOrder(sandbox, deliver);
    expect((await ret([{ sku: 'CAP', quantity: 1 }], plain.body.data.trackingNumber)).body.message).toContain('FXF_SEND');
  });
});

describe('marketplace mode', () => {
  it('accepts a pickupAddress with only firstLine and city', async () => {
    sandbox = createSandbox();
    await setUpAccount(sandbox, { name: 'Bazaar', industry: 'Retail', monthlyShipmentVolume: '100-500', salesChannel: ['WEBSITE'], autoCreatePickups: true });
    const order = {
      ...deliver,
      pickupAddress: { city: 'Alexandria', firstLine: '10 Fouad Street' },
      pickupLocationContact: { firstName: 'Sara', lastName: 'N', phone: '+201000000000' },
    };
    expect((await createOrder(sandbox, order)).status).toBe(201);
    expect((await createOrder(sandbox, { ...order, pickupAddress: { city: 'Atlantis', firstLine: '10 Fouad Street' } })).body.errorCode).toBe(3001);
  });
});
