import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  type BulkChunkOutcome,
  BulkCreationError,
  ConfigurationError,
  type DeliveryClient,
  DeliveryType,
  type OrderInput,
  ValidationError,
} from '../../src/index.js';
import { bulkFailure, capture, dropOffAddress, errorBody, HttpResponse, makeClient, ok, type Sent, useFakeService } from '../support/fake-service.js';
import { numberedOrder, sandboxWithAccount } from '../support/sandbox.js';

const server = useFakeService();

const order = (i: number): OrderInput => ({ type: DeliveryType.Deliver, dropOffAddress, cod: 100, businessReference: `ref-${i}` });
const orders = (count: number): OrderInput[] => Array.from({ length: count }, (_, i) => order(i));
type Wire = { businessReference: string };
const deliveriesOf = (sent: Sent): Wire[] => (sent.json as { deliveries: Wire[] }).deliveries;
const createAll = (sent: Sent) =>
  ok(
    {
      created: deliveriesOf(sent).map((element, index) => ({
        index,
        _id: `id-${element.businessReference}`,
        trackingNumber: `tn-${element.businessReference}`,
        businessReference: element.businessReference,
      })),
    },
    201,
  );
const referencesSent = (sent: Sent[]) => sent.flatMap(deliveriesOf).map((element) => element.businessReference);

async function* rows(count: number, broken: ReadonlySet<number> = new Set()): AsyncGenerator<OrderInput> {
  for (let i = 0; i < count; i++) yield broken.has(i) ? { ...order(i), cod: 45_000 } : order(i);
}

async function outcomesOf(stream: AsyncIterable<BulkChunkOutcome>): Promise<BulkChunkOutcome[]> {
  const all: BulkChunkOutcome[] = [];
  for await (const outcome of stream) all.push(outcome);
  return all.sort((a, b) => a.start - b.start);
}

describe('createBulk: what is not a list of orders, refused at once with a typed error', () => {
  it('a string, even a long one, is not a list of orders', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', createAll);
    // The message shows at most 40 characters of the string.
    const given: Array<[unknown, string]> = [
      ['x'.repeat(1_000_000), `'${'x'.repeat(40)}...'`],
      ['', "''"],
      [new String('abc'), 'an object'],
    ];
    for (const [input, shown] of given) {
      const error = await makeClient()
        .deliveries.createBulk(input as never)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues).toEqual([{ path: ['orders'], message: `expected an array or an iterable of orders, received ${shown}` }]);
    }
    expect(sent).toEqual([]);
  });

  it('an element with a then() method is refused at its index, never awaited, nothing sent', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', createAll);
    let awaited = false;
    const thenable = {
      ...order(1),
      // biome-ignore lint/suspicious/noThenProperty: the test is of an order that is a thenable
      then(resolve: (value: unknown) => void) {
        awaited = true;
        resolve(order(99)); // what a thenable could swap in
      },
    };
    const error = await makeClient()
      .deliveries.createBulk([order(0), thenable as never])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([{ path: [1], message: 'is a promise or thenable, not an order: await it before passing it' }]);
    expect(awaited).toBe(false);
    expect(sent).toEqual([]);
  });

  it('a thenable in a generator, validation off: refused on its own, never awaited, the others sent', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', createAll);
    let awaited = false;
    function* generate(): Generator<OrderInput> {
      yield order(0);
      // biome-ignore lint/suspicious/noThenProperty: the test is of an order that is a thenable
      yield { ...order(1), then: () => (awaited = true) } as never;
      yield order(2);
    }
    const error = await bulkFailure(makeClient().deliveries.createBulk(generate(), { validate: false }));
    expect(error.failed.map((f) => [f.index, f.mayExist, f.error instanceof ValidationError])).toEqual([[1, false, true]]);
    expect(referencesSent(sent)).toEqual(['ref-0', 'ref-2']);
    expect(awaited).toBe(false);
  });

  it('options without a prototype are read like any other; a wrong value in them is a ConfigurationError naming it', async () => {
    capture(server, 'post', '/deliveries/bulk', createAll);
    const bare = (fields: object): object => Object.assign(Object.create(null) as object, fields);
    await expect(makeClient().deliveries.createBulk(orders(3), bare({ chunkSize: 2 }) as never)).resolves.toMatchObject({ failed: [] });
    for (const [name, options] of [
      ['chunkSize', { chunkSize: bare({}) }],
      ['concurrency', { concurrency: bare({}) }],
      ['deleteFailedDeliveries', { deleteFailedDeliveries: bare({}) }],
      ['onProgress', { onProgress: bare({}) }],
      ['validate', { validate: { skip: [bare({})] } }],
    ] as const) {
      const error = await makeClient()
        .deliveries.createBulk(orders(1), bare(options) as never)
        .catch((caught: unknown) => caught);
      expect(error, name).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message, name).toContain(name);
    }
  });
});

