import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  calculatePrice,
  createDelivery,
  createPickup,
  DeliveryCore,
  findDeliveryByReference,
  getAirwayBills,
  getDelivery,
  listDeliveries,
  listPickupDates,
  listPickupLocations,
  resolveBulkTrackingNumbers,
  searchDeliveries,
  terminateDelivery,
  updateDelivery,
} from '../../src/functions/index.js';
import {
  ApiError,
  AuthenticationError,
  BulkCreationError,
  DeliveryClient,
  isDeliveryError,
  OrderStateError,
  PermissionDeniedError,
  PickupErrorCode,
  ResponseShapeError,
  ServerError,
  ValidationError,
} from '../../src/index.js';
import { envelope, type Received, startFakeService } from '../support/fake-service.js';

const KEY = 'fake-key-123';
let fake: Awaited<ReturnType<typeof startFakeService>>;
let core: DeliveryCore;
let client: DeliveryClient;

beforeAll(async () => {
  fake = await startFakeService();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.received.length = 0;
  core = new DeliveryCore({ apiKey: KEY, baseUrl: fake.baseUrl, maxRetries: 0 });
  client = new DeliveryClient({ apiKey: KEY, baseUrl: fake.baseUrl, maxRetries: 0 });
});

const dropOffAddress = { city: 'Giza', districtId: 'aiJudRHeOt', firstLine: '3 Mosaddak Street, 2nd floor' };
const read = (trackingNumber: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  _id: `id-${String(trackingNumber)}`,
  trackingNumber,
  state: { code: 10, value: 'Pickup requested' },
  type: { code: 10, value: 'Send' },
  dropOffAddress: { city: { name: 'Giza' }, zone: { name: 'Dokki' }, district: { name: 'Dokki' }, firstLine: '12 Tahrir Street' },
  updatedAt: 'Wed Mar 11 2026 09:00:00 GMT+0200 (Eastern European Standard Time)',
  pricing: {},
  ...extra,
});
const only = (method: string): Received[] => fake.received.filter((r) => r.method === method);

