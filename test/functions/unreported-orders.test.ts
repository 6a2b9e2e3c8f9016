// No created order unreported, whatever the consumer of streamBulk does (issue 40, point 1):
// onSettled hears of each chunk as it settles, pulled or not (an iterator dropped mid-loop), and
// nothing new is sent without a pull; leaving the loop without onSettled while chunks it never
// yielded created orders throws a BulkCreationError carrying them, which a for-await `break` sees.
// Against the sandbox, and an independent node:http service whose answers the test releases by
// hand: nothing depends on timing.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type BulkChunkOutcome, BulkCreationError, DeliveryClient, type OrderInput } from '../../src/index.js';
import type { Sandbox } from '../../src/testing/index.js';
import { numberedOrder, sandboxWithAccount } from '../support/sandbox.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function* rows(count: number): Generator<OrderInput> {
  for (let i = 0; i < count; i++) yield numberedOrder(i);
}

/** Resolves when `count()` reaches `n`, checked each time `changed()` is called. */
function counter() {
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  let value = 0;
  return {
    get value() {
      return value;
    },
    add(by = 1) {
      value += by;
      for (const wait of waiting.filter((w) => value >= w.n)) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve();
      }
    },
    reach(n: number): Promise<void> {
      return value >= n ? Promise.resolve() : new Promise((resolve) => waiting.push({ n, resolve }));
    },
  };
}

const createdIn = (outcomes: readonly BulkChunkOutcome[]): string[] =>
  outcomes.flatMap((outcome) => outcome.created.map((created) => String(created.businessReference))).sort();
const referencesOf = (sandbox: Sandbox): string[] =>
  sandbox
    .orders()
    .map((stored) => String(stored.businessReference))
    .sort();

describe('streamBulk against the sandbox', () => {
  async function setUp() {
    const { sandbox, client } = await sandboxWithAccount();
    closers.push(() => sandbox.close());
    return { sandbox, client };
  }

  it('an iterator dropped after one chunk: onSettled hears of every chunk in flight, and nothing new is sent', async () => {
    const { sandbox, client } = await setUp();
    const settled: BulkChunkOutcome[] = [];
    const told = counter();
    const loop = client.deliveries.streamBulk(rows(600), {
      chunkSize: 100,
      concurrency: 4,
      onSettled: (chunk) => {
        settled.push(chunk);
        told.add();
      },
    });
    const first = await loop.next();
    expect(first.done).toBe(false);
    // The loop is dropped here: no pull, no return(). The three other chunks in flight settle on their own.
    await told.reach(4);
    expect(sandbox.orders()).toHaveLength(400);
    expect(createdIn(settled)).toEqual(referencesOf(sandbox));
    expect(settled.map((chunk) => chunk.start).sort((a, b) => a - b)).toEqual([0, 100, 200, 300]);
  });

  it('a for-await break without onSettled throws a BulkCreationError carrying the orders the loop never yielded', async () => {
    const { sandbox, client } = await setUp();
    const yielded: BulkChunkOutcome[] = [];
    let error: unknown;
    try {
      for await (const chunk of client.deliveries.streamBulk(rows(600), { chunkSize: 100, concurrency: 4 })) {
        yielded.push(chunk);
        break;
      }
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BulkCreationError);
    const left = error as BulkCreationError;
    expect(left.message).toMatch(/^streamBulk: the loop was left with 300 created and 0 unknown orders that no onSettled was told of/);
    expect(left.created).toHaveLength(300);
    expect(left.result.createdIds).toHaveLength(300);
    expect(left.stopped?.at).toBe(400);
    // What the loop took and what the error carries are every order the service holds, each once.
    const reported = [...createdIn(yielded), ...left.created.map((created) => String(created.businessReference))].sort();
    expect(reported).toEqual(referencesOf(sandbox));
    expect(sandbox.orders()).toHaveLength(400);
  });

  it('a break with onSettled is quiet: onSettled was told of every chunk sent', async () => {
    const { sandbox, client } = await setUp();
    const settled: BulkChunkOutcome[] = [];
    for await (const _ of client.deliveries.streamBulk(rows(600), { chunkSize: 100, concurrency: 4, onSettled: (chunk) => settled.push(chunk) })) break;
    expect(createdIn(settled)).toEqual(referencesOf(sandbox));
    expect(sandbox.orders()).toHaveLength(400);
  });

  it('a loop run to the end throws nothing more, with or without onSettled', async () => {
    const { sandbox, client } = await setUp();
    const yielded: BulkChunkOutcome[] = [];
    for await (const chunk of client.deliveries.streamBulk(rows(250), { chunkSize: 100 })) yielded.push(chunk);
    expect(createdIn(yielded)).toEqual(referencesOf(sandbox));
  });

  it('a break when the chunks in flight created nothing (all refused before sending) is quiet', async () => {
    const { sandbox, client } = await setUp();
    function* invalid(): Generator<OrderInput> {
      for (let i = 0; i < 4; i++) yield { ...numberedOrder(i), cod: -1 };
    }
    for await (const _ of client.deliveries.streamBulk(invalid(), { chunkSize: 1, concurrency: 4 })) break;
    expect(sandbox.orders()).toEqual([]);
  });
});

