// `npm run demo`: a merchant's first day, end to end, against a sandbox this script serves itself on
// 127.0.0.1 (no network, no key): registration, a business and its pickup location, addresses
// from English and Arabic names, one order of each type, errors caught by class from both sides,
// and the webhooks that follow, received by a handler from `delivery-sdk/webhooks`. Then a second
// day: last night's upload found again, an address changed, an order cancelled, labels printed to
// a file, a courier booked.
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Address,
  type AddressByDistrictName,
  BulkCreationError,
  CodLimitExceededError,
  CountryId,
  type CreatedDelivery,
  DeliveryClient,
  DeliveryState,
  DeliveryType,
  DistrictNotFoundError,
  describeState,
  FulfillmentType,
  type OrderInput,
} from 'delivery-sdk';
import { createSandbox, type ScenarioName } from 'delivery-sdk/testing';
import { createOrderTracker, type WebhookEvent } from 'delivery-sdk/webhooks';
import { createNodeWebhookHandler } from 'delivery-sdk/webhooks/node';
import { type Output, printer } from './support/merchant.js';
import { isEntryPoint } from './support/node.js';

export interface DemoOptions {
  /** Default: standard output. */
  readonly out?: Output | undefined;
  /** Where the second day's labels are written. Default: `delivery-sdk-demo-labels.pdf` in the system's temporary folder. */
  readonly labelsFile?: string | undefined;
}

/** What the second day did. */
export interface SecondDay {
  /** Last night's orders, found again by their references: reference → tracking number. */
  readonly found: ReadonlyMap<string, string>;
  readonly updated: string;
  readonly terminated: string;
  readonly labelsFile: string;
  readonly labelBytes: number;
  readonly pickupId: string;
  readonly pickupDate: string;
}

/** One order of the demo and what its webhooks told. */
export interface DemoOrder {
  /** The order type, e.g. `Deliver (10)`. */
  readonly label: string;
  readonly trackingNumber: string;
  readonly scenario: ScenarioName;
  /** The webhooks received for it, in `timeStamp` order. */
  readonly events: readonly WebhookEvent[];
}

export interface DemoResult {
  readonly orders: readonly DemoOrder[];
  /** Webhooks the sandbox sent, and how many the handler accepted. */
  readonly webhooks: { readonly sent: number; readonly accepted: number };
  readonly secondDay: SecondDay;
}

