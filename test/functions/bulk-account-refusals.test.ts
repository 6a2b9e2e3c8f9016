// An account refusal stops a bulk upload at the first one (issue 40, point 8): a lapsed
// subscription (8000002, a 403) and an invalid key (1028, whatever the status), like a 401, stop
// sending; the orders never sent are reported as not sent (`stopped`), the orders sent and
// refused as failed, surely not created. Against the sandbox and an independent node:http service.
import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError, BulkCreationError, DeliveryClient, type OrderInput, SubscriptionRequiredError } from '../../src/index.js';
import { startFakeService } from '../support/fake-service.js';
import { numberedOrder, sandboxWithAccount } from '../support/sandbox.js';

const orders = (count: number): OrderInput[] => Array.from({ length: count }, (_, i) => numberedOrder(i));

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A sandbox with a ready account, closed after the test, whose client counts the bulk requests it sends. */
async function countingBulkRequests() {
  let sent = 0;
  const { sandbox, client } = await sandboxWithAccount(
    {},
    {
      fetch: (input, init) => {
        const request = input instanceof Request ? input : new Request(input, init);
        if (new URL(request.url).pathname.endsWith('/deliveries/bulk')) sent++;
        return sandbox.fetch(request);
      },
    },
  );
  closers.push(() => sandbox.close());
  return { sandbox, client, bulkRequests: () => sent };
}

describe('a lapsed subscription, in the sandbox', () => {
  it('stops createBulk at the first refusal: one request at concurrency 1, the rest reported not sent', async () => {
    const { sandbox, client, bulkRequests } = await countingBulkRequests();
    sandbox.setSubscriptionActive(false);
    const error = await client.deliveries.createBulk(orders(2000), { chunkSize: 100, concurrency: 1 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(BulkCreationError);
    const { result } = error as BulkCreationError;
    expect(bulkRequests()).toBe(1);
    expect(result.stopped?.at).toBe(100);
    expect(result.stopped?.reason).toBeInstanceOf(SubscriptionRequiredError);
    expect(result.failed.map((failure) => failure.index)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(result.failed.every((failure) => failure.mayExist === false && failure.error instanceof SubscriptionRequiredError)).toBe(true);
    expect((error as Error).message).toContain('1900 not sent');
    expect(sandbox.orders()).toEqual([]);
  });

  it('at concurrency 4, sends no chunk after the first refusal settles: at most the 4 in flight', async () => {
    const { sandbox, client, bulkRequests } = await countingBulkRequests();
    sandbox.setSubscriptionActive(false);
    const error = (await client.deliveries.createBulk(orders(2000), { chunkSize: 100, concurrency: 4 }).catch((err: unknown) => err)) as BulkCreationError;
    expect(bulkRequests()).toBeLessThanOrEqual(4);
    expect(error.result.stopped?.at).toBe(bulkRequests() * 100);
    expect(error.result.failed).toHaveLength(bulkRequests() * 100);
  });

  it('ends a streamBulk loop with the refusal, after the outcome of the chunk that got it', async () => {
    const { sandbox, client } = await sandboxWithAccount();
    closers.push(() => sandbox.close());
    sandbox.setSubscriptionActive(false);
    const seen: number[] = [];
    const error = await (async () => {
      for await (const chunk of client.deliveries.streamBulk(orders(500), { chunkSize: 100, concurrency: 1 })) seen.push(chunk.failed.length);
    })().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(SubscriptionRequiredError);
    expect(seen).toEqual([100]);
  });
});

describe('account refusals from an independent service', () => {
  it.each([
    ['403 with 8000002, a data object beside it', 403, 8_000_002, {}, SubscriptionRequiredError],
    ['400 with 1028 (an invalid key)', 400, 1028, null, AuthenticationError],
  ])('%s stops the upload at the first refusal', async (_, status, errorCode, data, Class) => {
    const fake = await startFakeService();
    closers.push(fake.close);
    fake.on('POST /deliveries/bulk', () => ({ status, json: { success: false, message: 'Refused', errorCode, data } }));
    const client = new DeliveryClient({ baseUrl: fake.baseUrl, apiKey: 'k', maxRetries: 0 });
    const error = (await client.deliveries.createBulk(orders(1000), { chunkSize: 100, concurrency: 1 }).catch((err: unknown) => err)) as BulkCreationError;
    expect(error).toBeInstanceOf(BulkCreationError);
    expect(fake.received).toHaveLength(1);
    expect(error.result.stopped?.reason).toBeInstanceOf(Class);
    expect(error.result.stopped?.at).toBe(100);
    expect(error.result.failed.every((failure) => !failure.mayExist)).toBe(true);
  });
});
