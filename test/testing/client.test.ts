import { afterAll, describe, expect, it } from 'vitest';
import { DeliveryClient } from '../../src/client.js';
import { BulkCreationError, BusinessLocationRequiredError, NotFoundError } from '../../src/errors/index.js';
import { createSandbox } from '../../src/testing/index.js';
import { dropOff, setUpAccount } from './helpers.js';

const sandbox = createSandbox();
afterAll(() => sandbox.close());
const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch, maxRetries: 0 });

describe('sandbox.fetch as the DeliveryClient fetch (no msw, no server)', () => {
  it('unwraps the envelope of a public lookup', async () => {
    const zones = await client.request<Array<{ name: string }>>({ method: 'GET', path: '/cities/city-eg-cairo/zones' });
    expect(zones.map((z) => z.name)).toContain('Maadi');
  });

  it('maps 1073, 404 and 1061 to their classes', async () => {
    const order = { type: 10, dropOffAddress: dropOff };
    await expect(client.request({ method: 'POST', path: '/deliveries', query: { apiVersion: 1 }, body: order })).rejects.toBeInstanceOf(BusinessLocationRequiredError);
    await expect(client.request({ method: 'GET', path: '/cities/nowhere/zones' })).rejects.toThrow();
    await expect(client.request({ method: 'PUT', path: '/businesses/none', body: { pickupAddress: [] } })).rejects.toBeInstanceOf(NotFoundError);
    await setUpAccount(sandbox);
    const bulk = await client.request({ method: 'POST', path: '/deliveries/bulk', query: { apiVersion: 1 }, body: { deliveries: [order, { ...order, cod: 99_999 }] } }).catch((err: unknown) => err);
    expect(bulk).toBeInstanceOf(BulkCreationError);
    expect((bulk as BulkCreationError).body).toMatchObject({ data: { created: [{ index: 0 }], failed: [{ index: 1, errorCode: 3007 }] } });
  });
});
