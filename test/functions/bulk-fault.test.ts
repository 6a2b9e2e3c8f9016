// A fault of the SDK's own while it reads a chunk's answer (a bug: nothing the service or the caller
// can cause) must not leave an order untold: the chunk was sent, so its orders may exist. Here the
// reading of the second chunk's answer throws a TypeError once the sandbox has created its orders.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as request from '../../src/functions/deliveries/bulk/request.js';
import { type BulkChunkOutcome, BulkCreationError, type OrderInput } from '../../src/index.js';
import type { Sandbox } from '../../src/testing/index.js';
import { numberedOrder, sandboxWithAccount } from '../support/sandbox.js';

/** The chunks posted in the current test: the second one's reading fails. */
const posts = vi.hoisted(() => ({ count: 0 }));

vi.mock('../../src/functions/deliveries/bulk/request.js', async (original) => {
  const actual = await original<typeof request>();
  return {
    ...actual,
    postChunk: async (...args: Parameters<typeof actual.postChunk>) => {
      const posted = await actual.postChunk(...args);
      if (++posts.count === 2) throw new TypeError("Cannot read properties of undefined (reading 'index')");
      return posted;
    },
  };
});

let sandbox: Sandbox | undefined;
afterEach(async () => {
  posts.count = 0;
  await sandbox?.close();
});

const orders = (count: number): OrderInput[] => Array.from({ length: count }, (_, i) => numberedOrder(i));

/** Every order the sandbox holds is in `created`, or in `failed` with `mayExist`: none untold. */
function expectNoneUntold(held: Sandbox, created: ReadonlyArray<{ index: number }>, failed: ReadonlyArray<{ index: number; mayExist: boolean }>) {
  const told = new Set([...created.map((entry) => entry.index), ...failed.filter((entry) => entry.mayExist).map((entry) => entry.index)]);
  for (const order of held.orders()) expect(told.has(Number(String(order.businessReference).replace(/\D/g, '')))).toBe(true);
}

describe('a fault of the SDK while it reads a chunk’s answer', () => {
  it('createBulk: the chunks before it are reported created, its own orders may exist, and the upload stops', async () => {
    const setUp = await sandboxWithAccount();
    sandbox = setUp.sandbox;
    const error = await setUp.client.deliveries.createBulk(orders(6), { chunkSize: 2, concurrency: 1 }).catch((thrown: unknown) => thrown);

    expect(error).toBeInstanceOf(BulkCreationError);
    const { created, failed, stopped } = (error as BulkCreationError).result;
    expect(created.map((entry) => entry.index)).toEqual([0, 1]);
    expect(failed.map((entry) => [entry.index, entry.mayExist])).toEqual([
      [2, true],
      [3, true],
    ]);
    expect(failed[0]?.error.cause).toBeInstanceOf(TypeError);
    expect(stopped?.at).toBe(4);
    expect(sandbox.orders()).toHaveLength(4);
    expectNoneUntold(sandbox, created, failed);
  });

  it('streamBulk: the chunk is yielded with its orders that may exist, then the loop throws the fault', async () => {
    const setUp = await sandboxWithAccount();
    sandbox = setUp.sandbox;
    const outcomes: BulkChunkOutcome[] = [];
    const thrown = await (async () => {
      for await (const outcome of setUp.client.deliveries.streamBulk(orders(6).values(), { chunkSize: 2, concurrency: 1 })) outcomes.push(outcome);
    })().catch((error: unknown) => error);

    expect(thrown).toBeInstanceOf(Error);
    expect(outcomes.map((outcome) => [outcome.start, outcome.created.length, outcome.failed.map((failure) => failure.mayExist)])).toEqual([
      [0, 2, []],
      [2, 0, [true, true]],
    ]);
    expectNoneUntold(
      sandbox,
      outcomes.flatMap((outcome) => outcome.created),
      outcomes.flatMap((outcome) => outcome.failed),
    );
  });
});