describe('deliveries after creation, against a node:http fake in the shapes of live-service.md', () => {
  it('get: GET /deliveries/business/{trackingNumber} with the raw key; a numeric tracking number is read as a string; unknown fields kept', async () => {
    fake.on('GET /deliveries/business/:tn', () => envelope(read(70000012, { outboundActionsCount: 0, brandNew: { x: 1 } })));
    const order = await getDelivery(core, '70000012');
    expect(fake.received[0]).toMatchObject({ method: 'GET', path: '/deliveries/business/70000012' });
    expect(fake.received[0]?.headers['authorization']).toBe(KEY);
    expect(order).toMatchObject({ trackingNumber: '70000012', state: { code: 10 }, dropOffAddress: { city: { name: 'Giza' } }, brandNew: { x: 1 } });
    expect(order.updatedAt).toMatch(/^Wed Mar 11/);
    await client.deliveries.get('a/b');
    expect(fake.received[1]?.path).toBe('/deliveries/business/a%2Fb');
    await expect(getDelivery(core, '  ')).rejects.toBeInstanceOf(ValidationError);
    expect(fake.received).toHaveLength(2);
  });

  it('search: POST /deliveries/search, lists as comma-separated text, paging in the body; answers one typed page', async () => {
    fake.on('POST /deliveries/search', () => envelope({ deliveries: [read('1'), read('2')], count: 2, page: 1, limit: 10 }));
    const page = await searchDeliveries(core, { trackingNumbers: ['1', '2'], businessReference: ['#a', '#b'], stateCodes: [10, 24], page: 1, limit: 10 });
    expect(fake.received[0]?.body).toEqual({ trackingNumbers: '1,2', businessReference: '#a,#b', stateCodes: [10, 24], page: 1, limit: 10 });
    expect(page).toMatchObject({ count: 2, page: 1, limit: 10 });
    expect(page.deliveries.map((d) => d.trackingNumber)).toEqual(['1', '2']);
    await expect(searchDeliveries(core, { page: 0 })).rejects.toBeInstanceOf(ValidationError);
    expect(fake.received).toHaveLength(1);
  });

  it('list: reads page after page, never trusting count (0 on a full page), stops on the short page, and asks only as the caller reads on', async () => {
    fake.on('POST /deliveries/search', (request) => {
      const { page } = request.body as { page: number };
      const size = page < 3 ? 2 : 1;
      return envelope({ deliveries: Array.from({ length: size }, (_, i) => read(`${page}-${i}`)), count: 0, page, limit: 2 });
    });
    const iterator = listDeliveries(core, { limit: 2 })[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.trackingNumber).toBe('1-0');
    expect(fake.received).toHaveLength(1);
    const rest: string[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value.trackingNumber);
    expect(rest).toEqual(['1-1', '2-0', '2-1', '3-0']);
    expect(fake.received.map((r) => (r.body as { page: number }).page)).toEqual([1, 2, 3]);
  });

  it('findByReference: the exact match among looser ones, or undefined', async () => {
    fake.on('POST /deliveries/search', () =>
      envelope({ deliveries: [read('1', { businessReference: 'order-10420' }), read('2', { businessReference: 'order-1042' })], count: 2 }),
    );
    expect((await findDeliveryByReference(core, 'order-1042'))?.trackingNumber).toBe('2');
    expect(fake.received[0]?.body).toMatchObject({ businessReference: 'order-1042' });
    expect(await client.deliveries.findByReference('order-7')).toBeUndefined();
  });

  it('update: PUT /deliveries/business/{id} with the changes, create rules run on them; a read order past the editable states is refused unsent', async () => {
    fake.on('PUT /deliveries/business/:id', () => ({ json: { success: true, message: 'Done successfully.', data: { _id: 'abc' } } }));
    expect(await updateDelivery(core, '70000012', { dropOffAddress, notes: 'Call first' })).toEqual({ _id: 'abc' });
    expect(fake.received[0]).toMatchObject({ method: 'PUT', path: '/deliveries/business/70000012', body: { dropOffAddress, notes: 'Call first' } });

    // @ts-expect-error the address needs a location (3009) and a firstLine
    const badAddress = await updateDelivery(core, '70000012', { dropOffAddress: { firstLine: 'x' } }).catch((e: unknown) => e);
    expect(badAddress).toBeInstanceOf(Error);
    expect(isDeliveryError(badAddress, 3009)).toBe(true);
    const badPhone = await client.deliveries.update('70000012', { receiver: { phone: 'call me' } }).catch((e: unknown) => e);
    expect(badPhone).toBeInstanceOf(ValidationError);
    expect((badPhone as ValidationError).issues[0]?.path).toEqual(['receiver', 'phone']);
    await expect(updateDelivery(core, '70000012', {})).rejects.toBeInstanceOf(ValidationError);

    const delivered = { trackingNumber: '70000013', state: { code: 45, value: 'Delivered' } };
    const refused = await client.deliveries.update(delivered, { notes: 'late' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OrderStateError);
    expect((refused as OrderStateError).allowedStates).toEqual([10, 11, 20, 21, 22, 24, 30, 41, 47]);
    // A Customer Return Pickup read: its cod rule (refund only, 3005) applies
    const crp = { trackingNumber: '70000014', state: { code: 10 }, type: { code: 25, value: 'Customer Return Pickup' } };
    expect(isDeliveryError(await updateDelivery(core, crp, { cod: 100 }).catch((e: unknown) => e), 3005)).toBe(true);
    expect(only('PUT')).toHaveLength(1);

    await updateDelivery(core, { trackingNumber: '70000015', state: { code: 24 } }, { notes: 'ok' });
    expect(only('PUT')[1]?.path).toBe('/deliveries/business/70000015');
  });

  it('terminate: DELETE /deliveries/business/{id}/terminate; 401 and 403 keep their classes, the message naming a key without full access', async () => {
    fake.on('DELETE /deliveries/business/:id/terminate', () => envelope({ _id: 'abc' }));
    expect(await terminateDelivery(core, '70000012')).toEqual({ _id: 'abc' });
    expect(fake.received[0]).toMatchObject({ method: 'DELETE', path: '/deliveries/business/70000012/terminate' });

    fake.on('DELETE /deliveries/business/:id/terminate', () => ({ status: 403, json: { success: false, message: 'Forbidden' } }));
    const forbidden = await client.deliveries.terminate('70000012').catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(PermissionDeniedError);
    expect((forbidden as PermissionDeniedError).status).toBe(403);
    expect((forbidden as Error).message).toMatch(/full access/);
    fake.on('DELETE /deliveries/business/:id/terminate', () => ({ status: 401, json: { success: false, message: 'Unauthorized' } }));
    const unauthorized = await terminateDelivery(core, '70000012').catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(AuthenticationError);
    expect((unauthorized as Error).message).toMatch(/full access/);
    expect(JSON.stringify(unauthorized)).not.toContain(KEY);
  });

  it('airwayBills: POST /deliveries/mass-awb { trackingNumbers: "a,b", requestedAwbType, lang }; base64 and text PDFs read, the rest refused', async () => {
    const pdf = '%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n';
    fake.on('POST /deliveries/mass-awb', () => envelope(btoa(pdf)));
    const bytes = await getAirwayBills(core, ['70000012', '70000013'], { size: 'A6', lang: 'en' });
    expect(fake.received[0]?.body).toEqual({ trackingNumbers: '70000012,70000013', requestedAwbType: 'A6', lang: 'en' });
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder('latin1').decode(bytes)).toBe(pdf);

    fake.on('POST /deliveries/mass-awb', () => envelope(pdf));
    expect(new TextDecoder('latin1').decode(await client.deliveries.airwayBills(['1']))).toBe(pdf);
    expect(fake.received[1]?.body).toEqual({ trackingNumbers: '1', requestedAwbType: 'A4', lang: 'ar' });

    fake.on('POST /deliveries/mass-awb', () => envelope(btoa('<html>error</html>')));
    await expect(getAirwayBills(core, ['1'])).rejects.toBeInstanceOf(ResponseShapeError);
    fake.on('POST /deliveries/mass-awb', () => envelope(null, 'sent to your e-mail'));
    await expect(getAirwayBills(core, ['1'])).rejects.toBeInstanceOf(ResponseShapeError);

    const sent = fake.received.length;
    const many = Array.from({ length: 51 }, (_, i) => String(70000000 + i));
    const tooMany = await getAirwayBills(core, many).catch((e: unknown) => e);
    expect(tooMany).toBeInstanceOf(ValidationError);
    expect((tooMany as Error).message).toMatch(/at most 50/);
    await expect(getAirwayBills(core, [])).rejects.toBeInstanceOf(ValidationError);
    await expect(getAirwayBills(core, ['1,2'])).rejects.toBeInstanceOf(ValidationError);
    // @ts-expect-error a JavaScript caller's size
    await expect(getAirwayBills(core, ['1'], { size: 'A5' })).rejects.toBeInstanceOf(ValidationError);
    expect(fake.received).toHaveLength(sent);
  });

  it('airwayBills refuses, before sending, what deliveries.get would: holes, numbers, empty text, spaces and control characters, naming the index', async () => {
    const sent = fake.received.length;
    const refused: Array<[string, unknown[], number]> = [
      // biome-ignore lint/suspicious/noSparseArray: the hole is the point
      ['a hole (",,70000012" was sent)', [, , '70000012'], 0],
      ['numbers ("1.5,1e+308" was sent)', [1.5, 1e308], 0],
      ['a whole number', ['70000012', 70000013], 1],
      ['an empty string', ['70000012', ''], 1],
      ['a tab', ['7000\t0012'], 0],
      ['a newline', ['70000012\n'], 0],
      ['a NUL', ['7000\u00000012'], 0],
      ['null', [null], 0],
    ];
    for (const [name, list, index] of refused) {
      const error = await getAirwayBills(core, list as string[]).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]?.path, name).toEqual(['trackingNumbers', index]);
    }
    expect(fake.received).toHaveLength(sent);
  });
});

