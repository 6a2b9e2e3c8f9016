// A bulk upload reads each order once into a snapshot of its own, checks that snapshot and writes
// each chunk with one JSON.stringify: the body of every request is, byte for byte, the orders of
// its chunk as validateOrder returns them. And nothing a getter, a Proxy or a toJSON answers after
// that read is sent. `npm run fuzz:wire` (and `npm run test:full`) runs them at full size: 3,000 orders.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeliveryClient, type OrderInput, ValidationError } from '../../src/index.js';
import { validateOrder } from '../../src/validation.js';
import { mutated, type Order, validOrder, written } from '../support/order-arbitraries.js';
import { validOrders } from '../support/orders.js';
import { FULL } from '../support/sizes.js';

/** Runs of each property, and how many orders one run uploads (at full size, 3,000 each run). */
const SIZE = FULL ? { runs: 4, least: 3_000, orders: 3_000 } : { runs: 15, least: 1, orders: 40 };
/** `size: 'max'`: fast-check otherwise keeps arrays near 10 items whatever their maxLength. */
const ORDERS = { minLength: SIZE.least, maxLength: SIZE.orders, size: 'max' } as const;

/** A service that creates every order of each bulk request, keeping each request's body text. */
function bulkService() {
  const bodies: string[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = await new Request(input, init).text();
    bodies.push(body);
    const { deliveries } = JSON.parse(body) as { deliveries: unknown[] };
    return Response.json({
      success: true,
      message: 'Done',
      data: { createdDeliveriesIds: deliveries.map((_, i) => `id-${bodies.length}-${i}`), failedDeliveries: [] },
    });
  }) as typeof globalThis.fetch;
  return { bodies, client: new DeliveryClient({ baseUrl: 'https://api.delivery.test/v2', apiKey: 'k', fetch, maxRetries: 0 }) };
}

const EASTERN = '٠١٢٣٤٥٦٧٨٩';
const withEasternPhone = (order: Order): Order => {
  const receiver = order['receiver'] as { phone?: unknown } | undefined;
  if (typeof receiver?.phone !== 'string') return order;
  return { ...order, receiver: { ...receiver, phone: receiver.phone.replace(/[0-9]/g, (digit) => EASTERN.charAt(Number(digit))) } };
};

/** The generated orders with references of their own: the upload refuses a reference repeated within a request. */
const referenced = (orders: Order[]): Order[] =>
  orders.map((order, index) => ({
    ...order,
    businessReference: `r${index}`,
    ...('uniqueBusinessReference' in order ? { uniqueBusinessReference: `u${index}` } : {}),
  }));

/** The body of one request carrying `orders`, each as validateOrder returns it. */
const expectedBody = (orders: readonly unknown[]): string =>
  `{"deliveries":[${orders.map((order) => JSON.stringify(validateOrder(order))).join(',')}],"deleteFailedDeliveries":false}`;

const validates = (order: unknown): boolean => {
  try {
    validateOrder(order);
    return true;
  } catch {
    return false;
  }
};

describe('each request of an upload is its orders as validateOrder returns them, byte for byte', () => {
  const valid = fc.oneof(
    validOrder.map(written),
    validOrder.map((order) => withEasternPhone(written(order))),
  );

  it('createBulk of an array of valid orders, any chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(valid, ORDERS), fc.integer({ min: 1, max: 120 }), async (generated, chunkSize) => {
        const orders = referenced(generated);
        const { bodies, client } = bulkService();
        await client.deliveries.createBulk(orders as unknown as OrderInput[], { chunkSize });
        const expected = Array.from({ length: Math.ceil(orders.length / chunkSize) }, (_, k) => expectedBody(orders.slice(k * chunkSize, (k + 1) * chunkSize)));
        expect(bodies.sort()).toEqual(expected.sort());
      }),
      { numRuns: SIZE.runs },
    );
  }, 3_600_000);

  it('streamBulk of a generator of valid and broken orders: each chunk sends the orders validateOrder passes, as it returns them', async () => {
    const any = fc.oneof(
      valid,
      mutated.map((order) => order as Order),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(any, ORDERS), fc.integer({ min: 1, max: 120 }), async (generated, chunkSize) => {
        const orders = referenced(generated);
        const { bodies, client } = bulkService();
        function* rows() {
          yield* orders;
        }
        for await (const _ of client.deliveries.streamBulk(rows() as Iterable<OrderInput>, { chunkSize })) {
          // each chunk's outcome; the bodies are what this checks
        }
        const expected: string[] = [];
        for (let start = 0; start < orders.length; start += chunkSize) {
          const sendable = orders.slice(start, start + chunkSize).filter(validates);
          if (sendable.length > 0) expected.push(expectedBody(sendable));
        }
        expect(bodies.sort()).toEqual(expected.sort());
      }),
      { numRuns: SIZE.runs },
    );
  }, 3_600_000);
});

