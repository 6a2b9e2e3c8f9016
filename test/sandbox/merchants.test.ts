// A team's sandbox: several merchants, each made ready in one call, each with its own key and
// records. What must hold: no key sees another's business, pickup locations, orders, pickups or
// webhook, whether the client calls in process (`sandbox.fetch`) or over HTTP (`listen()`); the
// default merchant (the sandbox's own key) works as it always did.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BusinessLocationRequiredError, DeliveryClient, type DeliveryClientOptions, NotFoundError, SubscriptionRequiredError } from '../../src/index.js';
import { createSandbox, type Sandbox, SandboxError, type SandboxMerchant } from '../../src/testing/index.js';
import { call, DOKKI, dropOff, MAKRAM_EBEID, setUpAccount, startReceiver } from '../support/sandbox.js';

let sandbox: Sandbox;
afterEach(() => sandbox.close());

const receiverPhone = '01011112222';
const orderOf = (reference: string) => ({
  type: 10 as const,
  dropOffAddress: dropOff,
  receiver: { firstName: 'Mona', lastName: 'Adel', phone: receiverPhone },
  cod: 250,
  businessReference: reference,
  uniqueBusinessReference: `U-${reference}`,
});
const contact = { name: 'Omar Said', phone: '01098765432' };
type Transport = Pick<DeliveryClientOptions, 'baseUrl'> & Partial<DeliveryClientOptions>;

/** The first date the sandbox offers for a pickup (Fridays are never offered). */
async function firstPickupDate(client: DeliveryClient) {
  const [date] = await client.pickups.availableDates({ days: 7 });
  if (date === undefined) throw new Error('no pickup date offered');
  return date;
}

describe('createMerchant', () => {
  beforeEach(() => {
    sandbox = createSandbox();
  });

  it('makes a merchant ready to take orders in one call: its key, a business and its default pickup location', async () => {
    const shop = sandbox.createMerchant();
    expect(shop).toMatchObject({
      id: 'merchant-1',
      // 32 random bytes after the merchant's number: another user of the machine cannot guess it.
      apiKey: expect.stringMatching(/^sandbox-merchant-1-[\w-]{43}$/),
      businessId: '5b0000000000000000000001',
      pickupLocationId: '5b0000000000000000000002',
    });
    const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: shop.apiKey, fetch: sandbox.fetch, maxRetries: 0 });
    const [location] = await client.pickupLocations.list();
    expect(location).toMatchObject({ _id: shop.pickupLocationId, locationName: 'Warehouse', isDefault: true, address: { districtId: MAKRAM_EBEID } });
    const created = await client.deliveries.create(orderOf('first'));
    expect(shop.orders().map((order) => [order.trackingNumber, order.businessId, order.merchantId])).toEqual([
      [created.trackingNumber, shop.businessId, 'merchant-1'],
    ]);
    expect(sandbox.orders().map((order) => order.merchantId)).toEqual(['merchant-1']);
  });

  it("gives every merchant a key of its own that no one can guess: the first merchants of two sandboxes' keys differ", () => {
    const other = createSandbox();
    const keys = [sandbox.createMerchant().apiKey, sandbox.createMerchant().apiKey, other.createMerchant().apiKey];
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) expect(key).not.toMatch(/^sandbox-merchant-\d+-key$/);
    void other.close();
  });

  it('takes its key, business name, pickup location and webhook from the options, and numbers the merchants', async () => {
    const receiver = await startReceiver();
    try {
      sandbox.createMerchant();
      const shop = sandbox.createMerchant({
        apiKey: 'shop-b-key',
        businessName: 'Giza Gadgets',
        pickupLocation: { locationName: 'Dokki store', districtId: DOKKI, firstLine: '3 Mosaddak Street' },
        webhook: { url: receiver.url, headerName: 'X-Shop', headerValue: 'b' },
      });
      expect(shop.id).toBe('merchant-2');
      expect(sandbox.merchants().map((merchant) => merchant.apiKey)).toEqual([expect.stringMatching(/^sandbox-merchant-1-/), 'shop-b-key']);
      const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: 'shop-b-key', fetch: sandbox.fetch, maxRetries: 0 });
      expect(await client.pickupLocations.get(shop.pickupLocationId)).toMatchObject({ locationName: 'Dokki store', address: { districtId: DOKKI } });
      const { trackingNumber } = await client.deliveries.create(orderOf('b-1'));
      await sandbox.advance(trackingNumber, { to: 20 });
      expect(receiver.received.map((hook) => [hook.body.trackingNumber, hook.body.state, hook.headers['x-shop']])).toEqual([[trackingNumber, 20, 'b']]);
    } finally {
      await receiver.close();
    }
  });

  it('refuses what it cannot make, with a SandboxError, and makes nothing', () => {
    sandbox.createMerchant({ apiKey: 'taken' });
    expect(() => sandbox.createMerchant({ apiKey: 'taken' })).toThrow(
      new SandboxError('createMerchant: another merchant of this sandbox already has this apiKey'),
    );
    expect(() => sandbox.createMerchant({ apiKey: sandbox.apiKey })).toThrow(/already has this apiKey/);
    expect(() => sandbox.createMerchant({ apiKey: ' padded' })).toThrow(/printable ASCII/);
    expect(() => sandbox.createMerchant({ apiKey: 'line\nbreak' })).toThrow(/printable ASCII/);
    expect(() => sandbox.createMerchant({ pickupLocation: { districtId: 'district-nowhere' } })).toThrow(
      /createMerchant: District Not Found: pickupLocation.districtId 'district-nowhere' is not in the district lists/,
    );
    expect(() => sandbox.createMerchant({ pickupLocation: { districtId: 'district-eg-cairo-madinaty' } })).toThrow(/does not pick up from/);
    expect(() => sandbox.createMerchant({ webhook: { url: 'http://169.254.169.254/latest' } })).toThrow(
      /createMerchant: webhook: 169.254.169.254 is a link-local/,
    );
    expect(() => sandbox.createMerchant({ businessName: ' ' })).toThrow(/businessName/);
    expect(sandbox.merchants().map((merchant) => merchant.id)).toEqual(['merchant-1']);
    // The next merchant is numbered after the last one made: nothing was made in between.
    expect(sandbox.createMerchant().id).toBe('merchant-2');
  });

  it('leaves the default merchant as it was: its key, no business until it makes one', async () => {
    sandbox.createMerchant();
    const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch, maxRetries: 0 });
    // Another merchant's business is not the default merchant's: its orders still need one of their own.
    await expect(client.deliveries.create(orderOf('default-1'))).rejects.toBeInstanceOf(BusinessLocationRequiredError);
    const { businessId } = await setUpAccount(sandbox);
    const created = await client.deliveries.create(orderOf('default-1'));
    expect(sandbox.order(created.trackingNumber)).toMatchObject({ businessId, merchantId: 'default' });
  });
});