describe('exotic input', () => {
  it('a revoked Proxy as changes, filter, pickup or order rejects with a DeliveryError, and nothing is sent', async () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const calls = [
      updateDelivery(core, proxy as never, { notes: 'x' }),
      updateDelivery(core, '1', proxy as never),
      searchDeliveries(core, proxy as never),
      createPickup(core, proxy as never),
      calculatePrice(core, proxy as never),
      getAirwayBills(core, ['1'], proxy as never),
    ];
    for (const call of calls) await expect(call).rejects.toBeInstanceOf(ValidationError);
    expect(fake.received).toHaveLength(0);
  });
});

describe('pickups, pickup locations and fees, against the fake', () => {
  const contactPerson = { name: 'Omar Said', phone: '01098765432' };
  const pickup = { businessLocationId: 'loc-1', scheduledDate: '2026-03-12', scheduledTimeSlot: '10:00 to 13:00', contactPerson } as const;

  it('create: POST /pickups with the body as given; the answer typed; a bad date or slot is refused before sending', async () => {
    fake.on('POST /pickups', (request) =>
      envelope({ _id: 'p1', puid: 1001, state: 'Requested', ...(request.body as object), deliveries: [], createdAt: '2026-03-11T07:00:00.000Z' }),
    );
    const created = await createPickup(core, { ...pickup, numberOfParcels: 4, packageType: 'Normal' });
    expect(fake.received[0]).toMatchObject({ method: 'POST', path: '/pickups', body: { ...pickup, numberOfParcels: 4, packageType: 'Normal' } });
    expect(created).toMatchObject({ _id: 'p1', state: 'Requested', scheduledTimeSlot: '10:00 to 13:00' });

    const badDate = await createPickup(core, { ...pickup, scheduledDate: '2026-02-30' }).catch((e: unknown) => e);
    expect(badDate).toBeInstanceOf(ValidationError);
    expect((badDate as ValidationError).issues[0]?.path).toEqual(['scheduledDate']);
    // @ts-expect-error only the two slots seen
    await expect(client.pickups.create({ ...pickup, scheduledTimeSlot: '16:00 to 19:00' })).rejects.toBeInstanceOf(ValidationError);
    expect(fake.received).toHaveLength(1);
  });

  it('the pickup errorCodes arrive as an ApiError carrying the code, the message giving its meaning', async () => {
    fake.on('POST /pickups', () => ({ status: 400, json: { success: false, errorCode: 1080, data: null } }));
    const error = await client.pickups.create(pickup).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(isDeliveryError(error, PickupErrorCode.FridayNotAllowed)).toBe(true);
    expect((error as Error).message).toMatch(/1080: Pickups cannot be scheduled on a Friday/);
  });

  it('get, list, update, delete and availableDates call their paths', async () => {
    fake.on('GET /pickups/:id', () => envelope({ _id: 'p1', state: 'Requested' }));
    fake.on('GET /pickups', () => envelope({ pickups: [{ _id: 'p1' }, { _id: 'p2' }], count: 2 }));
    fake.on('PUT /pickups/:id', () => envelope({ _id: 'p1', scheduledTimeSlot: '13:00 to 16:00' }));
    fake.on('DELETE /pickups/:id', () => envelope({ _id: 'p1' }));
    fake.on('GET /pickups/available-dates', () => envelope(['2026-03-12', '2026-03-14']));
    expect(await client.pickups.get('p1')).toMatchObject({ _id: 'p1' });
    expect((await client.pickups.list()).pickups.map((p) => p._id)).toEqual(['p1', 'p2']);
    expect(await client.pickups.update('p1', { scheduledTimeSlot: '13:00 to 16:00' })).toMatchObject({ scheduledTimeSlot: '13:00 to 16:00' });
    await client.pickups.delete('p1');
    expect(await listPickupDates(core, { days: 5 })).toEqual(['2026-03-12', '2026-03-14']);
    expect(fake.received.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /pickups/p1',
      'GET /pickups',
      'PUT /pickups/p1',
      'DELETE /pickups/p1',
      'GET /pickups/available-dates',
    ]);
    expect(fake.received[2]?.body).toEqual({ scheduledTimeSlot: '13:00 to 16:00' });
    expect(fake.received[4]?.query).toEqual({ days: '5' });
    await expect(client.pickups.availableDates({ days: 0 })).rejects.toBeInstanceOf(ValidationError);
  });

  it('pickupLocations.list reads { total, list }', async () => {
    fake.on('GET /pickup-locations', () =>
      envelope({
        total: 1,
        list: [
          { _id: 'loc-1', locationName: 'Warehouse', isDefault: true, contactPerson: { name: 'Omar', phone: '010' }, address: { city: { name: 'Cairo' } } },
        ],
      }),
    );
    expect(await listPickupLocations(core)).toEqual([expect.objectContaining({ _id: 'loc-1', isDefault: true, address: { city: { name: 'Cairo' } } })]);
  });

  it('pricing.calculate: GET /pricing/shipment/calculator with every parameter (defaults SEND, Normal, 0); the answer typed, the rest kept', async () => {
    fake.on('GET /pricing/shipment/calculator', () =>
      envelope({
        shippingFee: 60,
        priceAfterVat: 68.4,
        extraCodFee: { amount: 0 },
        tier: { openingPackageFee: { amount: 0 }, bostaMaterialFee: { amount: 0 } },
        zone: 'A',
      }),
    );
    const quote = await calculatePrice(core, { dropOffCity: 'Giza', pickupCity: 'Cairo' });
    expect(fake.received[0]?.query).toEqual({ dropOffCity: 'Giza', pickupCity: 'Cairo', cod: '0', type: 'SEND', size: 'Normal' });
    expect(quote).toMatchObject({ shippingFee: 60, priceAfterVat: 68.4, zone: 'A' });
    await expect(client.pricing.calculate({ dropOffCity: 'Giza', pickupCity: 'Cairo', cod: 40_000 })).rejects.toSatisfy((e) => isDeliveryError(e, 3007));
    expect(fake.received).toHaveLength(1);
  });
});

