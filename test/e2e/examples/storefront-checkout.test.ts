import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { type CheckoutForm, checkout, main, messageFor, SAMPLE_FORMS } from '../../../examples/storefront-checkout.js';
import { clientFor } from '../../../examples/support/merchant.js';
import { collector, ROOT, tsx } from '../../support/processes.js';
import { useExampleMerchant } from '../../support/sandbox.js';

const merchant = useExampleMerchant();

const form = (overrides: Partial<CheckoutForm> = {}): CheckoutForm => ({ ...(SAMPLE_FORMS[0] as CheckoutForm), ...overrides });

describe('checkout', () => {
  it('creates a Deliver order from the names the customer typed, cash on delivery for the cart total', async () => {
    const result = await checkout(clientFor(merchant.target), form());
    expect(result).toEqual({ ok: true, trackingNumber: expect.stringMatching(/^\d+$/) });
    const [order, ...others] = merchant.sandbox.orders();
    expect(others).toEqual([]);
    expect(order).toMatchObject({ type: 10, cod: 640, businessReference: 'WEB-2001', trackingNumber: result.ok ? result.trackingNumber : '' });
    expect(order?.request).toMatchObject({
      dropOffAddress: { city: 'Giza', districtId: 'district-eg-giza-dokki', firstLine: '12 Tahrir Street, 3rd floor' },
      receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
    });
  });

  it('sends cod 0 for a card payment', async () => {
    await checkout(clientFor(merchant.target), form({ orderId: 'WEB-CARD', payment: 'card' }));
    expect(merchant.sandbox.orders()[0]).toMatchObject({ businessReference: 'WEB-CARD', cod: 0 });
  });

  it('turns each mistake into a message and the field to fix, and sends no order for any of them', async () => {
    const out = collector();
    const results = await main({ ...merchant.target, out });
    expect(results.map((result) => (result.ok ? 'ok' : result.field))).toEqual(['ok', 'phone', 'district', 'district', 'payment']);
    expect(results[2]).toMatchObject({ message: 'We couldn\'t find "Dokky" in Giza. Did you mean Dokki? Please check the spelling or pick it from the list.' });
    expect(results[3]).toMatchObject({ message: "Sorry, we don't deliver to Al Ayyat yet." });
    expect(merchant.sandbox.orders().map((order) => order.businessReference)).toEqual(['WEB-2001']);
    expect(out.lines().filter((line) => line.startsWith('✗'))).toHaveLength(4);
  });

  it('says the delivery partner is not answering when the service fails, and tells the customer little about a wrong key', async () => {
    merchant.sandbox.injectFaults({ rate: 1, kinds: ['unavailable'] });
    const down = await checkout(clientFor(merchant.target, { maxRetries: 0 }), form());
    expect(down).toMatchObject({ ok: false, message: expect.stringContaining('not answering') });
    expect(down).not.toHaveProperty('field');
    merchant.sandbox.clearFaults();
    const wrongKey = await checkout(clientFor({ ...merchant.target, apiKey: 'not-the-key' }), form());
    expect(wrongKey).toEqual({ ok: false, message: 'Checkout is unavailable right now. Please try again later.' });
    expect(merchant.sandbox.orders()).toEqual([]);
  });

  it("lets an error that is not the SDK's through", () => {
    const bug = new TypeError('a bug in the page');
    expect(() => messageFor(bug, form())).toThrow(bug);
  });
});

describe('browser safety', () => {
  it('bundles for the browser with no Node built-in; only the dev-time sandbox of the script branch stays outside', async () => {
    const builtins = [...new Set(builtinModules.map((name) => name.replace(/^node:/, '')))];
    const result = await build({
      entryPoints: [join(ROOT, 'examples/storefront-checkout.ts')],
      absWorkingDir: ROOT,
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
      logLevel: 'silent',
      external: ['delivery-sdk/testing', ...builtins, ...builtins.map((name) => `node:${name}`)],
    });
    const externals = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((entry) => entry.external).map((entry) => entry.path));
    expect(externals).toEqual(['delivery-sdk/testing']);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('src/client.ts'); // delivery-sdk, through tsconfig paths
    expect(inputs.filter((file) => !file.startsWith('src/') && !file.startsWith('node_modules/zod/') && !file.startsWith('node_modules/ky/'))).toEqual([
      'examples/support/merchant.ts',
      'examples/storefront-checkout.ts',
    ]);
  });
});

describe('npx tsx examples/storefront-checkout.ts', () => {
  it('runs the sample checkouts against the sandbox in process and exits 0', async () => {
    const { code, stdout } = await tsx(['examples/storefront-checkout.ts']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^✓ WEB-2001: order placed, tracking #\d+$/m);
    expect(stdout).toContain('✗ WEB-2005: [payment] Cash on delivery is limited to 30,000 EGP. Please pay by card.');
  });
});
