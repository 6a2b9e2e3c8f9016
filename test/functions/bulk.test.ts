import { describe, expect, it } from 'vitest';
import {
  ApiError,
  BulkCreationError,
  type BulkProgress,
  BusinessLocationRequiredError,
  CodLimitExceededError,
  ConfigurationError,
  DeliveryType,
  type OrderInput,
  RequestAbortedError,
  ResponseShapeError,
  ServerError,
  ValidationError,
} from '../../src/index.js';
import { bulkFailure, capture, delay, dropOffAddress, errorBody, HttpResponse, makeClient, ok, type Sent, useFakeService } from '../support/fake-service.js';

const server = useFakeService();

const order = (i: number): OrderInput => ({ type: DeliveryType.Deliver, dropOffAddress, cod: 100, businessReference: `ref-${i}` });
const orders = (count: number): OrderInput[] => Array.from({ length: count }, (_, i) => order(i));

type Wire = { businessReference: string; cod?: number };
const deliveriesOf = (sent: Sent): Wire[] => (sent.json as { deliveries: Wire[] }).deliveries;
const createdEntry = (element: Wire, index: number) => ({
  index,
  _id: `id-${element.businessReference}`,
  trackingNumber: `tn-${element.businessReference}`,
  businessReference: element.businessReference,
});

/** The service: creates every order of the request. */
const createAll = (sent: Sent) => ok({ created: deliveriesOf(sent).map(createdEntry) }, 201);

/** Every businessReference sent, over all requests. */
const referencesSent = (sent: Sent[]) => sent.flatMap(deliveriesOf).map((element) => element.businessReference);

