// Nothing secret or personal in any attribute, event or metric: a whole account flow through the
// sandbox (registration, orders of every kind, changes, reads by phone, a pickup, a bulk upload,
// webhooks), every value recorded checked against the key, the receivers' details and the
// webhook secret, wherever a URL or a path carries them.
import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkCreationError, CountryId, DeliveryClient, DeliveryType, FulfillmentType, type OrderInput } from '../../src/index.js';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { createOrderTracker, createWebhookHandler } from '../../src/webhooks/index.js';
import { everyRecordedValue, type RecordedTelemetry, recordTelemetry } from '../support/telemetry.js';

const API_KEY = 'sk_live_telemetry_9f3a71c2';
const TENANT = 'tenant-secret-55e1';
const WEBHOOK_SECRET = 'whsec-telemetry-7c1d';
const ADMIN = { email: 'samira.f@nile.example', password: 'pw-Secret-123!', firstName: 'Samira', lastName: 'Fathallah', phone: '+201001234567' };
const RECEIVER = { firstName: 'Yasmine', lastName: 'Abdelrahman', phone: '+201098765432' };
const NEW_PHONE = '+201155544433';
const CONTACT = { name: 'Omar Saeed', phone: '01066677788' };
const STREETS = ['12 Tahrir Street, 3rd floor', '5 Makram Ebeid Street', '3 Victor Emmanuel Square'];
const NOTES = 'Ring twice, the neighbour Hoda keeps the key';
/** A merchant's own key for one call, with characters a path encodes (`%2F`, `%2B`, `%3D`). */
const CALL_KEY = 'sk/live+merchant=42c7';

/** A phone as it may appear: as written, in local form, and its digits after the country code. */
const forms = (phone: string): string[] => [phone, phone.replace(/^\+20/, '0'), phone.replace(/^\+20/, '')];

const SECRETS = [
  API_KEY,
  CALL_KEY,
  encodeURIComponent(CALL_KEY),
  TENANT,
  WEBHOOK_SECRET,
  ADMIN.email,
  ADMIN.password,
  ADMIN.firstName,
  ADMIN.lastName,
  ...forms(ADMIN.phone),
  RECEIVER.firstName,
  RECEIVER.lastName,
  ...forms(RECEIVER.phone),
  ...forms(NEW_PHONE),
  CONTACT.name,
  ...forms(`+2${CONTACT.phone}`),
  ...STREETS,
  NOTES,
];

const METRICS = ['http.client.request.duration', 'delivery.orders.created', 'delivery.orders.failed', 'delivery.webhooks.received'];

let sandbox: Sandbox;
let recorded: RecordedTelemetry;
let otp: string | undefined;

