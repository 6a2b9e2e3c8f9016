// `npm run demo`: a merchant's first day, end to end, against a sandbox this script serves itself on
// 127.0.0.1 (no network, no key): registration, a business and its pickup location, addresses
// from English and Arabic names, one order of each type, errors caught by class from both sides,
// and the webhooks that follow, received by a handler from `delivery-sdk/webhooks`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CodLimitExceededError,
  CountryId,
  DeliveryClient,
  DeliveryState,
  DeliveryType,
  describeState,
  DistrictNotFoundError,
  FulfillmentType,
  type CreatedDelivery,
  type OrderInput,
} from 'delivery-sdk';
import { createSandbox, type ScenarioName } from 'delivery-sdk/testing';
import { createOrderTracker, type WebhookEvent } from 'delivery-sdk/webhooks';
import { createNodeWebhookHandler } from 'delivery-sdk/webhooks/node';
import { isEntryPoint } from './support/node.js';
import { printer, type Output } from './support/merchant.js';

export interface DemoOptions {
  /** Default: standard output. */
  readonly out?: Output | undefined;
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
    await client.businesses.updatePickupLocations(business._id, [{ locationName: 'Warehouse', districtId: warehouse.districtId, firstLine: warehouse.firstLine }]);
    say(`  ✓ business "Nile Shop" with its default pickup location, from "القاهرة / مكرم عبيد" → ${warehouse.districtId}`);

    say('\nAddresses, from names to ids (cached lookups)');
    const giza = await client.lookup.resolveAddress({ city: 'giza', district: 'Dokki', firstLine: '12 Tahrir Street, 3rd floor', for: 'dropOffAddress' });
    const alexandria = await client.lookup.resolveAddress({ city: 'الإسكندرية', district: 'سموحة', firstLine: '3 Victor Emmanuel Square', for: 'dropOffAddress' });
    say(`  ✓ "giza / Dokki" → ${giza.districtId}`);
    say(`  ✓ "الإسكندرية / سموحة" → ${alexandria.districtId}`);
    const misspelt = await client.lookup.resolveAddress({ city: 'Giza', district: 'Dokky', firstLine: '12 Tahrir Street', for: 'dropOffAddress' }).catch((err: unknown) => err);
    if (!(misspelt instanceof DistrictNotFoundError)) throw new Error('expected DistrictNotFoundError for "Dokky"', { cause: misspelt });
    say(`  ✓ "Dokky" → DistrictNotFoundError (${misspelt.errorCode}): ${misspelt.message.replace(/^.*?no district/, 'no district')}`);

    say('\nOrders, one of each type');
    const orders: Array<{ label: string; created: CreatedDelivery; scenario: ScenarioName }> = [];
    const place = async (label: string, order: OrderInput, scenario: ScenarioName, note: string): Promise<CreatedDelivery> => {
      const created = order.type === FulfillmentType.CustomerReturnPickup ? await client.fulfillment.createReturn(order) : await client.deliveries.create(order);
      orders.push({ label, created, scenario });
      say(`  ✓ ${label.padEnd(34)} #${created.trackingNumber}  ${note}`);
      return created;
    };
    await place('Deliver (10)', { type: DeliveryType.Deliver, dropOffAddress: giza, receiver, cod: 250, businessReference: 'ORDER-1001' }, 'success', 'cod 250 EGP');
    await place('Cash Collection (15)', { type: DeliveryType.CashCollection, pickupAddress: giza, receiver, cod: 1200 }, 'exceptionThenSuccess', 'collect 1200 EGP');
    await place('Customer Return Pickup (25)', { type: DeliveryType.CustomerReturnPickup, pickupAddress: alexandria, receiver, cod: -150 }, 'success', 'refund 150 EGP');
    await place('Exchange (30)', { type: DeliveryType.Exchange, dropOffAddress: giza, receiver, cod: 80 }, 'unsuccessful', 'cod 80 EGP');
    const items = [{ sku: 'SHIRT-M', quantity: 2 }, { sku: 'MUG', quantity: 1 }];
    const sent = await place('Fulfillment (FXF_SEND)', { type: FulfillmentType.Send, dropOffAddress: alexandria, receiver, fulfillmentInfo: { items } }, 'success', '2 x SHIRT-M, 1 x MUG from stock');

    say('\nErrors, caught by class');
    const tooMuch = { type: DeliveryType.Deliver, dropOffAddress: giza, receiver, cod: 45_000 } as const;
    const before = sandbox.orders().length;
    const clientSide = await client.deliveries.create(tooMuch).catch((err: unknown) => err);
    if (!(clientSide instanceof CodLimitExceededError)) throw new Error('expected CodLimitExceededError from the client', { cause: clientSide });
    say(`  ✓ cod 45000 → CodLimitExceededError, errorCode ${clientSide.errorCode}, source '${clientSide.source}': nothing was sent (${sandbox.orders().length - before} orders created)`);
    const unchecked = new DeliveryClient({ baseUrl, apiKey: sandbox.apiKey, validate: false });
    const serverSide = await unchecked.deliveries.create(tooMuch).catch((err: unknown) => err);
    if (!(serverSide instanceof CodLimitExceededError)) throw new Error('expected CodLimitExceededError from the sandbox', { cause: serverSide });
    say(`  ✓ the same with validate: false → CodLimitExceededError, errorCode ${serverSide.errorCode}, source '${serverSide.source}', HTTP ${serverSide.status}`);

    say("\nThe courier's day (sandbox.play: every change is a webhook), then a return from the delivered fulfillment");
    for (const { created, scenario } of orders) await sandbox.play(created.trackingNumber, scenario);
    await place('Fulfillment return (CUSTOMER_RETURN_PICKUP)', {
      type: FulfillmentType.CustomerReturnPickup,
      pickupAddress: alexandria,
      receiver,
      originalFulfillmentTrackingNumber: sent.trackingNumber,
      fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 1 }] },
    }, 'success', `1 of the 2 SHIRT-M of #${sent.trackingNumber}`);
    await sandbox.play(orders.at(-1)?.created.trackingNumber ?? '', 'success');
    await sandbox.drainWebhooks();

    const forged = await fetch(hooks.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const sentCount = sandbox.webhookLog().length;
    say(`\nWebhooks: ${accepted} of ${sentCount} received by createNodeWebhookHandler with the ${WEBHOOK_HEADER.name} header; one without it got ${forged.status}`);

    const result = orders.map(({ label, created, scenario }) => ({ label, trackingNumber: created.trackingNumber, scenario, events: tracker.history(created.trackingNumber) }));
    say('');
    for (const line of timelineTable(result)) say(line);
    say(`\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s. More: the examples/ folder (README, Examples).`);
    return { orders: result, webhooks: { sent: sentCount, accepted } };
  } finally {
    await sandbox.close();
    await hooks.close();
  }
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
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
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
