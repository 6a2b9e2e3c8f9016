// An order as read names itself: `_id` and `trackingNumber` are always there, so `terminate` and
// `update` take the record as it is (issue 40, point 12). Against the sandbox, and against an
// independent node:http service whose answer lacks an id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryClient, OrderStateError, ResponseShapeError } from '../../src/index.js';
import { envelope, startFakeService } from '../support/fake-service.js';
import { dropOff, sandboxWithAccount } from '../support/sandbox.js';

const receiver = { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' };

describe('an order as read, against the sandbox', () => {
  it('carries _id, and terminate takes the record itself', async () => {
    const { sandbox, client } = await sandboxWithAccount();
    const created = await client.deliveries.create({ type: 10, dropOffAddress: dropOff, receiver, cod: 100 });
    const order = await client.deliveries.get(created.trackingNumber);
    expect(order._id).toBe(created._id);
    await client.deliveries.terminate(order);
    expect((await client.deliveries.get(created.trackingNumber)).state?.code).toBe(48);
    await sandbox.close();
  });

  it('terminate refuses a record read in a final state, sending nothing', async () => {
    let sent = 0;
    const { sandbox, client } = await sandboxWithAccount({}, { fetch: (input, init) => (sent++, sandbox.fetch(input, init)) });
    const created = await client.deliveries.create({ type: 10, dropOffAddress: dropOff, receiver, cod: 100 });
    await sandbox.play(created.trackingNumber, 'success');
    const delivered = await client.deliveries.get(created.trackingNumber);
    const before = sent;
    const error = await client.deliveries.terminate(delivered).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(OrderStateError);
    expect(error).toMatchObject({ source: 'client', state: 45 });
    expect(sent).toBe(before);
    await sandbox.close();
  });
});

describe('an answer whose order has no id, from an independent service', () => {
  let fake: Awaited<ReturnType<typeof startFakeService>>;
  beforeAll(async () => {
    fake = await startFakeService();
  });
  afterAll(() => fake.close());

  it('is a ResponseShapeError naming what is missing, for get and for a page of search', async () => {
    fake.on('GET /deliveries/business/:id', () => envelope({ trackingNumber: '70000012', state: { code: 10 } }));
    fake.on('POST /deliveries/search', () => envelope({ deliveries: [{ _id: 'a', trackingNumber: '1' }, { _id: 'b' }], count: 2, page: 1, limit: 50 }));
    const client = new DeliveryClient({ baseUrl: fake.baseUrl, apiKey: 'k', maxRetries: 0 });
    const error = await client.deliveries.get('70000012').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as Error).message).toContain('without _id');
    const page = await client.deliveries.search({}).catch((err: unknown) => err);
    expect(page).toBeInstanceOf(ResponseShapeError);
    expect((page as Error).message).toContain('without trackingNumber');
  });
});