describe('createBulk: chunks, wire format, results by input index', () => {
  it('sends { deliveries } chunks to POST /deliveries/bulk?apiVersion=1 and resolves every order created', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', createAll);
    const result = await makeClient().deliveries.createBulk(orders(250), { chunkSize: 100 });
    expect(sent.map((s) => [s.method, s.path, s.search, deliveriesOf(s).length])).toEqual([
      ['POST', '/deliveries/bulk', '?apiVersion=1', 100],
      ['POST', '/deliveries/bulk', '?apiVersion=1', 100],
      ['POST', '/deliveries/bulk', '?apiVersion=1', 50],
    ]);
    expect(sent[0]?.headers['content-type']).toBe('application/json');
    // What the service's own plugin sends when nothing else is asked for.
    expect(sent.map((s) => (s.json as { deleteFailedDeliveries?: unknown }).deleteFailedDeliveries)).toEqual([false, false, false]);
    expect(deliveriesOf(sent[2] as Sent)[0]).toEqual({ type: 10, dropOffAddress, cod: 100, businessReference: 'ref-200' });
    expect(result.failed).toEqual([]);
    expect(result.stopped).toBeUndefined();
    expect(result.created).toHaveLength(250);
    expect(result.created.every((created, i) => created.index === i && created.trackingNumber === `tn-ref-${i}`)).toBe(true);
  });

  it('keeps at most `concurrency` requests in flight, and does use them', async () => {
    // No clock: the service holds every request until `concurrency` of them are in flight (or the
    // last chunks are), then answers them all. A client that sent fewer at once would wait for ever
    // (the test's timeout), one that sent more would show it in `most`.
    const chunks = 10;
    let inFlight = 0;
    let started = 0;
    let most = 0;
    const held: Array<() => void> = [];
    capture(server, 'post', '/deliveries/bulk', async (s) => {
      most = Math.max(most, ++inFlight);
      started++;
      const answered = new Promise<void>((resolve) => held.push(resolve));
      if (inFlight === 3 || started === chunks) for (const release of held.splice(0)) release();
      await answered;
      inFlight--;
      return createAll(s);
    });
    const result = await makeClient().deliveries.createBulk(orders(chunks * 5), { chunkSize: 5, concurrency: 3 });
    expect(most).toBe(3);
    expect(started).toBe(chunks);
    expect(result.created).toHaveLength(50);
  }, 10_000);

  it('lists created and failed orders by input index, however the chunks settle', async () => {
    // The service holds the three chunks until all are in flight, then answers the last first; the
    // lists are in input order whichever way the answers come back. The middle order of each fails.
    const held: Array<() => void> = [];
    capture(server, 'post', '/deliveries/bulk', async (s) => {
      const elements = deliveriesOf(s);
      const answered = new Promise<void>((resolve) => held.push(resolve));
      if (held.length === 3) for (const release of held.splice(0).reverse()) release();
      await answered;
      const data = {
        created: elements.flatMap((element, i) => (i === 1 ? [] : [createdEntry(element, i)])),
        failed: [{ index: 1, errorCode: 3007, message: 'COD must be at most 30000 EGP' }],
      };
      return HttpResponse.json({ ...errorBody(1061, 'Some deliveries failed, fix them and upload again'), data }, { status: 400 });
    });
    const error = await bulkFailure(makeClient().deliveries.createBulk(orders(9), { chunkSize: 3, concurrency: 3 }));
    expect(error.created.map((c) => [c.index, c.businessReference])).toEqual([0, 2, 3, 5, 6, 8].map((i) => [i, `ref-${i}`]));
    expect(error.failed.map((f) => f.index)).toEqual([1, 4, 7]);
  }, 10_000);

  it('reads a generator only as chunks are sent when validation is off (bounded memory)', async () => {
    let pulled = 0;
    let answered = 0;
    const chunkSize = 10;
    const concurrency = 2;
    const overReads: number[] = [];
    function* generate() {
      for (let i = 0; i < 200; i++) {
        pulled++;
        yield order(i);
      }
    }
    capture(server, 'post', '/deliveries/bulk', async (s) => {
      if (pulled > (answered + concurrency) * chunkSize) overReads.push(pulled);
      await delay(2);
      answered++;
      return createAll(s);
    });
    const result = await makeClient().deliveries.createBulk(generate(), { chunkSize, concurrency, validate: false });
    expect(overReads).toEqual([]);
    expect(result.created.map((c) => c.index)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('an input that throws part-way (validation off) still reports what was created, with the read error as the stop reason', async () => {
    capture(server, 'post', '/deliveries/bulk', createAll);
    const unreadable = new Error('database cursor closed');
    async function* rows() {
      for (let i = 0; i < 4; i++) yield order(i);
      throw unreadable;
    }
    const error = await bulkFailure(makeClient().deliveries.createBulk(rows(), { chunkSize: 2, concurrency: 1, validate: false }));
    expect(error.created.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    expect(error.stopped?.at).toBe(4);
    expect(error.stopped?.reason.cause).toBe(unreadable);
  });

  it('takes an async iterable, validated first', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', createAll);
    async function* rows() {
      for (let i = 0; i < 5; i++) yield order(i);
    }
    const result = await makeClient().deliveries.createBulk(rows(), { chunkSize: 2 });
    expect(sent.map((s) => deliveriesOf(s).length)).toEqual([2, 2, 1]);
    expect(result.created.map((c) => c.businessReference)).toEqual(['ref-0', 'ref-1', 'ref-2', 'ref-3', 'ref-4']);
  });

  it('reports progress after each chunk', async () => {
    capture(server, 'post', '/deliveries/bulk', createAll);
    const progress: BulkProgress[] = [];
    await makeClient().deliveries.createBulk(orders(7), { chunkSize: 3, concurrency: 1, onProgress: (p) => progress.push(p) });
    expect(progress).toEqual([
      { done: 3, created: 3, failed: 0, total: 7 },
      { done: 6, created: 6, failed: 0, total: 7 },
      { done: 7, created: 7, failed: 0, total: 7 },
    ]);
  });

  it('refuses a chunkSize or concurrency that is not a whole number of at least 1', async () => {
    const deliveries = makeClient().deliveries;
    await expect(deliveries.createBulk(orders(1), { chunkSize: 0 })).rejects.toBeInstanceOf(ConfigurationError);
    await expect(deliveries.createBulk(orders(1), { concurrency: 1.5 })).rejects.toThrow(/concurrency/);
  });
});

describe('createBulk: validation before anything is sent', () => {
  it('lists the issues of every invalid order, paths starting at the input index, and sends nothing', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', createAll);
    const input = orders(6);
    input[1] = { ...order(1), cod: 45_000 };
    input[4] = { type: DeliveryType.Deliver } as OrderInput;
    const error = await makeClient()
      .deliveries.createBulk(input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const issues = (error as ValidationError).issues;
    expect(issues.map((issue) => [issue.path, issue.errorCode])).toEqual([
      [[1, 'cod'], 3007],
      [[4, 'dropOffAddress'], undefined],
    ]);
    expect((error as Error).message).toMatch(
      /^Invalid orders \(2 of 6; nothing was sent\): \[1\]\.cod: must be at most 30000 EGP; \[4\]\.dropOffAddress: required/,
    );
    expect(sent).toHaveLength(0);
  });

  it('with validate: false sends the orders as given', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', createAll);
    await makeClient().deliveries.createBulk([{ ...order(0), cod: 45_000 }], { validate: false });
    expect(deliveriesOf(sent[0] as Sent)[0]?.cod).toBe(45_000);
  });
  it('refuses an array Proxy whose length throws with a ValidationError naming `orders`, in createBulk and streamBulk, and sends nothing', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', createAll);
    const unreadable = (): OrderInput[] =>
      new Proxy(orders(2), {
        get: (target, key) => {
          if (key === 'length') throw new Error('the length getter failed');
          return Reflect.get(target, key);
        },
      });
    const client = makeClient();
    for (const attempt of [
      async (): Promise<unknown> => client.deliveries.createBulk(unreadable()),
      async (): Promise<unknown> => {
        for await (const settled of client.deliveries.streamBulk(unreadable())) return settled;
        return undefined;
      },
    ]) {
      const error = await Promise.resolve()
        .then(attempt)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual([['orders']]);
    }
    expect(sent).toHaveLength(0);
  });
});