beforeAll(async () => {
  recorded = recordTelemetry();
  const tracker = createOrderTracker();
  const handler = createWebhookHandler({
    auth: { name: 'X-Shop-Key', value: WEBHOOK_SECRET },
    telemetry: recorded.telemetry,
    onEvent: (event) => void tracker.track(event),
  });
  sandbox = createSandbox({ apiKey: API_KEY, webhookFetch: (url, init) => handler(new Request(url, init)) });
  sandbox.setWebhook({ url: 'https://shop.test/hooks?token=query-secret', headerName: 'X-Shop-Key', headerValue: WEBHOOK_SECRET });
  const client = new DeliveryClient({
    baseUrl: sandbox.baseUrl,
    apiKey: API_KEY,
    fetch: sandbox.fetch,
    maxRetries: 0,
    headers: { 'x-tenant': TENANT },
    telemetry: recorded.telemetry,
  });

  await client.users.registerBusinessAdmin({
    email: ADMIN.email,
    password: ADMIN.password,
    profile: { firstName: ADMIN.firstName, lastName: ADMIN.lastName, phone: ADMIN.phone },
    heardAboutUsFrom: 'FACEBOOK',
    countryId: CountryId.Egypt,
  });
  await client.users.verifyPhone({ phone: ADMIN.phone });
  otp = sandbox.lastOtp(ADMIN.phone);
  await client.users.confirmPhone({ phone: ADMIN.phone, token: otp as string });
  await client.users.confirmEmail({ token: sandbox.lastEmailToken(ADMIN.email) as string });
  const business = await client.businesses.create({ name: 'Nile Shop', salesChannel: 'FACEBOOK_SELLER', website: 'https://nile.example' });
  const warehouse = await client.lookup.resolveAddress({ city: 'Cairo', district: 'Makram Ebeid', firstLine: STREETS[1] as string, for: 'pickupAddress' });
  const located = await client.businesses.updatePickupLocations(business._id, [
    { locationName: 'Warehouse', districtId: warehouse.districtId, firstLine: warehouse.firstLine },
  ]);
  const dropOffAddress = await client.lookup.resolveAddress({ city: 'Giza', district: 'Dokki', firstLine: STREETS[0] as string, for: 'dropOffAddress' });

  const order = await client.deliveries.create({
    type: DeliveryType.Deliver,
    dropOffAddress,
    receiver: RECEIVER,
    cod: 250,
    notes: NOTES,
    businessReference: 'order-1042',
  });
  await client.deliveries.create({ type: DeliveryType.Deliver, dropOffAddress, receiver: RECEIVER, cod: 45_000 }).catch(() => undefined);
  await client.deliveries.get(order.trackingNumber);
  // A key passed where a tracking number goes, in the path as it is and percent-encoded.
  await client.deliveries.get(API_KEY).catch(() => undefined);
  await client.deliveries.get(TENANT).catch(() => undefined);
  await client.deliveries.get(CALL_KEY, { apiKey: CALL_KEY }).catch(() => undefined);
  await client.deliveries.search({ businessReference: 'order-1042' });
  await client.deliveries.findByReference('order-1042');
  await client.deliveries.customerHistory(RECEIVER.phone);
  await client.deliveries.update(order.trackingNumber, { receiver: { ...RECEIVER, phone: NEW_PHONE }, notes: NOTES });
  await client.deliveries.track(order.trackingNumber);
  const items = [{ sku: 'SHIRT-M', quantity: 2 }];
  const alexandria = await client.lookup.resolveAddress({ city: 'Alexandria', district: 'Smouha', firstLine: STREETS[2] as string, for: 'dropOffAddress' });
  const sent = await client.fulfillment.create({ type: FulfillmentType.Send, dropOffAddress: alexandria, receiver: RECEIVER, fulfillmentInfo: { items } });
  await client.fulfillment.createReturn({
    type: FulfillmentType.CustomerReturnPickup,
    pickupAddress: alexandria,
    receiver: RECEIVER,
    originalFulfillmentTrackingNumber: sent.trackingNumber,
    fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 1 }] },
  });
  const [date] = await client.pickups.availableDates({ days: 7 });
  await client.pickups
    .create({
      businessLocationId: located.pickupLocations?.[0]?._id as string,
      scheduledDate: date ?? '2026-03-15',
      scheduledTimeSlot: '10:00 to 13:00',
      contactPerson: CONTACT,
      numberOfParcels: 2,
    })
    .catch(() => undefined);
  const bulk: OrderInput[] = [0, 1, 2].map((i) => ({
    type: DeliveryType.Deliver,
    dropOffAddress,
    receiver: RECEIVER,
    cod: i === 1 ? 45_000 : 100,
    businessReference: `bulk-${i}`,
  }));
  await expect(client.deliveries.createBulk(bulk, { chunkSize: 2, validate: false })).rejects.toBeInstanceOf(BulkCreationError);
  await sandbox.play(order.trackingNumber, 'success');
  await client.deliveries.terminate(sent.trackingNumber).catch(() => undefined);
});
afterAll(() => sandbox?.close());

describe('every attribute of every span, event and metric of a whole account flow', () => {
  it('holds spans of the calls, the bulk upload and the webhooks', () => {
    const names = new Set(recorded.spans().map((span) => span.name));
    for (const name of ['users.registerBusinessAdmin', 'users.confirmPhone', 'deliveries.create', 'deliveries.search', 'deliveries.update', 'pickups.create'])
      expect(names).toContain(name);
    for (const name of ['fulfillment.createReturn', 'deliveries.createBulk', 'deliveries.createBulk chunk', 'POST /v2/deliveries'])
      expect(names).toContain(name);
    expect(recorded.spans().filter((span) => span.kind === SpanKind.SERVER).length).toBeGreaterThan(3);
    expect(recorded.spans().length).toBeGreaterThan(30);
  });

  it('carries no key, no header value, no password, code or token, no name, phone, address or note', async () => {
    const values = await everyRecordedValue(recorded, METRICS);
    expect(values.length).toBeGreaterThan(300);
    const secrets = [...SECRETS, otp as string, sandbox.lastEmailToken(ADMIN.email) as string, 'query-secret'];
    const leaks = values.flatMap((value) => secrets.filter((secret) => value.includes(secret)).map((secret) => `${secret} in ${value}`));
    expect(leaks).toEqual([]);
  });

  it('carries a URL only as an attempt’s url.full, the key and the secret headers scrubbed from it wherever they appear', async () => {
    const withUrl = recorded.spans().flatMap((span) =>
      Object.entries(span.attributes)
        .filter(([, value]) => /[a-z]+:\/\//i.test(String(value)))
        .map(([name]) => `${SpanKind[span.kind]} ${name}`),
    );
    expect(new Set(withUrl)).toEqual(new Set(['CLIENT url.full']));
    const scrubbed = recorded
      .spans()
      .map((span) => String(span.attributes['url.full']))
      .filter((url) => url.includes('[redacted]'));
    expect(scrubbed).toEqual([
      `${sandbox.baseUrl}/deliveries/business/[redacted]`,
      `${sandbox.baseUrl}/deliveries/business/[redacted]`,
      `${sandbox.baseUrl}/deliveries/business/[redacted]`,
    ]);
    // A metric has no URL and no query: its series would be as many as the orders.
    const metricValues: string[] = [];
    for (const name of METRICS) for (const point of await recorded.points(name)) metricValues.push(...Object.values(point.attributes).map(String));
    expect(metricValues.filter((value) => /:\/\/|\?/.test(value))).toEqual([]);
  });
});
