import { describe, expect, it } from 'vitest';
import { main } from '../../../examples/fulfillment.js';
import { collector, tsx } from '../../support/processes.js';
import { useExampleMerchant } from '../../support/sandbox.js';

const merchant = useExampleMerchant();

describe('the fulfillment example', () => {
  it('sends from stock, delivers, returns part of it, and uploads a bulky batch merged per customer as previewed', async () => {
    const out = collector();
    const run = await main({ ...merchant.target, out, deliver: (trackingNumber) => merchant.sandbox.play(trackingNumber, 'success') });

    const sent = merchant.sandbox.order(run.sent.trackingNumber);
    expect(sent).toMatchObject({ type: 'FXF_SEND', state: 45, cod: 540 });
    expect(sent.request).toMatchObject({ dropOffAddress: { city: 'Alexandria', districtId: 'district-eg-alexandria-smouha' } });

    const returned = merchant.sandbox.order(run.returned.trackingNumber);
    expect(returned.type).toBe('CUSTOMER_RETURN_PICKUP');
    expect(returned.request).toMatchObject({
      originalFulfillmentTrackingNumber: run.sent.trackingNumber,
      fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 1 }] },
    });

    // Two customers, two orders; the first customer's two elements merged, items added up per sku.
    expect(run.bulky.map((order) => [order.receiverPhone, order.mergedFrom])).toEqual([
      ['01012345678', [0, 2]],
      ['01112345678', [1]],
    ]);
    expect(run.bulky.map((order) => order.mergedFrom)).toEqual(run.preview.map((group) => group.mergedFrom));
    const merged = merchant.sandbox.order(run.bulky[0]?.trackingNumber ?? '').request;
    expect(merged['fulfillmentInfo']).toEqual(run.preview[0]?.order.fulfillmentInfo);
    expect(merged['cod']).toBe(100); // only the first element's cod
    expect(run.preview[0]?.differingFields).toEqual(['cod']);

    // The refused return sent nothing: one send, one return, two bulky orders.
    expect(merchant.sandbox.orders()).toHaveLength(4);
    expect(out.text()).toContain(
      "a return of 3 x SHIRT-M is refused before sending: fulfillmentInfo.items[0].quantity returns 3 of 'SHIRT-M' in all, but the original order had 2",
    );
    expect(out.text()).toContain('differing cod');
  });

  it('leaves the delivery to the courier when nothing can play it (the real service)', async () => {
    const out = collector();
    const run = await main({ ...merchant.target, out });
    expect(merchant.sandbox.order(run.sent.trackingNumber).history).toHaveLength(1);
    expect(out.lines()).toContain("  waiting for it to be delivered is your webhook's job (state 45)");
  });
});

describe('npx tsx examples/fulfillment.ts', () => {
  it('runs against its own sandbox and exits 0', async () => {
    const { code, stdout } = await tsx(['examples/fulfillment.ts']);
    expect(code).toBe(0);
    expect(stdout).toContain('  delivered (45)');
    expect(stdout).toMatch(/^ {2}created #\d+ \(01012345678\), #\d+ \(01112345678\)$/m);
  });
});