const WEBHOOK_HEADER = { name: 'X-Webhook-Key', value: 'demo-webhook-secret' };
const OWNER = { email: 'owner@nile.example', phone: '+201001234567' };
const receiver = { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' };

export async function runDemo(options: DemoOptions = {}): Promise<DemoResult> {
  const say = printer(options);
  const started = performance.now();
  const sandbox = createSandbox();
  const { baseUrl } = await sandbox.listen({ port: 0 });

  // The merchant's webhook endpoint: header-authenticated, folding events per order.
  const tracker = createOrderTracker();
  let accepted = 0;
  const hooks = await serveWebhooks(
    createNodeWebhookHandler({
      auth: WEBHOOK_HEADER,
      onEvent: (event) => {
        accepted += 1;
        tracker.track(event);
      },
    }),
  );
  sandbox.setWebhook({ url: hooks.url, headerName: WEBHOOK_HEADER.name, headerValue: WEBHOOK_HEADER.value });

  try {
    say(`delivery-sdk demo: sandbox API at ${baseUrl}, webhooks to ${hooks.url}`);
    const client = new DeliveryClient({ baseUrl, apiKey: sandbox.apiKey });

    say('\nAccount');
    await client.users.registerBusinessAdmin({
      email: OWNER.email,
      password: 's3cret!',
      countryId: CountryId.Egypt,
      profile: { firstName: 'Mona', lastName: 'Adel', phone: OWNER.phone },
      heardAboutUsFrom: 'FACEBOOK',
    });
    await client.users.verifyPhone({ phone: OWNER.phone });
    const code = sandbox.lastOtp(OWNER.phone) ?? '';
    await client.users.confirmPhone({ phone: OWNER.phone, token: code });
    await client.users.confirmEmail({ token: sandbox.lastEmailToken(OWNER.email) ?? '' });
    say(`  ✓ admin ${OWNER.email} registered; phone confirmed with the one-time code ${code}; e-mail confirmed`);
    const business = await client.businesses.create({ name: 'Nile Shop', salesChannel: 'FACEBOOK_SELLER', website: 'https://nile.example' });
    const warehouse = await client.lookup.resolveAddress({ city: 'القاهرة', district: 'مكرم عبيد', firstLine: '5 Makram Ebeid Street', for: 'pickupAddress' });
    await client.businesses.updatePickupLocations(business._id, [
      { locationName: 'Warehouse', districtId: warehouse.districtId, firstLine: warehouse.firstLine },
    ]);
    say(`  ✓ business "Nile Shop" with its default pickup location, from "القاهرة / مكرم عبيد" → ${warehouse.districtId}`);

    say('\nAddresses, from names to ids (cached lookups)');
    const giza = await client.lookup.resolveAddress({ city: 'giza', district: 'Dokki', firstLine: '12 Tahrir Street, 3rd floor', for: 'dropOffAddress' });
    const alexandria = await client.lookup.resolveAddress({
      city: 'الإسكندرية',
      district: 'سموحة',
      firstLine: '3 Victor Emmanuel Square',
      for: 'dropOffAddress',
    });
    say(`  ✓ "giza / Dokki" → ${giza.districtId}`);
    say(`  ✓ "الإسكندرية / سموحة" → ${alexandria.districtId}`);
    const misspelt = await client.lookup
      .resolveAddress({ city: 'Giza', district: 'Dokky', firstLine: '12 Tahrir Street', for: 'dropOffAddress' })
      .catch((err: unknown) => err);
    if (!(misspelt instanceof DistrictNotFoundError)) throw new Error('expected DistrictNotFoundError for "Dokky"', { cause: misspelt });
    say(`  ✓ "Dokky" → DistrictNotFoundError (${misspelt.errorCode}): ${misspelt.message.replace(/^.*?no district/, 'no district')}`);

    say('\nOrders, one of each type');
    const orders: Array<{ label: string; created: CreatedDelivery; scenario: ScenarioName }> = [];
    const place = async (label: string, order: OrderInput, scenario: ScenarioName, note: string): Promise<CreatedDelivery> => {
      const created =
        order.type === FulfillmentType.CustomerReturnPickup ? await client.fulfillment.createReturn(order) : await client.deliveries.create(order);
      orders.push({ label, created, scenario });
      say(`  ✓ ${label.padEnd(34)} #${created.trackingNumber}  ${note}`);
      return created;
    };
    await place(
      'Deliver (10)',
      { type: DeliveryType.Deliver, dropOffAddress: giza, receiver, cod: 250, businessReference: 'ORDER-1001' },
      'success',
      'cod 250 EGP',
    );
    await place(
      'Cash Collection (15)',
      { type: DeliveryType.CashCollection, pickupAddress: giza, receiver, cod: 1200 },
      'exceptionThenSuccess',
      'collect 1200 EGP',
    );
    await place(
      'Customer Return Pickup (25)',
      { type: DeliveryType.CustomerReturnPickup, pickupAddress: alexandria, receiver, cod: -150 },
      'success',
      'refund 150 EGP',
    );
    await place('Exchange (30)', { type: DeliveryType.Exchange, dropOffAddress: giza, receiver, cod: 80 }, 'unsuccessful', 'cod 80 EGP');
    const items = [
      { sku: 'SHIRT-M', quantity: 2 },
      { sku: 'MUG', quantity: 1 },
    ];
    const sent = await place(
      'Fulfillment (FXF_SEND)',
      { type: FulfillmentType.Send, dropOffAddress: alexandria, receiver, fulfillmentInfo: { items } },
      'success',
      '2 x SHIRT-M, 1 x MUG from stock',
    );

    say('\nErrors, caught by class');
    const tooMuch = { type: DeliveryType.Deliver, dropOffAddress: giza, receiver, cod: 45_000 } as const;
    const before = sandbox.orders().length;
    const clientSide = await client.deliveries.create(tooMuch).catch((err: unknown) => err);
    if (!(clientSide instanceof CodLimitExceededError)) throw new Error('expected CodLimitExceededError from the client', { cause: clientSide });
    say(
      `  ✓ cod 45000 → CodLimitExceededError, errorCode ${clientSide.errorCode}, source '${clientSide.source}': nothing was sent (${sandbox.orders().length - before} orders created)`,
    );
    const unchecked = new DeliveryClient({ baseUrl, apiKey: sandbox.apiKey, validate: false });
    const serverSide = await unchecked.deliveries.create(tooMuch).catch((err: unknown) => err);
    if (!(serverSide instanceof CodLimitExceededError)) throw new Error('expected CodLimitExceededError from the sandbox', { cause: serverSide });
    say(
      `  ✓ the same with validate: false → CodLimitExceededError, errorCode ${serverSide.errorCode}, source '${serverSide.source}', HTTP ${serverSide.status}`,
    );

    say("\nThe courier's day (sandbox.play: every change is a webhook), then a return from the delivered fulfillment");
    for (const { created, scenario } of orders) await sandbox.play(created.trackingNumber, scenario);
    await place(
      'Fulfillment return (CUSTOMER_RETURN_PICKUP)',
      {
        type: FulfillmentType.CustomerReturnPickup,
        pickupAddress: alexandria,
        receiver,
        originalFulfillmentTrackingNumber: sent.trackingNumber,
        fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 1 }] },
      },
      'success',
      `1 of the 2 SHIRT-M of #${sent.trackingNumber}`,
    );
    await sandbox.play(orders.at(-1)?.created.trackingNumber ?? '', 'success');
    await sandbox.drainWebhooks();

    const forged = await fetch(hooks.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const sentCount = sandbox.webhookLog().length;
    say(
      `\nWebhooks: ${accepted} of ${sentCount} received by createNodeWebhookHandler with the ${WEBHOOK_HEADER.name} header; one without it got ${forged.status}`,
    );

    const result = orders.map(({ label, created, scenario }) => ({
      label,
      trackingNumber: created.trackingNumber,
      scenario,
      events: tracker.history(created.trackingNumber),
    }));
    say('');
    for (const line of timelineTable(result)) say(line);
    const webhooks = { sent: sentCount, accepted };
    const secondDay = await runSecondDay(client, giza, say, options.labelsFile ?? join(tmpdir(), 'delivery-sdk-demo-labels.pdf'));
    say(`\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s. More: the examples/ folder (README, Examples).`);
    return { orders: result, webhooks, secondDay };
  } finally {
    await sandbox.close();
    await hooks.close();
  }
}

