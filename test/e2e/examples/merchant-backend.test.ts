import { createSandbox, type Sandbox } from 'delivery-sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type MerchantBackend, startMerchantBackend } from '../../../examples/merchant-backend.js';
import { clientFor, setUpMerchant } from '../../../examples/support/merchant.js';
import { collector, startTsx } from '../../support/processes.js';

const KEY = 'shop-webhook-key';
const order = (reference: string, extra: Record<string, unknown> = {}) => ({
  reference,
  customer: { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' },
  address: { city: 'الجيزة', district: 'الدقي', firstLine: '12 Tahrir Street, 3rd floor' },
  cod: 250,
  ...extra,
});

let sandbox: Sandbox;
let backend: MerchantBackend;
let out: ReturnType<typeof collector>;

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${backend.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
const get = async (path: string) => {
  const response = await fetch(`${backend.url}${path}`);
  return { status: response.status, body: (await response.json()) as any };
};

beforeEach(async () => {
  sandbox = createSandbox();
  const target = { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch };
  await setUpMerchant(clientFor(target));
  out = collector();
  backend = await startMerchantBackend({ ...target, out, webhookKey: KEY });
});
afterEach(async () => {
  await sandbox.close();
  await backend.close();
});

describe('the merchant backend', () => {
  it('POST /orders creates a Deliver order from place names, with its webhook URL and key', async () => {
    const answer = await post('/orders', order('ORDER-1'));
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ reference: 'ORDER-1', trackingNumber: expect.stringMatching(/^\d+$/), state: 10 });

    const [created, ...others] = sandbox.orders();
    expect(others).toEqual([]);
    expect(created).toMatchObject({ trackingNumber: answer.body.trackingNumber, type: 10, cod: 250, businessReference: 'ORDER-1' });
    expect(created?.request).toMatchObject({
      dropOffAddress: { city: 'Giza', districtId: 'district-eg-giza-dokki' },
      webhookUrl: `${backend.url}/webhooks/delivery`,
      webhookCustomHeaders: { 'X-Webhook-Key': KEY },
    });
  });

  it('follows the order through its webhooks, and an older webhook arriving late does not move it back', async () => {
    const { body } = await post('/orders', order('ORDER-2'));
    await sandbox.play(body.trackingNumber, 'exceptionThenSuccess');
    expect(sandbox.webhookLog().map((delivery) => delivery.status)).toEqual(Array(10).fill('delivered'));

    const shop = await get('/orders/ORDER-2');
    expect(shop.body).toMatchObject({ state: 45, stateName: 'Delivered', collected: 250 });
    expect(out.lines()).toContain(`webhook: ORDER-2 #${body.trackingNumber} → 47 Exception`);

    // A change stamped before the latest one, delivered only now (a retry, say).
    const first = sandbox.webhookLog()[0]?.body;
    expect(first?.state).toBe(20);
    const late = { ...first, state: 49 };
    expect((await post('/webhooks/delivery', late, { 'X-Webhook-Key': KEY })).status).toBe(200);
    expect((await get('/orders/ORDER-2')).body).toMatchObject({ state: 45, updatedAt: sandbox.order(body.trackingNumber).history.at(-1)?.timeStamp });
  });

  it('answers 401 to a webhook without its key, and changes nothing', async () => {
    const { body } = await post('/orders', order('ORDER-3'));
    await sandbox.advance(body.trackingNumber, { to: 20 });
    const forged = { ...sandbox.webhookLog()[0]?.body, state: 49 };
    expect((await post('/webhooks/delivery', forged)).status).toBe(401);
    expect((await post('/webhooks/delivery', forged, { 'X-Webhook-Key': 'guessed' })).status).toBe(401);
    expect((await get('/orders/ORDER-3')).body).toMatchObject({ state: 20, stateName: 'Route Assigned' });
  });

  it('answers 422 with the error class and the fields for what the SDK refused before sending: nothing reaches the service', async () => {
    const tooMuch = await post('/orders', order('ORDER-4', { cod: 45_000 }));
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body).toMatchObject({ error: 'CodLimitExceededError', code: 3007, source: 'client', fields: ['cod'] });
    const misspelt = await post('/orders', order('ORDER-5', { address: { city: 'Giza', district: 'Dokky', firstLine: '12 Tahrir Street' } }));
    expect(misspelt.status).toBe(422);
    expect(misspelt.body).toMatchObject({ error: 'DistrictNotFoundError', code: 3003, source: 'client', fields: ['district'] });
    expect(misspelt.body.message).toContain('closest: Dokki');
    const notServed = await post('/orders', order('ORDER-6', { address: { city: 'Giza', district: 'Al Ayyat', firstLine: '1 Main Street' } }));
    expect(notServed).toMatchObject({ status: 422, body: { error: 'AddressNotServedError', fields: ['district'] } });
    expect(sandbox.orders()).toEqual([]);
    expect((await get('/orders/ORDER-4')).status).toBe(404);
  });

  it('answers 502 with the class for what the service refused, 409 to a reference sent twice, 400 to a body it cannot read', async () => {
    const unset = createSandbox(); // an account without a business: 1073 from the service
    const elsewhere = await startMerchantBackend({ baseUrl: unset.baseUrl, apiKey: unset.apiKey, fetch: unset.fetch, out: collector() });
    try {
      const response = await fetch(`${elsewhere.url}/orders`, { method: 'POST', body: JSON.stringify(order('ORDER-7')) });
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({ error: 'BusinessLocationRequiredError', code: 1073, source: 'server' });
    } finally {
      await elsewhere.close();
      await unset.close();
    }
    expect((await post('/orders', order('ORDER-8'))).status).toBe(201);
    expect((await post('/orders', order('ORDER-8'))).status).toBe(409);
    expect((await post('/orders', '{"reference":')).status).toBe(400);
    expect(sandbox.orders()).toHaveLength(1);
  });
});

describe('npx tsx examples/merchant-backend.ts', () => {
  it('serves against its own sandbox, takes an order, follows it through the webhooks, and stops on Ctrl-C', async () => {
    const running = startTsx(['examples/merchant-backend.ts'], { PORT: '0' });
    try {
      const [, shop = '', api = ''] = await running.waitFor(
        /Merchant backend on (http:\/\/127\.0\.0\.1:\d+) \(delivery API: (http:\/\/127\.0\.0\.1:\d+)\/v2\)/,
      );
      const [, token = ''] = await running.waitFor(/X-Sandbox-Token: ([\w-]+)'/);
      const created = await fetch(`${shop}/orders`, { method: 'POST', body: JSON.stringify(order('ORDER-9')) });
      expect(created.status).toBe(201);
      const { trackingNumber } = (await created.json()) as { trackingNumber: string };
      const played = await fetch(`${api}/__sandbox/orders/${trackingNumber}/play`, {
        method: 'POST',
        headers: { 'x-sandbox-token': token },
        body: JSON.stringify({ scenario: 'success' }),
      });
      expect(played.status).toBe(200);
      await running.waitFor(/webhook: ORDER-9 #\d+ → 45 Delivered/);
      expect(await (await fetch(`${shop}/orders/ORDER-9`)).json()).toMatchObject({ state: 45, collected: 250 });
    } finally {
      expect(await running.stop('SIGINT')).toBe(0);
    }
  });
});