describe('recovery against the fake', () => {
  it('a create carrying uniqueBusinessReference is repeated after a 503; one without is not', async () => {
    let calls = 0;
    fake.on('POST /deliveries', () =>
      ++calls === 1 ? { status: 503, json: { success: false, message: 'busy' } } : envelope({ _id: 'd1', trackingNumber: '7001' }),
    );
    const retrying = new DeliveryCore({ apiKey: KEY, baseUrl: fake.baseUrl, maxRetries: 2, retryDelay: { base: 1, max: 1 } });
    const order = { type: 10, dropOffAddress, receiver: { firstName: 'Mona', phone: '01012345678' } } as const;
    expect(await createDelivery(retrying, { ...order, uniqueBusinessReference: 'WC_1' } as typeof order)).toMatchObject({ trackingNumber: '7001' });
    expect(calls).toBe(2);
    calls = 0;
    await expect(createDelivery(retrying, order)).rejects.toBeInstanceOf(ServerError);
    expect(calls).toBe(1);
  });

  it('resolveTrackingNumbers: created orders get tracking numbers; mayExist ones come back created or not there; duplicates listed', async () => {
    const held = [
      read('701', { _id: 'i1', businessReference: 'r1' }),
      read('702', { _id: 'i2', businessReference: 'r2' }),
      read('703', { _id: 'i3', businessReference: 'r3' }),
    ];
    fake.on('POST /deliveries/search', (request) => {
      const wanted = String((request.body as { businessReference: string }).businessReference).split(',');
      const deliveries = held.filter((d) => wanted.includes(String(d['businessReference'])));
      return envelope({ deliveries, count: deliveries.length, page: 1, limit: 50 });
    });
    const orders = ['r1', 'r2', 'r3', 'r4', 'dup', 'dup'].map((businessReference) => ({ businessReference }));
    const reason = new ServerError('503', { status: 503, request: { method: 'POST', url: 'x' } });
    const outcome = new BulkCreationError({
      source: 'server',
      result: {
        created: [
          { index: 0, businessReference: 'r1' },
          { index: 1, businessReference: 'r2' },
        ],
        failed: [2, 3, 4, 5].map((index) => ({ index, error: reason, mayExist: true })),
        createdIds: ['i1', 'i2'],
      },
    });
    const settled = await resolveBulkTrackingNumbers(core, outcome, { orders });
    expect(settled.created).toEqual([
      { index: 0, businessReference: 'r1', _id: 'i1', trackingNumber: '701' },
      { index: 1, businessReference: 'r2', _id: 'i2', trackingNumber: '702' },
      { index: 2, businessReference: 'r3', _id: 'i3', trackingNumber: '703' },
    ]);
    expect(settled.failed.map(({ index, mayExist }) => ({ index, mayExist }))).toEqual([
      { index: 3, mayExist: false },
      { index: 4, mayExist: true },
      { index: 5, mayExist: true },
    ]);
    expect(settled.unresolved.map((u) => u.index)).toEqual([4, 5]);
    expect(settled.unresolved[0]?.reason.message).toMatch(/given to 2 orders/);
    expect(settled.createdIds).toEqual(['i1', 'i2', 'i3']);
    // One search for the four searchable references
    expect(only('POST')).toHaveLength(1);
    expect(
      String((only('POST')[0]!.body as { businessReference: string }).businessReference)
        .split(',')
        .sort(),
    ).toEqual(['r1', 'r2', 'r3', 'r4']);
  });

  it('a failed lookup leaves its orders unresolved with the error; the result can be passed in again', async () => {
    fake.on('POST /deliveries/search', () => ({ status: 500, json: { success: false, message: 'down' } }));
    const result = { created: [{ index: 0, businessReference: 'r1' }], failed: [], createdIds: ['i1'] };
    const first = await client.deliveries.resolveTrackingNumbers(result);
    expect(first.unresolved).toEqual([expect.objectContaining({ index: 0, created: true, reason: expect.any(ServerError) })]);
    fake.on('POST /deliveries/search', () => envelope({ deliveries: [read('701', { _id: 'i1', businessReference: 'r1' })], count: 1 }));
    const second = await client.deliveries.resolveTrackingNumbers(first);
    expect(second.unresolved).toEqual([]);
    expect(second.created[0]?.trackingNumber).toBe('701');
  });
});