/**
 * The second day: last night's upload, found again the next morning; one customer moved, one
 * cancelled; the labels printed; a courier booked.
 */
async function runSecondDay(
  client: DeliveryClient,
  address: Address | AddressByDistrictName,
  say: (line: string) => void,
  labelsFile: string,
): Promise<SecondDay> {
  say('\nThe second day');
  const references = ['NIGHT-2001', 'NIGHT-2002', 'NIGHT-2003', 'NIGHT-2004'];
  const orders = references.map(
    (businessReference, i): OrderInput => ({ type: DeliveryType.Deliver, dropOffAddress: address, receiver, cod: 100 + i * 50, businessReference }),
  );
  // Last night's upload: the bulk answer names the ids created, not which is whose.
  const outcome = await client.deliveries.createBulk(orders).catch((err: unknown) => (err instanceof BulkCreationError ? err.result : Promise.reject(err)));
  const settled = await client.deliveries.resolveTrackingNumbers(outcome, { orders });
  if (settled.unresolved.length > 0) throw new Error(`unresolved orders: ${settled.unresolved.map((entry) => entry.reason.message).join('; ')}`);
  say(`  ✓ last night's upload: ${settled.created.length} orders, tracking numbers found by businessReference (resolveTrackingNumbers)`);

  const found = new Map<string, string>();
  for await (const order of client.deliveries.list({ businessReference: references })) found.set(order.businessReference ?? '', order.trackingNumber);
  say(`  ✓ found again this morning: ${references.map((reference) => `${reference} → #${found.get(reference)}`).join(', ')}`);

  const moved = await client.deliveries.get(found.get('NIGHT-2002') ?? '');
  await client.deliveries.update(moved, { dropOffAddress: { ...address, firstLine: '3 Mosaddak Street, 2nd floor' }, notes: 'Customer moved: new address' });
  say(`  ✓ #${moved.trackingNumber} (state ${moved.state?.code}) → new address "3 Mosaddak Street, 2nd floor"`);

  const cancelled = found.get('NIGHT-2003') ?? '';
  await client.deliveries.terminate(cancelled);
  say(`  ✓ #${cancelled} cancelled → state ${(await client.deliveries.get(cancelled)).state?.code} (Terminated)`);

  const toPrint = references.filter((reference) => reference !== 'NIGHT-2003').map((reference) => found.get(reference) ?? '');
  const pdf = await client.deliveries.airwayBills(toPrint, { size: 'A6', lang: 'en' });
  await writeFile(labelsFile, pdf);
  say(`  ✓ ${toPrint.length} labels (A6) → ${labelsFile} (${pdf.byteLength} bytes)`);

  const [location] = await client.pickupLocations.list();
  const dates = await client.pickups.availableDates({ days: 7 });
  const date = dates[1] ?? dates[0];
  if (date === undefined) throw new Error('no pickup date available');
  const pickup = await client.pickups.create({
    businessLocationId: location?._id ?? '',
    scheduledDate: date,
    scheduledTimeSlot: '10:00 to 13:00',
    contactPerson: { name: 'Omar Said', phone: '+201098765432' },
    numberOfParcels: toPrint.length,
  });
  say(`  ✓ courier booked at "${location?.locationName}" on ${date}, 10:00 to 13:00, for ${toPrint.length} parcels (pickup ${pickup._id}, ${pickup.state})`);
  return { found, updated: moved.trackingNumber, terminated: cancelled, labelsFile, labelBytes: pdf.byteLength, pickupId: pickup._id, pickupDate: date };
}

/** What each sandbox scenario plays, in words. */
const SCENARIO_TITLES: Readonly<Record<ScenarioName, string>> = {
  success: 'Success',
  exceptionThenSuccess: 'Exception, then success',
  unsuccessful: 'Unsuccessful',
  threeFailedAttempts: 'Three failed attempts',
};

/** `41 Out for delivery`: a state code and the words of its `DeliveryState` name (`OutForDelivery`), as a merchant's code reads it. */
function stateLabel(code: number): string {
  const key = Object.entries(DeliveryState).find(([, value]) => value === code)?.[0];
  if (key === undefined) return `${code} ${describeState(code).name}`;
  const words = key.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase();
  // 41 is one state with two directions: the spec's "Picked up" means out to the customer, or back to the business.
  const direction = code === DeliveryState.OutForDelivery ? ' (or out for return, on the way back)' : '';
  return `${code} ${words.charAt(0).toUpperCase()}${words.slice(1)}${direction}`;
}

/**
 * One row per order: its webhooks' states in order (marking where the type turns, e.g. to RTO on
 * the way back to the business), where it ended, and a legend of the codes.
 */
export function timelineTable(orders: readonly DemoOrder[]): string[] {
  const rows = orders.map((order) => {
    const steps: string[] = [];
    for (const [i, event] of order.events.entries()) {
      if (i > 0 && event.type !== order.events[i - 1]?.type) steps.push(`│ ${event.type}`);
      steps.push(String(event.state));
    }
    const last = order.events.at(-1);
    const collected = last?.state === 45 && last.cod > 0 ? `, ${last.cod} EGP collected` : '';
    const ended = last === undefined ? '(no webhook)' : `${stateLabel(last.state).replace(/ \(.*\)$/, '')}${collected}`;
    return [`#${order.trackingNumber}`, order.label.replace(/ \(.*\)$/, ''), SCENARIO_TITLES[order.scenario], steps.join(' '), ended];
  });
  const header = ['Order', 'Type', 'Scenario', 'Timeline (state codes, from the webhooks)', 'Ended in'];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const codes = [...new Set(orders.flatMap((order) => order.events.map((event) => event.state)))].sort((a, b) => a - b);
  const legend: string[] = [];
  for (const entry of codes.map(stateLabel)) {
    if (legend.length > 0 && `${legend.at(-1)} · ${entry}`.length <= 100) legend[legend.length - 1] += ` · ${entry}`;
    else legend.push(entry);
  }
  const turnsBack = orders.some((order) => order.events.some((event) => event.type === 'RTO'));
  const rto = turnsBack ? ['│ RTO: Return To Origin. The order could not be delivered and goes back to the business; its webhooks say type RTO.'] : [];
  return [line(header), line(widths.map((width) => '─'.repeat(width))), ...rows.map(line), '', 'State codes (DeliveryState):', ...legend, ...rto];
}

/** A node:http server on 127.0.0.1 for the webhook handler; its URL and a close. */
async function serveWebhooks(handler: ReturnType<typeof createNodeWebhookHandler>): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/delivery`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

if (isEntryPoint(import.meta.url)) await runDemo();
