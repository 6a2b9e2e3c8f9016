// Each order counted once in every paged reader (issue 40, point 4): a service that answers an
// order again on a later page (a repeated page, or orders shifting as new ones arrive, newest
// first) has it yielded once by `list` and counted once by `customerHistory`, which says how
// many it skipped. Against an independent node:http service and the sandbox.
import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryClient } from '../../src/index.js';
import { envelope, startFakeService } from '../support/fake-service.js';
import { createOrder, numberedOrder, sandboxWithAccount } from '../support/sandbox.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const pageOf = (name: string, size: number, state = 45) =>
  Array.from({ length: size }, (_, i) => ({ _id: `${name}-${i}`, trackingNumber: `${name}${i}`, state: { code: state }, businessReference: `${name}-${i}` }));

describe('a service that answers page 1 again as page 3, from an independent node:http service', () => {
  async function client(): Promise<DeliveryClient> {
    const fake = await startFakeService();
    closers.push(fake.close);
    const pages = [pageOf('A', 50), pageOf('B', 50), pageOf('A', 50), pageOf('C', 3, 46)];
    fake.on('POST /deliveries/search', (request) => {
      const page = (request.body as { page: number }).page;
      return envelope({ deliveries: pages[page - 1] ?? [], count: 153, page, limit: 50 });
    });
    return new DeliveryClient({ baseUrl: fake.baseUrl, apiKey: 'k', maxRetries: 0 });
  }

  it('list yields each order once', async () => {
    const listed: string[] = [];
    for await (const order of (await client()).deliveries.list()) listed.push(order.trackingNumber);
    expect(listed).toHaveLength(103);
    expect(new Set(listed).size).toBe(103);
  });

  it('customerHistory counts each order once and says how many the service repeated', async () => {
    const history = await (await client()).deliveries.customerHistory('01012345678');
    expect(history).toEqual({ total: 103, delivered: 100, returned: 3, pending: 0, rate: 100 / 103, repeated: 50 });
  });

  it('an order repeated under another tracking number but the same _id is the same order', async () => {
    const fake = await startFakeService();
    closers.push(fake.close);
    fake.on('POST /deliveries/search', (request) => {
      const page = (request.body as { page: number }).page;
      const deliveries = page === 1 ? pageOf('A', 50) : [{ _id: 'A-0', trackingNumber: 'renumbered', state: { code: 45 } }];
      return envelope({ deliveries, count: 51, page, limit: 50 });
    });
    const history = await new DeliveryClient({ baseUrl: fake.baseUrl, apiKey: 'k', maxRetries: 0 }).deliveries.customerHistory('01012345678');
    expect(history).toMatchObject({ total: 50, repeated: 1 });
  });
});

describe('orders arriving while a listing pages, newest first, in the sandbox', () => {
  it('list yields each order once though an order created between two pages pushes the last of page 1 onto page 2', async () => {
    const { sandbox, client } = await sandboxWithAccount();
    closers.push(() => sandbox.close());
    await client.deliveries.createBulk(Array.from({ length: 120 }, (_, i) => numberedOrder(i)));
    const listed: string[] = [];
    for await (const found of client.deliveries.list({ limit: 50 })) {
      listed.push(found.trackingNumber);
      if (listed.length === 50) await createOrder(sandbox, numberedOrder(999) as unknown as Record<string, unknown>);
    }
    expect(listed).toHaveLength(120);
    expect(new Set(listed).size).toBe(120);
  });

  it('customerHistory counts each once, and says one order came again', async () => {
    let searches = 0;
    const { sandbox, client } = await sandboxWithAccount(
      {},
      {
        fetch: async (input, init) => {
          const request = input instanceof Request ? input : new Request(input, init);
          const answer = await sandbox.fetch(request);
          // A new order for the same customer arrives right after the first page was answered.
          if (new URL(request.url).pathname.endsWith('/deliveries/search') && ++searches === 1) await createOrder(sandbox, numberedOrder(999) as never);
          return answer;
        },
      },
    );
    closers.push(() => sandbox.close());
    await client.deliveries.createBulk(Array.from({ length: 60 }, (_, i) => numberedOrder(i)));
    const history = await client.deliveries.customerHistory('01012345678');
    expect(history).toMatchObject({ total: 60, pending: 60, repeated: 1 });
  });
});