describe('createBulk: failures, never sending an order twice', () => {
  it('maps a 1061 answer back to input indexes: created ones kept, failed ones with their own class', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', (s) => {
      const elements = deliveriesOf(s);
      if (elements[0]?.businessReference !== 'ref-3') return createAll(s);
      // request positions: 0 -> input 3 created, 1 -> input 4 failed 3007, 2 -> input 5 failed with a code the SDK does not know
      const data = {
        created: [createdEntry(elements[0], 0)],
        failed: [
          { index: 1, errorCode: 3007, message: 'COD must be at most 30000 EGP' },
          { index: 2, errorCode: 4242, message: 'Something new' },
        ],
      };
      return HttpResponse.json({ ...errorBody(1061, 'Some deliveries failed, fix them and upload again'), data }, { status: 400 });
    });
    const error = await bulkFailure(makeClient().deliveries.createBulk(orders(9), { chunkSize: 3 }));
    expect(error.created.map((c) => c.index)).toEqual([0, 1, 2, 3, 6, 7, 8]);
    expect(error.created[3]).toMatchObject({ index: 3, trackingNumber: 'tn-ref-3' });
    expect(error.failed.map((f) => [f.index, f.mayExist])).toEqual([
      [4, false],
      [5, false],
    ]);
    expect(error.failed[0]?.error).toBeInstanceOf(CodLimitExceededError);
    expect(error.failed[0]?.error).toMatchObject({ source: 'server', status: 400, message: 'COD must be at most 30000 EGP' });
    expect(error.failed[1]?.error).toBeInstanceOf(ApiError);
    expect(error.failed[1]?.error.errorCode).toBe(4242);
    expect(error).toMatchObject({ errorCode: 1061, source: 'server' });
    expect(error.message).toMatch(/^Bulk creation incomplete: 2 of 9 orders failed, 7 created: \[4\]: COD must be at most 30000 EGP; \[5\]: Something new$/);
    expect(referencesSent(sent).sort()).toEqual(
      orders(9)
        .map((o) => o.businessReference)
        .sort(),
    );
  });

  it('does not resend a chunk whose outcome is unknown (5xx): its orders fail with mayExist, the others go on', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', (s) =>
      deliveriesOf(s)[0]?.businessReference === 'ref-2' ? HttpResponse.json(errorBody(undefined, 'boom'), { status: 502 }) : createAll(s),
    );
    const error = await bulkFailure(makeClient().deliveries.createBulk(orders(6), { chunkSize: 2 }));
    expect(sent).toHaveLength(3);
    expect(error.created.map((c) => c.index)).toEqual([0, 1, 4, 5]);
    expect(error.failed.map((f) => [f.index, f.mayExist])).toEqual([
      [2, true],
      [3, true],
    ]);
    expect(error.failed[0]?.error).toBeInstanceOf(ServerError);
    expect(error.message).toMatch(
      /^Bulk creation incomplete: 2 of 6 orders failed \(2 may exist all the same\), 4 created: \[2-3\] \(2 orders\): [^;]+ may have been acted on \(mayExist\)[^;]+$/,
    );
  });

  it('treats an order a 2xx answer does not report as possibly created', async () => {
    capture(server, 'post', '/deliveries/bulk', (s) =>
      ok(
        {
          created: deliveriesOf(s)
            .slice(1)
            .map((element, i) => createdEntry(element, i + 1)),
        },
        201,
      ),
    );
    const error = await bulkFailure(makeClient().deliveries.createBulk(orders(3)));
    expect(error.failed).toHaveLength(1);
    expect(error.failed[0]).toMatchObject({ index: 0, mayExist: true });
    expect(error.failed[0]?.error).toBeInstanceOf(ResponseShapeError);
  });

  it('stops at an error every chunk would get (1073): later chunks are not sent', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', () => HttpResponse.json(errorBody(1073, 'A business location is needed'), { status: 400 }));
    const error = await bulkFailure(makeClient().deliveries.createBulk(orders(9), { chunkSize: 3, concurrency: 1 }));
    expect(sent).toHaveLength(1);
    expect(error.failed.map((f) => [f.index, f.mayExist])).toEqual([
      [0, false],
      [1, false],
      [2, false],
    ]);
    expect(error.stopped?.at).toBe(3);
    expect(error.stopped?.reason).toBeInstanceOf(BusinessLocationRequiredError);
    // The reason is said once, with the orders it concerns; the six never sent are counted.
    expect(error.message).toBe(
      'Bulk creation incomplete: 3 of 9 orders failed, 0 created, 6 not sent (stopped before index 3): [0-2] (3 orders): A business location is needed',
    );
  });

  it('keeps the long lists out of logs: JSON and util.inspect carry no result', async () => {
    capture(server, 'post', '/deliveries/bulk', (s) =>
      HttpResponse.json(errorBody(undefined, 'boom'), { status: 500, headers: { 'x-request': deliveriesOf(s)[0]?.businessReference ?? '' } }),
    );
    const error = await bulkFailure(makeClient().deliveries.createBulk(orders(500)));
    expect(error.failed).toHaveLength(500);
    expect(Object.keys(error)).not.toContain('result');
    expect(JSON.stringify(error).length).toBeLessThan(3000);
    // One reason for 500 orders is said once.
    expect(error.message).toMatch(
      /^Bulk creation incomplete: 500 of 500 orders failed \(500 may exist all the same\), 0 created: \[0-499\] \(500 orders\): [^;]+ may have been acted on \(mayExist\)[^;]+$/,
    );
    expect(error.message.length).toBeLessThan(300);
  });

  it('the result can be had either way: err.result is what a full success resolves to', async () => {
    capture(server, 'post', '/deliveries/bulk', (s) =>
      deliveriesOf(s)[0]?.businessReference === 'ref-0' ? createAll(s) : HttpResponse.json(errorBody(undefined, 'bad'), { status: 400 }),
    );
    const result = await makeClient()
      .deliveries.createBulk(orders(2), { chunkSize: 1 })
      .catch((err: unknown) => (err instanceof BulkCreationError ? err.result : Promise.reject(err)));
    expect(result.created.map((c) => c.index)).toEqual([0]);
    expect(result.failed.map((f) => [f.index, f.mayExist])).toEqual([[1, false]]);
  });
});