/**
 * Two merchants, A and B, made ready and given one of each record; then B, with its own key,
 * reaches for each of A's. Run once with the client on `sandbox.fetch`, once over HTTP.
 */
describe.each([
  ['in process (sandbox.fetch)', async (box: Sandbox): Promise<Transport> => ({ baseUrl: box.baseUrl, fetch: box.fetch })],
  ['over HTTP (listen())', async (box: Sandbox): Promise<Transport> => ({ baseUrl: (await box.listen()).baseUrl })],
])('keys never see each other’s records, %s', (_, transport) => {
  let a: SandboxMerchant;
  let b: SandboxMerchant;
  let asA: DeliveryClient;
  let asB: DeliveryClient;
  let aOrder: string;
  let aPickup: string;
  let receivers: Array<Awaited<ReturnType<typeof startReceiver>>>;

  beforeEach(async () => {
    sandbox = createSandbox();
    receivers = [await startReceiver(), await startReceiver()];
    a = sandbox.createMerchant({ webhook: { url: receivers[0]?.url ?? '' } });
    b = sandbox.createMerchant({ webhook: { url: receivers[1]?.url ?? '' } });
    // One platform, many merchants: one client, a key per merchant (client.withOptions).
    const platform = new DeliveryClient({ ...(await transport(sandbox)), maxRetries: 0 });
    asA = platform.withOptions({ apiKey: a.apiKey });
    asB = platform.withOptions({ apiKey: b.apiKey });
    aOrder = (await asA.deliveries.create(orderOf('a-1'))).trackingNumber;
    const date = await firstPickupDate(asA);
    aPickup = (
      await asA.pickups.create({
        businessLocationId: a.pickupLocationId,
        scheduledDate: date,
        scheduledTimeSlot: '10:00 to 13:00',
        contactPerson: contact,
      })
    )._id;
  });
  afterEach(async () => {
    for (const receiver of receivers) await receiver.close();
  });

  it("B cannot read, change or cancel A's order, nor find it in a list, a search, a customer's history or a label", async () => {
    await expect(asB.deliveries.get(aOrder)).rejects.toBeInstanceOf(NotFoundError);
    await expect(asB.deliveries.track(aOrder)).rejects.toBeInstanceOf(NotFoundError);
    await expect(asB.deliveries.update(aOrder, { notes: 'mine now' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(asB.deliveries.terminate(aOrder)).rejects.toBeInstanceOf(NotFoundError);
    expect((await asB.deliveries.search({})).deliveries).toEqual([]);
    expect(await asB.deliveries.findByReference('a-1')).toBeUndefined();
    expect(await asB.deliveries.customerHistory(receiverPhone)).toMatchObject({ total: 0 });
    await expect(asB.deliveries.airwayBills([aOrder])).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('None of the tracking numbers can be printed'),
    });
    // A's order is as A left it, and A sees it.
    expect(sandbox.order(aOrder)).toMatchObject({ state: 10, merchantId: a.id });
    expect((await asA.deliveries.get(aOrder)).notes).toBeUndefined();
    expect((await asA.deliveries.search({})).deliveries.map((order) => order.trackingNumber)).toEqual([aOrder]);
  });

  it("B's references are its own: A's uniqueBusinessReference is free for B, and B's order is B's", async () => {
    const bOrder = await asB.deliveries.create(orderOf('a-1'));
    expect(bOrder.trackingNumber).not.toBe(aOrder);
    expect(a.orders().map((order) => order.trackingNumber)).toEqual([aOrder]);
    expect(b.orders().map((order) => order.trackingNumber)).toEqual([bOrder.trackingNumber]);
    expect((await asB.deliveries.findByReference('a-1'))?.trackingNumber).toBe(bOrder.trackingNumber);
  });

  it("B cannot see, change, delete or make default A's pickup location, nor book a pickup there", async () => {
    expect((await asB.pickupLocations.list()).map((location) => location._id)).toEqual([b.pickupLocationId]);
    await expect(asB.pickupLocations.get(a.pickupLocationId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(asB.pickupLocations.update(a.pickupLocationId, { locationName: 'Taken' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(asB.pickupLocations.setDefault(a.pickupLocationId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(asB.pickupLocations.delete(a.pickupLocationId)).rejects.toBeInstanceOf(NotFoundError);
    const date = await firstPickupDate(asB);
    await expect(
      asB.pickups.create({ businessLocationId: a.pickupLocationId, scheduledDate: date, scheduledTimeSlot: '10:00 to 13:00', contactPerson: contact }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('is not a pickup location of this business') });
    expect(await asA.pickupLocations.get(a.pickupLocationId)).toMatchObject({ locationName: 'Warehouse', isDefault: true });
  });

  it("B cannot see, change or cancel A's pickup; the same location and date stay free for B's own", async () => {
    expect((await asB.pickups.list()).pickups).toEqual([]);
    await expect(asB.pickups.get(aPickup)).rejects.toBeInstanceOf(NotFoundError);
    await expect(asB.pickups.update(aPickup, { scheduledTimeSlot: '13:00 to 16:00' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(asB.pickups.delete(aPickup)).rejects.toBeInstanceOf(NotFoundError);
    expect(await asA.pickups.get(aPickup)).toMatchObject({ _id: aPickup, state: 'Requested', scheduledTimeSlot: '10:00 to 13:00' });
    const date = await firstPickupDate(asB);
    const bPickup = await asB.pickups.create({
      businessLocationId: b.pickupLocationId,
      scheduledDate: date,
      scheduledTimeSlot: '10:00 to 13:00',
      contactPerson: contact,
    });
    expect(bPickup.puid).not.toBe((await asA.pickups.get(aPickup)).puid);
  });

  it("B cannot add pickup locations to A's business", async () => {
    await expect(
      asB.businesses.updatePickupLocations(a.businessId, [{ locationName: 'Sneaky', districtId: MAKRAM_EBEID, firstLine: '7 Makram Ebeid Street' }]),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect((await asA.pickupLocations.list()).map((location) => location.locationName)).toEqual(['Warehouse']);
  });

  it("each merchant's webhook hears its own orders only; A's lapsed subscription does not stop B", async () => {
    const bOrder = (await asB.deliveries.create(orderOf('b-1'))).trackingNumber;
    await sandbox.advance(aOrder, { to: 20 });
    await sandbox.advance(bOrder, { to: 20 });
    expect(receivers[0]?.received.map((hook) => hook.body.trackingNumber)).toEqual([aOrder]);
    expect(receivers[1]?.received.map((hook) => hook.body.trackingNumber)).toEqual([bOrder]);
    a.setSubscriptionActive(false);
    await expect(asA.deliveries.create(orderOf('a-2'))).rejects.toBeInstanceOf(SubscriptionRequiredError);
    await asB.deliveries.create(orderOf('b-2'));
    expect(b.orders()).toHaveLength(2);
  });

  it('a key no merchant has sees nothing at all: 401, errorCode 1028', async () => {
    const stranger = new DeliveryClient({ ...(await transport(sandbox)), apiKey: 'nobody', maxRetries: 0 });
    await expect(stranger.deliveries.get(aOrder)).rejects.toMatchObject({ status: 401, errorCode: 1028 });
  });
});

describe('merchants over the control endpoints (POST /__sandbox/merchants), for a CLI or a test in another language', () => {
  it('makes a ready merchant whose key the API takes, sets its webhook and lists its orders; token-checked like the others', async () => {
    sandbox = createSandbox();
    const server = await sandbox.listen();
    const control = server.baseUrl.replace(/\/v2$/, '/__sandbox');
    const receiver = await startReceiver();
    try {
      const send = async (method: string, path: string, body?: unknown, token = server.controlToken) => {
        const response = await fetch(`${control}${path}`, {
          method,
          headers: { 'content-type': 'application/json', 'x-sandbox-token': token },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: response.status, body: (await response.json()) as any };
      };
      expect((await send('POST', '/merchants', {}, 'wrong-token')).status).toBe(401);
      expect(sandbox.merchants()).toEqual([]);

      const made = await send('POST', '/merchants', { businessName: 'Remote shop', apiKey: 'remote-key' });
      expect(made).toEqual({
        status: 201,
        body: {
          success: true,
          message: 'Merchant created',
          data: { id: 'merchant-1', apiKey: 'remote-key', businessId: '5b0000000000000000000001', pickupLocationId: '5b0000000000000000000002' },
        },
      });
      expect((await send('PUT', '/merchants/merchant-1/webhook', { url: receiver.url, headerName: 'X-Remote', headerValue: 'r' })).status).toBe(200);
      const client = new DeliveryClient({ baseUrl: server.baseUrl, apiKey: 'remote-key', maxRetries: 0 });
      const { trackingNumber } = await client.deliveries.create(orderOf('remote-1'));
      expect((await send('POST', `/orders/${trackingNumber}/advance`, { to: 20 })).status).toBe(200);
      expect(receiver.received.map((hook) => [hook.body.state, hook.headers['x-remote']])).toEqual([[20, 'r']]);
      const orders = await send('GET', '/merchants/merchant-1/orders');
      expect(orders.body.data.map((order: { trackingNumber: string; merchantId: string }) => [order.trackingNumber, order.merchantId])).toEqual([
        [trackingNumber, 'merchant-1'],
      ]);
      expect((await send('GET', '/merchants')).body.data).toEqual([made.body.data]);
      expect((await send('DELETE', '/merchants/merchant-1/webhook')).status).toBe(200);

      expect(await send('POST', '/merchants', { apiKey: 'remote-key' })).toMatchObject({
        status: 400,
        body: { message: expect.stringMatching(/already has this apiKey/) },
      });
      expect(await send('GET', '/merchants/merchant-9/orders')).toMatchObject({ status: 404, body: { success: false } });
      expect(sandbox.merchants()).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('the raw API answers each key from its own account', async () => {
    sandbox = createSandbox();
    const a = sandbox.createMerchant();
    const b = sandbox.createMerchant();
    const created = await call(sandbox, 'POST', '/deliveries?apiVersion=1', { type: 10, dropOffAddress: dropOff }, a.apiKey);
    expect(created.status).toBe(201);
    const tn: string = created.body.data.trackingNumber;
    expect((await call(sandbox, 'GET', `/deliveries/business/${tn}`, undefined, a.apiKey)).status).toBe(200);
    expect(await call(sandbox, 'GET', `/deliveries/business/${tn}`, undefined, b.apiKey)).toMatchObject({
      status: 404,
      body: { success: false, message: `Delivery ${tn} not found` },
    });
  });
});