describe('createBulk: two orders of one call with the same reference', () => {
  it.each(['businessReference', 'uniqueBusinessReference'] as const)('refuses a repeated %s before sending, naming both indexes', async (field) => {
    const sent = capture(server, 'post', '/deliveries/bulk', createAll);
    const input = orders(4).map((element, i) => ({ ...element, [field]: i === 3 ? 'same' : i === 1 ? 'same' : `${field}-${i}` }));
    const error = await makeClient()
      .deliveries.createBulk(input)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      { path: [3, field], message: `the same as [1].${field} ('same'): each order of one call needs its own` },
    ]);
    expect((error as Error).message).toMatch(/nothing was sent/);
    expect(sent).toEqual([]);
  });

  it('a repeat within one chunk of a streamed input fails on its own, the first one is sent', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', createAll);
    async function* repeated(): AsyncGenerator<OrderInput> {
      yield order(0);
      yield order(1);
      yield order(0);
    }
    const outcomes = await outcomesOf(makeClient().deliveries.streamBulk(repeated(), { chunkSize: 3 }));
    expect(outcomes.flatMap((o) => o.failed.map((f) => [f.index, f.mayExist, (f.error as ValidationError).issues[0]?.path]))).toEqual([
      [2, false, [2, 'businessReference']],
    ]);
    expect(referencesSent(sent)).toEqual(['ref-0', 'ref-1']);
  });
});