describe('createBulk: abort', () => {
  it('before anything is sent: RequestAbortedError, no request', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', createAll);
    const controller = new AbortController();
    controller.abort();
    await expect(makeClient().deliveries.createBulk(orders(3), { signal: controller.signal })).rejects.toBeInstanceOf(RequestAbortedError);
    expect(sent).toHaveLength(0);
  });

  it('between chunks: no further chunk is sent; what was created is reported with where it stopped', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', createAll);
    const controller = new AbortController();
    const error = await bulkFailure(
      makeClient().deliveries.createBulk(orders(10), {
        chunkSize: 2,
        concurrency: 1,
        signal: controller.signal,
        onProgress: (p) => p.done === 4 && controller.abort(),
      }),
    );
    expect(sent).toHaveLength(2);
    expect(error.created.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    expect(error.failed).toEqual([]);
    expect(error.stopped?.at).toBe(4);
    expect(error.stopped?.reason).toBeInstanceOf(RequestAbortedError);
    expect(error.source).toBe('client');
  });

  it('while a chunk is in flight: that chunk may exist, the rest is not sent', async () => {
    const controller = new AbortController();
    const sent = capture(server, 'post', '/deliveries/bulk', async (s) => {
      if (deliveriesOf(s)[0]?.businessReference === 'ref-2') {
        setTimeout(() => controller.abort(), 5);
        await delay(50);
      }
      return createAll(s);
    });
    const error = await bulkFailure(makeClient().deliveries.createBulk(orders(8), { chunkSize: 2, concurrency: 1, signal: controller.signal }));
    expect(sent).toHaveLength(2);
    expect(error.created.map((c) => c.index)).toEqual([0, 1]);
    expect(error.failed.map((f) => [f.index, f.mayExist])).toEqual([
      [2, true],
      [3, true],
    ]);
    expect(error.failed[0]?.error).toBeInstanceOf(RequestAbortedError);
    expect(error.stopped?.at).toBe(4);
  });
});
