import { afterEach, describe, expect, it } from 'vitest';
import { type BulkCreateResult, BulkCreationError, DeliveryClient, type OrderInput } from '../../src/index.js';
import type { Sandbox } from '../../src/testing/index.js';
import { dropOff, sandboxWithAccount } from '../support/sandbox.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** A client on the sandbox whose every request is remembered, so a test can wait for those a timeout left running. */
function clientOn(box: Sandbox) {
  const inflight: Array<Promise<unknown>> = [];
  const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const answer = box.fetch(input, init);
    inflight.push(answer.catch(() => undefined));
    return answer;
  };
  const client = new DeliveryClient({ baseUrl: box.baseUrl, apiKey: box.apiKey, fetch, timeout: 250, maxRetries: 2, retryDelay: { base: 1, max: 2 } });
  // Orders a timed-out request is still creating exist once these settle.
  const settle = async (): Promise<void> => {
    while (inflight.length > 0) await Promise.allSettled(inflight.splice(0));
  };
  return { client, settle };
}

const orderFor = (reference: string): OrderInput =>
  ({
    type: 10,
    dropOffAddress: dropOff,
    receiver: { firstName: 'Mona', phone: '01012345678' },
    cod: 100,
    businessReference: reference,
    uniqueBusinessReference: `U-${reference}`,
  }) as OrderInput;

const FAULTS = {
  rate: 0.3,
  kinds: ['unavailable', 'drop-before', 'drop-after', 'malformed', 'slow', 'rate-limit'] as const,
  slowMs: 600,
  retryAfterSeconds: 0,
};

function expectEveryHeldOrderKnown(box: Sandbox, known: ReadonlyMap<string, string>, references: readonly string[]): void {
  const held = box.orders();
  // None created twice, every one created
  expect(held.map((o) => o.businessReference).sort()).toEqual([...references].sort());
  // Every order the service holds is known to the caller, with its tracking number
  for (const order of held) expect(known.get(order.businessReference ?? '')).toBe(order.trackingNumber);
}

describe('recovering from unknown outcomes, against the sandbox under faults', () => {
  it('bulk: chunks fail and time out; resolveTrackingNumbers and resending what is surely not there end with every order known once', async () => {
    ({ sandbox } = await sandboxWithAccount());
    const { client, settle } = clientOn(sandbox);
    const references = Array.from({ length: 60 }, (_, i) => `night-${i}`);
    const known = new Map<string, string>();
    sandbox.injectFaults({ ...FAULTS, seed: 7 });

    let todo = references;
    let sawUnknown = false;
    for (let round = 0; round < 12 && todo.length > 0; round++) {
      const orders = todo.map(orderFor);
      const outcome: BulkCreateResult = await client.deliveries
        .createBulk(orders, { chunkSize: 10, concurrency: 2 })
        .catch((err: unknown) => (err instanceof BulkCreationError ? err.result : Promise.reject(err)));
      sawUnknown ||= outcome.failed.some((failure) => failure.mayExist);
      await settle();
      let settled = await client.deliveries.resolveTrackingNumbers(outcome, { orders });
      for (let attempt = 0; attempt < 12 && settled.unresolved.length > 0; attempt++)
        settled = await client.deliveries.resolveTrackingNumbers(settled, { orders });
      expect(settled.unresolved).toEqual([]);
      for (const { index, trackingNumber } of settled.created) known.set(references[references.indexOf(todo[index] ?? '')] ?? '', trackingNumber ?? '');
      // Only what is surely not there is sent again
      todo = settled.failed.filter((failure) => !failure.mayExist).map((failure) => todo[failure.index] ?? '');
    }
    sandbox.clearFaults();
    await settle();
    expect(sawUnknown).toBe(true);
    expect(todo).toEqual([]);
    expectEveryHeldOrderKnown(sandbox, known, references);
  });

  it('one at a time: creates whose answer is lost are retried safely with uniqueBusinessReference and resolve with the order; findByReference settles the rest', async () => {
    ({ sandbox } = await sandboxWithAccount());
    const { client, settle } = clientOn(sandbox);
    const references = Array.from({ length: 25 }, (_, i) => `shop-${i}`);
    const known = new Map<string, string>();
    sandbox.injectFaults({ ...FAULTS, seed: 11 });

    let failures = 0;
    for (const reference of references) {
      for (let attempt = 0; attempt < 12 && !known.has(reference); attempt++) {
        try {
          known.set(reference, (await client.deliveries.create(orderFor(reference))).trackingNumber);
        } catch {
          failures += 1;
          await settle();
          const found = await client.deliveries.findByReference(reference).catch(() => null);
          if (found) known.set(reference, found.trackingNumber);
        }
      }
    }
    sandbox.clearFaults();
    await settle();
    // A repeat refused as a repeat resolves with the order: what fails is what no retry could settle.
    expect(failures).toBeLessThan(references.length);
    expectEveryHeldOrderKnown(sandbox, known, references);
  });
});