describe('a uniqueBusinessReference repeated in another chunk of the same call', () => {
  // Against the sandbox, which refuses a taken uniqueBusinessReference as the service does: unless
  // the SDK refuses the repeat itself, the second order comes back `existed`, as the first one.
  const withUnique = (i: number, unique: string): OrderInput => ({ ...numberedOrder(i), uniqueBusinessReference: unique });
  const input = (): OrderInput[] => [withUnique(0, 'SHOP-1'), withUnique(1, 'SHOP-2'), withUnique(2, 'SHOP-3'), withUnique(3, 'SHOP-1')];
  async function* generated(): AsyncGenerator<OrderInput> {
    yield* input();
  }

  it.each([
    ['streamBulk of a generator', (client: DeliveryClient) => outcomesOf(client.deliveries.streamBulk(generated(), { chunkSize: 2 }))],
    ['streamBulk of an array', (client: DeliveryClient) => outcomesOf(client.deliveries.streamBulk(input(), { chunkSize: 2 }))],
    [
      'createBulk of a generator',
      async (client: DeliveryClient) => {
        const error = await client.deliveries.createBulk(generated(), { chunkSize: 2 }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(BulkCreationError);
        const { created, failed } = (error as BulkCreationError).result;
        return [{ created, failed } as BulkChunkOutcome];
      },
    ],
  ])('%s: refused before sending, never reported as the first order', async (_, upload) => {
    const { sandbox, client } = await sandboxWithAccount();
    try {
      const outcomes = await upload(client);
      const failed = outcomes.flatMap((outcome) => outcome.failed);
      expect(failed.map((failure) => [failure.index, failure.mayExist, (failure.error as ValidationError).issues])).toEqual([
        [
          3,
          false,
          [{ path: [3, 'uniqueBusinessReference'], message: "the same as [0].uniqueBusinessReference ('SHOP-1'): each order of one call needs its own" }],
        ],
      ]);
      const created = outcomes.flatMap((outcome) => outcome.created);
      expect(created.map((entry) => entry.index).sort()).toEqual([0, 1, 2]);
      expect(created.some((entry) => entry.alreadyExisted === true)).toBe(false);
      expect(sandbox.orders().map((order) => order.businessReference)).toEqual(['ROW-0', 'ROW-1', 'ROW-2']);
    } finally {
      await sandbox.close();
    }
  });

  it('an order refused for a repeated businessReference leaves its uniqueBusinessReference free for a later one', async () => {
    const { sandbox, client } = await sandboxWithAccount();
    try {
      async function* rows(): AsyncGenerator<OrderInput> {
        yield withUnique(0, 'SHOP-1');
        yield { ...withUnique(0, 'SHOP-2') }; // ROW-0 again, in the same chunk: refused
        yield withUnique(2, 'SHOP-2'); // another chunk: SHOP-2 was never sent
      }
      const outcomes = await outcomesOf(client.deliveries.streamBulk(rows(), { chunkSize: 2 }));
      expect(outcomes.flatMap((outcome) => outcome.failed.map((failure) => failure.index))).toEqual([1]);
      expect(sandbox.orders().map((order) => order.request['uniqueBusinessReference'])).toEqual(['SHOP-1', 'SHOP-2']);
    } finally {
      await sandbox.close();
    }
  });
});

describe('createBulk: each order checked once', () => {
  it('reads a valid order once: the JSON checked is the JSON sent', async () => {
    capture(server, 'post', '/deliveries/bulk', createAll);
    let reads = 0;
    const counted = Object.defineProperty({ ...order(0) }, 'dropOffAddress', {
      enumerable: true,
      get() {
        reads++;
        return dropOffAddress;
      },
    });
    await makeClient().deliveries.createBulk([counted, order(1)]);
    expect(reads).toBe(1);
  });
});

describe('streamBulk: an outcome per chunk, the input read as chunks go out', () => {
  it('checks each chunk as it fills: an invalid order fails on its own, the others are created', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', createAll);
    const outcomes = await outcomesOf(makeClient().deliveries.streamBulk(rows(10, new Set([3])), { chunkSize: 4 }));
    expect(outcomes.map((o) => [o.start, o.size, o.created.length, o.failed.map((f) => [f.index, f.mayExist, f.error.errorCode])])).toEqual([
      [0, 4, 3, [[3, false, 3007]]],
      [4, 4, 4, []],
      [8, 2, 2, []],
    ]);
    expect(referencesSent(sent)).toHaveLength(9);
    expect(outcomes.map((o) => o.progress.done).sort((a, b) => a - b)).toEqual([4, 8, 10]);
    expect(outcomes.find((o) => o.progress.done === 10)?.progress).toEqual({ done: 10, created: 9, failed: 1, total: undefined });
  });

  it('createBulk over an iterable does the same, and reports the invalid order in its BulkCreationError', async () => {
    capture(server, 'post', '/deliveries/bulk', createAll);
    const error = await bulkFailure(makeClient().deliveries.createBulk(rows(6, new Set([4])), { chunkSize: 2 }));
    expect(error.created.map((c) => c.index)).toEqual([0, 1, 2, 3, 5]);
    expect(error.failed.map((f) => [f.index, f.mayExist, f.error.errorCode])).toEqual([[4, false, 3007]]);
  });

  it('reads the input only as chunks are sent, with validation on', async () => {
    let pulled = 0;
    let answered = 0;
    const overReads: number[] = [];
    async function* generate(): AsyncGenerator<OrderInput> {
      for (let i = 0; i < 100; i++) {
        pulled++;
        yield order(i);
      }
    }
    capture(server, 'post', '/deliveries/bulk', (s) => {
      if (pulled > (answered + 2) * 10) overReads.push(pulled);
      answered++;
      return createAll(s);
    });
    let chunks = 0;
    for await (const outcome of makeClient().deliveries.streamBulk(generate(), { chunkSize: 10, concurrency: 2 })) chunks += outcome.created.length > 0 ? 1 : 0;
    expect(chunks).toBe(10);
    expect(overReads).toEqual([]);
  });

  it('a 401 stops the upload: the loop throws it after the outcome of the chunk that got it', async () => {
    capture(server, 'post', '/deliveries/bulk', () => HttpResponse.json(errorBody(undefined, 'Unauthorized'), { status: 401 }));
    const seen: BulkChunkOutcome[] = [];
    const error = await (async () => {
      for await (const outcome of makeClient().deliveries.streamBulk(rows(10), { chunkSize: 2, concurrency: 1 })) seen.push(outcome);
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(seen.map((o) => [o.start, o.failed.length])).toEqual([[0, 2]]);
  });

  it('closes an input it did not read to the end (its return()), and only such an input', async () => {
    capture(server, 'post', '/deliveries/bulk', createAll);
    const closed: string[] = [];
    const input = (name: string): Iterable<OrderInput> => ({
      [Symbol.iterator]() {
        let i = 0;
        return {
          next: () => (i < 10 ? { done: false, value: order(i++) } : { done: true, value: undefined }),
          return: () => {
            closed.push(name);
            return { done: true, value: undefined };
          },
        };
      },
    });
    const left = makeClient().deliveries.streamBulk(input('left early'), { chunkSize: 2, concurrency: 1 });
    await left.next();
    await left.return(undefined); // `break`
    await outcomesOf(makeClient().deliveries.streamBulk(input('read to the end'), { chunkSize: 2 }));
    expect(closed).toEqual(['left early']);
  });

  it('an upload stopped by a 401 closes the input: a generator reading rows runs its finally', async () => {
    capture(server, 'post', '/deliveries/bulk', () => HttpResponse.json(errorBody(undefined, 'Unauthorized'), { status: 401 }));
    let released = false;
    async function* cursor(): AsyncGenerator<OrderInput> {
      try {
        for (let i = 0; i < 10; i++) yield order(i);
      } finally {
        released = true;
      }
    }
    await expect(outcomesOf(makeClient().deliveries.streamBulk(cursor(), { chunkSize: 2, concurrency: 1 }))).rejects.toBeInstanceOf(AuthenticationError);
    expect(released).toBe(true);
  });

  it('sends nothing until the iteration starts, and a string is refused on the first read', async () => {
    const sent = capture(server, 'post', '/deliveries/bulk', createAll);
    const stream = makeClient().deliveries.streamBulk(orders(3));
    expect(sent).toEqual([]);
    await expect(outcomesOf(stream)).resolves.toHaveLength(1);
    await expect(outcomesOf(makeClient().deliveries.streamBulk('abc' as never))).rejects.toBeInstanceOf(ValidationError);
  });
});
