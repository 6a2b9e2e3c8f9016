// Fulfillment: an order shipped from your stock in the service's warehouses (FXF_SEND), the
// customer returning part of it into stock (CUSTOMER_RETURN_PICKUP), and a bulky upload the
// service merges per customer phone, previewed before sending.
//
//   npx tsx examples/fulfillment.ts
import {
  type BulkyCreatedOrder,
  type BulkyMergeGroup,
  type CreatedDelivery,
  type FulfillmentSendOrder,
  FulfillmentType,
  formatPath,
  previewBulkyMerge,
  ValidationError,
} from 'delivery-sdk';
import { clientFor, type ExampleOptions, printer } from './support/merchant.js';
import { isEntryPoint, runScript } from './support/node.js';

export interface FulfillmentOptions extends ExampleOptions {
  /**
   * Brings an order to Delivered (45). Against the sandbox, `sandbox.play(trackingNumber, 'success')`;
   * against the service the courier does, and your webhook hears of it (see merchant-backend.ts).
   */
  readonly deliver?: ((trackingNumber: string) => Promise<unknown>) | undefined;
}

export interface FulfillmentRun {
  readonly sent: CreatedDelivery;
  readonly returned: CreatedDelivery;
  readonly preview: readonly BulkyMergeGroup[];
  readonly bulky: readonly BulkyCreatedOrder[];
}

const itemList = (items: ReadonlyArray<{ sku: string; quantity: number }>) => items.map((item) => `${item.quantity} x ${item.sku}`).join(', ');

export async function main(options: FulfillmentOptions): Promise<FulfillmentRun> {
  const say = printer(options);
  const client = clientFor(options);
  const address = await client.lookup.resolveAddress({ city: 'Alexandria', district: 'سموحة', firstLine: '3 Victor Emmanuel Square', for: 'dropOffAddress' });
  const receiver = { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' };

  // 1. From stock to the customer.
  const order = {
    type: FulfillmentType.Send,
    dropOffAddress: address,
    receiver,
    cod: 540,
    fulfillmentInfo: {
      items: [
        { sku: 'SHIRT-M', quantity: 2 },
        { sku: 'MUG', quantity: 1 },
        { sku: 'CAP', quantity: 1 },
      ],
    },
  } satisfies FulfillmentSendOrder;
  const sent = await client.fulfillment.create(order);
  say(`FXF_SEND #${sent.trackingNumber}: ${itemList(order.fulfillmentInfo.items)} to ${address.city}, cod ${order.cod} EGP`);
  if (options.deliver === undefined) say("  waiting for it to be delivered is your webhook's job (state 45)");
  else {
    await options.deliver(sent.trackingNumber);
    say('  delivered (45)');
  }

  // 2. The customer sends back part of it. With `original`, the SDK checks the items are some of
  // the order's (spec rule 1) before sending anything.
  const returnOf = (items: Array<{ sku: string; quantity: number }>) => ({
    type: FulfillmentType.CustomerReturnPickup,
    pickupAddress: address,
    receiver,
    originalFulfillmentTrackingNumber: sent.trackingNumber,
    fulfillmentInfo: { items },
  });
  const tooMany = await client.fulfillment.createReturn(returnOf([{ sku: 'SHIRT-M', quantity: 3 }]), { original: order }).catch((err: unknown) => err);
  if (!(tooMany instanceof ValidationError)) throw new Error('expected the SDK to refuse returning more than was sent', { cause: tooMany });
  say(`  a return of 3 x SHIRT-M is refused before sending: ${tooMany.issues.map((issue) => `${formatPath(issue.path)} ${issue.message}`).join('; ')}`);
  const returned = await client.fulfillment.createReturn(returnOf([{ sku: 'SHIRT-M', quantity: 1 }]), { original: order });
  say(`CUSTOMER_RETURN_PICKUP #${returned.trackingNumber}: 1 x SHIRT-M of #${sent.trackingNumber} back into stock`);

  // 3. A bulky upload: the service makes one order per customer phone, items added up per sku,
  // and keeps only the first element's other fields: preview that before sending.
  const other = { firstName: 'Karim', lastName: 'Nabil', phone: '+201112345678' };
  const bulky: FulfillmentSendOrder[] = [
    { type: FulfillmentType.Send, dropOffAddress: address, receiver, cod: 100, fulfillmentInfo: { items: [{ sku: 'MUG', quantity: 1 }] } },
    { type: FulfillmentType.Send, dropOffAddress: address, receiver: other, fulfillmentInfo: { items: [{ sku: 'CAP', quantity: 2 }] } },
    {
      type: FulfillmentType.Send,
      dropOffAddress: address,
      receiver,
      cod: 150,
      fulfillmentInfo: {
        items: [
          { sku: 'MUG', quantity: 2 },
          { sku: 'SHIRT-M', quantity: 1 },
        ],
      },
    },
  ];
  const preview = previewBulkyMerge(bulky);
  say(`Bulky upload of ${bulky.length} orders for ${preview.length} customers, as previewBulkyMerge shows it (no request):`);
  for (const group of preview) {
    const kept = group.differingFields.length === 0 ? '' : `; differing ${group.differingFields.join(', ')}: only the first element's kept`;
    say(`  ${group.receiverPhone}: elements ${group.mergedFrom.join(' + ')} → ${itemList(group.order.fulfillmentInfo.items)}${kept}`);
  }
  const created = await client.fulfillment.createBulky(bulky);
  say(`  created ${created.map((entry) => `#${entry.trackingNumber} (${entry.receiverPhone ?? '?'})`).join(', ')}`);
  return { sent, returned, preview, bulky: created };
}

if (isEntryPoint(import.meta.url)) {
  await runScript(async ({ sandbox, ...target }) => {
    await main({ ...target, deliver: sandbox && ((trackingNumber) => sandbox.play(trackingNumber, 'success')) });
    return 0;
  });
}
