import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, DeliveryState, isDeliveryError, NotFoundError, type OrderInput, OrderStateError, PickupErrorCode } from '../../src/index.js';
import type { Sandbox } from '../../src/testing/index.js';
import { dropOff, sandboxWithAccount } from '../support/sandbox.js';

// 2026-03-11 is a Wednesday; 09:00 in Cairo.
const WEDNESDAY = Date.UTC(2026, 2, 11, 7, 0, 0);
let sandbox: Sandbox | undefined;

async function setUp(options: { webhookFetch?: (url: string, init: RequestInit) => Promise<Response> } = {}) {
  const clock = { now: WEDNESDAY };
  const account = await sandboxWithAccount({ now: () => clock.now, ...options });
  sandbox = account.sandbox;
  return { ...account, clock };
}

const order = (reference: string, extra: Record<string, unknown> = {}): OrderInput =>
  ({
    type: 10,
    dropOffAddress: dropOff,
    receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
    cod: 250,
    businessReference: reference,
    ...extra,
  }) as OrderInput;

afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('sandbox: after creation, through the client', () => {
  it('get reads a typed order: state and type as { code, value }, addresses with named places, a timeline, dates as strings', async () => {
    const { client } = await setUp();
    const { trackingNumber } = await client.deliveries.create(order('ref-1'));
    const read = await client.deliveries.get(trackingNumber);
    expect(read).toMatchObject({
      trackingNumber,
      state: { code: DeliveryState.PickupRequested, value: 'Pickup requested' },
      type: { code: 10, value: 'Send' },
      businessReference: 'ref-1',
      cod: 250,
      receiver: { fullName: 'Mona Adel', phone: '01012345678' },
      dropOffAddress: { city: { name: 'Giza' }, district: { name: 'Dokki' }, firstLine: dropOff.firstLine },
    });
    expect(read.timeline?.[0]).toMatchObject({ value: 'Pickup requested', done: true });
    expect(typeof read.createdAt).toBe('string');
    await expect(client.deliveries.get('79999999')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('state.code tells 45 from 46 where state.value reads "Delivered" for both', async () => {
    const { client, sandbox } = await setUp();
    const { trackingNumber } = await client.deliveries.create({ type: 25, pickupAddress: dropOff, receiver: { firstName: 'Mona', phone: '01012345678' } });
    await sandbox.play(trackingNumber, 'success');
    const read = await client.deliveries.get(trackingNumber);
    expect(read.state).toEqual({ code: 46, value: 'Delivered' });
  });

  it('search answers one page; list reads every page as the caller reads on, stopping on the short page', async () => {
    const { client } = await setUp();
    for (let i = 1; i <= 7; i++) await client.deliveries.create(order(`ref-${i}`));
    const page = await client.deliveries.search({ limit: 3, page: 2 });
    expect(page).toMatchObject({ count: 7, page: 2, limit: 3 });
    expect(page.deliveries.map((d) => d.businessReference)).toEqual(['ref-4', 'ref-3', 'ref-2']);

    const references: string[] = [];
    for await (const delivery of client.deliveries.list({ limit: 3 })) references.push(delivery.businessReference ?? '');
    expect(references).toEqual(['ref-7', 'ref-6', 'ref-5', 'ref-4', 'ref-3', 'ref-2', 'ref-1']);

    const picked = await client.deliveries.search({ businessReference: ['ref-2', 'ref-5'] });
    expect(picked.deliveries.map((d) => d.businessReference).sort()).toEqual(['ref-2', 'ref-5']);
    expect((await client.deliveries.search({ stateCodes: [DeliveryState.Delivered] })).deliveries).toEqual([]);
  });

  it('search by reference, phone and tracking number finds an order under what it holds now: an update moves it, newest first', async () => {
    const { client } = await setUp();
    const first = await client.deliveries.create(order('shared-ref'));
    const second = await client.deliveries.create(order('shared-ref', { receiver: { firstName: 'Hoda', phone: '01099998888' } }));
    const byReference = async (reference: string) => (await client.deliveries.search({ businessReference: reference })).deliveries.map((d) => d.trackingNumber);
    const byPhone = async (phone: string) => (await client.deliveries.search({ mobilePhones: phone })).deliveries.map((d) => d.trackingNumber);
    expect(await byReference('shared-ref')).toEqual([second.trackingNumber, first.trackingNumber]);

    await client.deliveries.update(first.trackingNumber, { businessReference: 'renamed-ref', receiver: { firstName: 'Mona', phone: '01155554444' } });
    expect(await byReference('shared-ref')).toEqual([second.trackingNumber]);
    expect(await byReference('renamed-ref')).toEqual([first.trackingNumber]);
    expect(await byPhone('01012345678')).toEqual([]);
    expect(await byPhone('01155554444')).toEqual([first.trackingNumber]);
    expect(await byPhone('01099998888')).toEqual([second.trackingNumber]);
    // Filters together narrow one another, whichever the sandbox looks up first.
    const both = await client.deliveries.search({ trackingNumbers: [first.trackingNumber, second.trackingNumber], businessReference: 'renamed-ref' });
    expect(both.deliveries.map((d) => d.trackingNumber)).toEqual([first.trackingNumber]);
    // An order found by its `_id`, as WOO4 passes it.
    expect((await client.deliveries.get((await client.deliveries.get(second.trackingNumber))._id)).trackingNumber).toBe(second.trackingNumber);
  });

  it('findByReference finds the order, or undefined', async () => {
    const { client } = await setUp();
    const created = await client.deliveries.create(order('order-1042'));
    expect((await client.deliveries.findByReference('order-1042'))?.trackingNumber).toBe(created.trackingNumber);
    expect(await client.deliveries.findByReference('order-9999')).toBeUndefined();
  });

  it('update changes the order while it may be changed; past those states the sandbox refuses, and a read order is refused before sending', async () => {
    const { client, sandbox } = await setUp();
    const { trackingNumber } = await client.deliveries.create(order('ref-u'));
    await client.deliveries.update(trackingNumber, { dropOffAddress: { ...dropOff, firstLine: '3 Mosaddak Street, 2nd floor' }, notes: 'Call first' });
    expect(sandbox.order(trackingNumber).request).toMatchObject({ notes: 'Call first', dropOffAddress: { firstLine: '3 Mosaddak Street, 2nd floor' } });

    await sandbox.play(trackingNumber, 'success');
    const refusedByService = await client.deliveries.update(trackingNumber, { notes: 'late' }).catch((e: unknown) => e);
    expect(refusedByService).toBeInstanceOf(OrderStateError);
    expect(refusedByService).toMatchObject({ source: 'server', state: 45 });
    expect((refusedByService as OrderStateError).cause).toBeInstanceOf(ApiError);
    const delivered = await client.deliveries.get(trackingNumber);
    const refused = await client.deliveries.update(delivered, { notes: 'late' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OrderStateError);
    expect((refused as OrderStateError).state).toBe(45);
  });

  it('update runs the create rules on what it changes: cod above 30000 is refused before sending', async () => {
    const { client } = await setUp();
    const { trackingNumber } = await client.deliveries.create(order('ref-c'));
    const error = await client.deliveries.update(trackingNumber, { cod: 45_000 }).catch((e: unknown) => e);
    expect(isDeliveryError(error, 3007) && error.source).toBe('client');
  });

  it('terminate moves a new order to Terminated (48) and sends its webhook; an order on its way is refused', async () => {
    const hooks: unknown[] = [];
    const { client, sandbox } = await setUp({ webhookFetch: async (_url, init) => (hooks.push(JSON.parse(String(init.body))), new Response('ok')) });
    sandbox.setWebhook({ url: 'https://merchant.example/hooks' });
    const first = await client.deliveries.create(order('ref-t1'));
    await client.deliveries.terminate(first.trackingNumber);
    await sandbox.drainWebhooks();
    expect(sandbox.order(first.trackingNumber).state).toBe(DeliveryState.Terminated);
    expect(hooks).toContainEqual(expect.objectContaining({ trackingNumber: first.trackingNumber, state: 48 }));

    const second = await client.deliveries.create(order('ref-t2'));
    await sandbox.advance(second.trackingNumber, { to: 20 });
    await sandbox.advance(second.trackingNumber, { to: 21 });
    await expect(client.deliveries.terminate(second.trackingNumber)).rejects.toMatchObject({ name: 'OrderStateError', source: 'server', state: 21 });
    expect(sandbox.order(second.trackingNumber).state).toBe(21);
  });

  it('airwayBills returns a valid PDF with one page per tracking number, showing it; unknown ones are left out silently', async () => {
    const { client } = await setUp();
    const a = await client.deliveries.create(order('ref-a'));
    const b = await client.deliveries.create(order('ref-b'));
    const pdf = await client.deliveries.airwayBills([a.trackingNumber, b.trackingNumber, '79999999'], { size: 'A6', lang: 'en' });
    const text = new TextDecoder('latin1').decode(pdf);
    expect(text.startsWith('%PDF-1.4')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    expect(text).toContain('/Count 2');
    expect(text).toContain(`(${a.trackingNumber})`);
    expect(text).toContain(`(${b.trackingNumber})`);
    expect(text).not.toContain('79999999');
    // The cross-reference table points at each object.
    const xrefAt = Number(/startxref\n(\d+)/.exec(text)?.[1]);
    expect(text.slice(xrefAt, xrefAt + 4)).toBe('xref');
    const offsets = [...text.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    offsets.forEach((offset, i) => expect(text.slice(offset).startsWith(`${i + 1} 0 obj`)).toBe(true));
  });

  it('pickups are kept per business: dates skip Fridays; a Friday, a past date and a second request for the same place and day get their codes', async () => {
    const { client, locationId } = await setUp();
    const dates = await client.pickups.availableDates({ days: 7 });
    expect(dates).toEqual(['2026-03-11', '2026-03-12', '2026-03-14', '2026-03-15', '2026-03-16', '2026-03-17']);
    const contactPerson = { name: 'Omar Said', phone: '01098765432' };
    const pickup = await client.pickups.create({
      businessLocationId: locationId,
      scheduledDate: '2026-03-12',
      scheduledTimeSlot: '10:00 to 13:00',
      contactPerson,
      numberOfParcels: 3,
    });
    expect(pickup).toMatchObject({ state: 'Requested', scheduledDate: '2026-03-12', businessLocationId: locationId, numberOfParcels: 3 });
    expect(await client.pickups.get(pickup._id)).toMatchObject({ _id: pickup._id });
    expect((await client.pickups.list()).pickups.map((p) => p._id)).toEqual([pickup._id]);

    const friday = await client.pickups
      .create({ businessLocationId: locationId, scheduledDate: '2026-03-13', scheduledTimeSlot: '10:00 to 13:00', contactPerson })
      .catch((e: unknown) => e);
    expect(isDeliveryError(friday, PickupErrorCode.FridayNotAllowed)).toBe(true);
    expect((friday as ApiError).message).toContain('Friday');
    const past = await client.pickups
      .create({ businessLocationId: locationId, scheduledDate: '2026-03-10', scheduledTimeSlot: '10:00 to 13:00', contactPerson })
      .catch((e: unknown) => e);
    expect(isDeliveryError(past, PickupErrorCode.DateInPast)).toBe(true);
    const twice = await client.pickups
      .create({ businessLocationId: locationId, scheduledDate: '2026-03-12', scheduledTimeSlot: '13:00 to 16:00', contactPerson })
      .catch((e: unknown) => e);
    expect(isDeliveryError(twice, PickupErrorCode.DuplicatePickup)).toBe(true);

    expect(await client.pickups.update(pickup._id, { scheduledTimeSlot: '13:00 to 16:00' })).toMatchObject({ scheduledTimeSlot: '13:00 to 16:00' });
    await client.pickups.delete(pickup._id);
    expect((await client.pickups.list()).pickups).toEqual([]);
    await expect(client.pickups.get(pickup._id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('pickupLocations.list answers the business locations; pricing.calculate a stable made-up quote', async () => {
    const { client, locationId } = await setUp();
    const locations = await client.pickupLocations.list();
    expect(locations).toEqual([expect.objectContaining({ _id: locationId, locationName: 'Warehouse', isDefault: true })]);
    const quote = await client.pricing.calculate({ dropOffCity: 'Giza', pickupCity: 'Cairo', cod: 250 });
    expect(quote).toMatchObject({ shippingFee: 70, priceAfterVat: 79.8, extraCodFee: { amount: 0 }, tier: { openingPackageFee: { amount: 0 } } });
    expect(await client.pricing.calculate({ dropOffCity: 'Giza', pickupCity: 'Cairo', cod: 250 })).toEqual(quote);
    const bulky = await client.pricing.calculate({ dropOffCity: 'Cairo', pickupCity: 'Cairo', size: 'Heavy Bulky' });
    expect(bulky.shippingFee).toBe(250);
  });

  it('a second order with the same uniqueBusinessReference is refused', async () => {
    const { client, sandbox } = await setUp();
    await client.deliveries.create(order('ref-u1', { uniqueBusinessReference: 'WC_1042' }));
    await expect(client.deliveries.create(order('ref-u2', { uniqueBusinessReference: 'WC_1042' }))).rejects.toBeInstanceOf(ApiError);
    expect(sandbox.orders()).toHaveLength(1);
  });
});