describe('a streamBulk failure names streamBulk', () => {
  it('in the error of a throwing onProgress, and of a wrong option', async () => {
    const { sandbox, client } = await sandboxWithAccount();
    closers.push(() => sandbox.close());
    const thrown = await (async () => {
      for await (const _ of client.deliveries.streamBulk(rows(3), {
        chunkSize: 1,
        onProgress: () => {
          throw new Error('meter broken');
        },
      }));
    })().catch((caught: unknown) => caught);
    expect((thrown as Error).message).toBe('streamBulk stopped: onProgress threw');
    const wrong = await (async () => {
      for await (const _ of client.deliveries.streamBulk(rows(1), { chunkSize: 0 }));
    })().catch((caught: unknown) => caught);
    expect((wrong as Error).message).toMatch(/^streamBulk `chunkSize`: expected a whole number/);
    const bulk = await client.deliveries.createBulk([numberedOrder(9)], { chunkSize: 0 }).catch((caught: unknown) => caught);
    expect((bulk as Error).message).toMatch(/^createBulk `chunkSize`/);
  });
});

/** A bulk endpoint that holds each request until the test answers it, creating every order it was sent. */
async function heldService() {
  const held: Array<{ references: string[]; res: ServerResponse }> = [];
  const arrived = counter();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { deliveries: Array<{ businessReference: string }> };
      held.push({ references: body.deliveries.map((delivery) => delivery.businessReference), res });
      arrived.add();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const { port } = server.address() as AddressInfo;
  const answer = (n: number): void => {
    const request = held[n];
    if (request === undefined) throw new Error(`request ${n} has not arrived`);
    const data = { createdDeliveriesIds: request.references.map((reference) => `id-${reference}`), failedDeliveries: [] };
    request.res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, message: 'Success', data }));
  };
  const client = new DeliveryClient({ baseUrl: `http://127.0.0.1:${port}/v2`, apiKey: 'k', maxRetries: 0 });
  return { client, held, arrived, answer };
}

describe('streamBulk against a node:http service answering by hand', () => {
  it('onSettled fires for each chunk in flight as the service answers it, without a pull; the next chunk waits for a pull', async () => {
    const { client, held, arrived, answer } = await heldService();
    const settled: number[] = [];
    const told = counter();
    const loop = client.deliveries.streamBulk(rows(10), {
      chunkSize: 2,
      concurrency: 3,
      onSettled: (chunk) => {
        settled.push(chunk.start);
        told.add();
      },
    });
    const first = loop.next();
    await arrived.reach(3);
    answer(1);
    await told.reach(1);
    expect(settled).toEqual([2]);
    expect((await first).value).toMatchObject({ start: 2 });
    // Nobody pulls now. The other two chunks in flight are answered: onSettled hears of both.
    answer(0);
    await told.reach(2);
    answer(2);
    await told.reach(3);
    expect(settled).toEqual([2, 0, 4]);
    expect(held).toHaveLength(3);
    // A pull yields an outcome already settled and only then sends the next chunk.
    expect((await loop.next()).value).toMatchObject({ start: 0 });
    await arrived.reach(4);
    expect(held[3]?.references).toEqual(['ROW-6', 'ROW-7']);
    expect(held).toHaveLength(4);
    answer(3);
    await told.reach(4);
    // Leaving now: onSettled was told of everything; return() is quiet and sends nothing more.
    await expect(loop.return(undefined)).resolves.toEqual({ done: true, value: undefined });
    expect(held).toHaveLength(4);
    expect(settled.sort((a, b) => a - b)).toEqual([0, 2, 4, 6]);
  });

  it('return() without onSettled waits for the chunks in flight and throws the orders they created', async () => {
    const { client, arrived, answer } = await heldService();
    const loop = client.deliveries.streamBulk(rows(10), { chunkSize: 2, concurrency: 3 });
    const first = loop.next();
    await arrived.reach(3);
    answer(0);
    expect((await first).value).toMatchObject({ start: 0 });
    const leaving = loop.return(undefined).catch((caught: unknown) => caught);
    answer(1);
    answer(2);
    const error = (await leaving) as BulkCreationError;
    expect(error).toBeInstanceOf(BulkCreationError);
    expect(error.source).toBe('client');
    expect(error.created.map((created) => created.index)).toEqual([2, 3, 4, 5]);
    expect([...error.result.createdIds].sort()).toEqual(['id-ROW-2', 'id-ROW-3', 'id-ROW-4', 'id-ROW-5']);
    expect(error.stopped?.at).toBe(6);
  });

  it('an onSettled that throws for a chunk the loop never yielded: the exit carries that chunk, the throw as cause', async () => {
    const { client, arrived, answer } = await heldService();
    const failure = new Error('store down');
    const loop = client.deliveries.streamBulk(rows(4), {
      chunkSize: 2,
      concurrency: 2,
      onSettled: (chunk) => {
        if (chunk.start === 2) throw failure;
      },
    });
    const first = loop.next();
    await arrived.reach(2);
    answer(0);
    await first;
    const leaving = loop.return(undefined).catch((caught: unknown) => caught);
    answer(1);
    const error = (await leaving) as BulkCreationError;
    expect(error).toBeInstanceOf(BulkCreationError);
    expect(error.created.map((created) => created.index)).toEqual([2, 3]);
    expect((error.cause as Error).message).toBe('streamBulk stopped: onSettled threw');
    expect((error.cause as Error).cause).toBe(failure);
  });
});
