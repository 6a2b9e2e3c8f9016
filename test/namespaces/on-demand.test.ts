// The client's namespaces load each call's code on its first use (docs/performance.md): what a
// page ships at once is the client and the transport. These tests make a load fail the way a
// page whose chunks were redeployed sees it, and check that the call still ends in a typed error
// that tells the truth about what was sent.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validOrders } from '../support/orders.js';

const order = () => validOrders.deliver() as import('../../src/index.js').DeliverOrder;

afterEach(async () => {
  // vitest applies queued mocks and unmocks at the next module it fetches, and two fetches at once
  // apply one queue twice, out of order: an import a test left running could undo the next test's
  // mock. So the imports settle, and the unmocks are applied here, before the next test mocks.
  await vi.dynamicImportSettled();
  vi.doUnmock('../../src/functions/deliveries/create.js');
  vi.doUnmock('../../src/namespaces/chunks/after-create.js');
  vi.doUnmock('../../src/internal/error-mapping.js');
  vi.doUnmock('ky');
  vi.resetModules();
  await import('../../src/index.js');
});

/** A fresh copy of the SDK (so a module mocked since is loaded), with a fetch that records what it is asked. */
async function freshClient(answer: () => Response = () => Response.json({ success: true, data: { _id: 'd1', trackingNumber: '70000012' } })) {
  vi.resetModules();
  const sdk = await import('../../src/index.js');
  const sent: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push(new Request(input, init));
    return answer();
  };
  return { sdk, sent, client: new sdk.DeliveryClient({ baseUrl: 'https://api.delivery.test/v2', apiKey: 'sk_test_on_demand_1', fetch, maxRetries: 0 }) };
}

const chunkMissing = () => {
  throw new TypeError('Failed to fetch dynamically imported module: https://shop.example/assets/deliveries-3f2a.js');
};

describe("a call whose code cannot be loaded (a page's chunk is gone)", () => {
  it.each([
    ["the call's own module", '../../src/functions/deliveries/create.js'],
    ['the transport, loaded by the first request', 'ky'],
  ])('%s: rejects with a ConnectionError that says nothing was sent, and sends nothing', async (_, missing) => {
    vi.doMock(missing, chunkMissing);
    const { sdk, sent, client } = await freshClient();
    const error = await client.deliveries.create(order()).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(sdk.ConnectionError);
    expect((error as InstanceType<typeof sdk.ConnectionError>).mayExist).toBe(false);
    expect((error as Error).message).toContain('nothing was sent');
    expect(sent).toEqual([]);
  });

  it('fails an iterating call the same way, at its first step', async () => {
    vi.doMock('../../src/namespaces/chunks/after-create.js', chunkMissing);
    const { sdk, sent, client } = await freshClient();
    const iterator = client.deliveries.list({ businessReference: 'order-1042' });
    await expect(iterator.next()).rejects.toBeInstanceOf(sdk.ConnectionError);
    expect(sent).toEqual([]);
  });

  it('tries the load again on the next call, which succeeds once the chunk is served again', async () => {
    // Served again by the same mock rather than by unmocking, which vitest's runner applies to the
    // next import only now and then.
    let served = false;
    vi.doMock('../../src/functions/deliveries/create.js', (importOriginal) => (served ? importOriginal() : chunkMissing()));
    const { sdk, client } = await freshClient();
    await expect(client.deliveries.create(order())).rejects.toBeInstanceOf(sdk.ConnectionError);
    served = true;
    await expect(client.deliveries.create(order())).resolves.toMatchObject({ trackingNumber: '70000012' });
  });

  it('leaves the other namespaces working', async () => {
    vi.doMock('../../src/functions/deliveries/create.js', chunkMissing);
    const { client } = await freshClient(() => Response.json({ success: true, data: [{ _id: 'c1', name: 'Cairo' }] }));
    await expect(client.lookup.cities({ countryId: 'eg' })).resolves.toEqual([expect.objectContaining({ name: 'Cairo' })]);
  });
});

describe('an error answer whose reading code cannot be loaded', () => {
  it('is a ResponseShapeError naming the status, and a create says it may exist', async () => {
    vi.doMock('../../src/internal/error-mapping.js', chunkMissing);
    const { sdk, sent, client } = await freshClient(() => Response.json({ success: false, message: 'Internal error' }, { status: 500 }));
    const error = await client.deliveries.create(order()).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(sdk.ResponseShapeError);
    expect((error as InstanceType<typeof sdk.ResponseShapeError>).status).toBe(500);
    expect((error as InstanceType<typeof sdk.ResponseShapeError>).mayExist).toBe(true);
    expect(sent).toHaveLength(1);
  });
});

describe('the namespaces keep their shapes', () => {
  it('an on-demand call is an APIPromise with withResponse()', async () => {
    const { sdk, client } = await freshClient();
    const call = client.deliveries.create(order());
    expect(call).toBeInstanceOf(sdk.APIPromise);
    const { data, response } = await call.withResponse();
    expect(data.trackingNumber).toBe('70000012');
    expect(response.status).toBe(200);
  });

  it('lookup.clearCache() stays synchronous', async () => {
    const { client } = await freshClient();
    expect(client.lookup.clearCache()).toBeUndefined();
  });
});