describe('nothing a getter, a Proxy or a toJSON answers after the read is sent', () => {
  it('a getter that answers differently on a second read: read once, its first answer sent, by createBulk and streamBulk', async () => {
    for (const upload of ['createBulk', 'streamBulk'] as const) {
      const { bodies, client } = bulkService();
      let reads = 0;
      const order = Object.defineProperty({ ...validOrders.deliver(), businessReference: 'getter' }, 'cod', {
        enumerable: true,
        get: () => (++reads === 1 ? 250 : 99_999),
      });
      if (upload === 'createBulk') await client.deliveries.createBulk([order as OrderInput]);
      else for await (const _ of client.deliveries.streamBulk([order as OrderInput])) void _;
      expect(reads).toBe(1);
      expect(bodies.map((body) => (JSON.parse(body) as { deliveries: Array<{ cod: number }> }).deliveries[0]?.cod)).toEqual([250]);
    }
  });

  it('a Proxy: each field read once; a toJSON: called once; what they answer later is not sent', async () => {
    const { bodies, client } = bulkService();
    const gets = new Map<string, number>();
    const proxied = new Proxy(
      { ...validOrders.deliver(), businessReference: 'proxy' },
      { get: (target, key, receiver) => (gets.set(String(key), (gets.get(String(key)) ?? 0) + 1), Reflect.get(target, key, receiver)) },
    );
    let calls = 0;
    const record = { toJSON: () => ({ ...validOrders.deliver(), businessReference: 'record', notes: `call ${++calls}` }) };
    await client.deliveries.createBulk([proxied, record] as OrderInput[]);
    // `then` (is it a promise?) and `toJSON` looked up, then each own field, once each.
    expect([...gets.values()].every((count) => count === 1)).toBe(true);
    expect(calls).toBe(1);
    expect(bodies).toEqual([
      expectedBody([
        validateOrder({ ...validOrders.deliver(), businessReference: 'proxy' }),
        { ...validOrders.deliver(), businessReference: 'record', notes: 'call 1' },
      ]),
    ]);
  });

  it("changing the caller's orders after createBulk checked them changes no request: each chunk carries what was checked", async () => {
    const orders = Array.from({ length: 6 }, (_, i) => ({ ...validOrders.deliver(), businessReference: `m${i}`, cod: 100 }));
    const bodies: string[] = [];
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const body = await new Request(input, init).text();
      bodies.push(body);
      // The first request is in flight: every order was checked; change them all, the later ones' chunks not yet written.
      for (const order of orders) Object.assign(order, { cod: 99_999, notes: 'changed' });
      const { deliveries } = JSON.parse(body) as { deliveries: unknown[] };
      return Response.json({
        success: true,
        message: 'Done',
        data: { createdDeliveriesIds: deliveries.map((_, i) => `${bodies.length}-${i}`), failedDeliveries: [] },
      });
    }) as typeof globalThis.fetch;
    const client = new DeliveryClient({ baseUrl: 'https://api.delivery.test/v2', apiKey: 'k', fetch });
    await client.deliveries.createBulk(orders as unknown as OrderInput[], { chunkSize: 2, concurrency: 1 });
    expect(bodies).toHaveLength(3);
    for (const body of bodies) for (const sent of (JSON.parse(body) as { deliveries: Order[] }).deliveries) expect(sent).toMatchObject({ cod: 100 });
    expect(bodies.join('')).not.toContain('changed');
  });
});

describe('what JSON cannot carry is refused before sending, naming the order and the field', () => {
  const cyclic: Record<string, unknown> = { ...validOrders.deliver()['dropOffAddress'] };
  cyclic['self'] = cyclic;
  let deep: unknown = {};
  for (let i = 0; i < 10_000; i++) deep = { a: deep };
  it.each<[string, Record<string, unknown>, Array<string | number>]>([
    ['NaN', { cod: Number.NaN }, ['cod']],
    ['a BigInt', { cod: 250n }, ['cod']],
    ['a cycle', { dropOffAddress: cyclic }, ['dropOffAddress', 'self']],
    ['nesting too deep', { notes: deep }, ['notes']],
  ])('%s', async (_, change, path) => {
    const { bodies, client } = bulkService();
    const orders = [validOrders.deliver(), { ...validOrders.deliver(), ...change }];
    const error = await client.deliveries.createBulk(orders as unknown as OrderInput[]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([[1, ...path]]);
    for await (const chunk of client.deliveries.streamBulk(orders as OrderInput[])) {
      expect(chunk.failed.map(({ index, error: failure }) => [index, (failure as ValidationError).issues?.[0]?.path])).toEqual([[1, path]]);
    }
    // The stream sent the valid order alone; the array sent nothing.
    expect(bodies).toEqual([expectedBody([orders[0]])]);
  });
});
