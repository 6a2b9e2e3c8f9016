import { afterEach, describe, expect, it } from 'vitest';
import { type BulkCreateResult, BulkCreationError, DeliveryClient, type OrderInput } from '../../src/index.js';
import type { Sandbox } from '../../src/testing/index.js';
import { onFakeClock } from '../support/fake-clock.js';
import { dropOff, sandboxWithAccount } from '../support/sandbox.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/**
 * A client on the sandbox whose every request is remembered, so a test can wait for those a
 * timeout left running, and count them (`sent`: method and path of each, in order).
 */
function clientOn(box: Sandbox) {
  const inflight: Array<Promise<unknown>> = [];
  const sent: string[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    sent.push(`${request.method} ${new URL(request.url).pathname.replace(/\/v2\/deliveries\/business\/\d+$/, '/v2/deliveries/business/:trackingNumber')}`);
    const answer = box.fetch(request);
    inflight.push(answer.catch(() => undefined));
    return answer;
  };
  const client = new DeliveryClient({ baseUrl: box.baseUrl, apiKey: box.apiKey, fetch, timeout: 250, maxRetries: 2, retryDelay: { base: 1, max: 2 } });
  // Orders a timed-out request is still creating exist once these settle.
  const settle = async (): Promise<void> => {
    while (inflight.length > 0) await Promise.allSettled(inflight.splice(0));
  };
  return { client, settle, sent };
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
    const { client, settle, sent } = clientOn(sandbox);
    const references = Array.from({ length: 25 }, (_, i) => `shop-${i}`);
    const known = new Map<string, string>();
    sandbox.injectFaults({ ...FAULTS, seed: 11 });

    // One call at a time, on a fake clock: which request each seeded fault hits, and whether an
    // answer beats the 250 ms timeout (a slow one comes at 600 ms), are then the same on every run.
    const failures = await onFakeClock(async () => {
      let failed = 0;
      for (const reference of references) {
        for (let attempt = 0; attempt < 12 && !known.has(reference); attempt++) {
          try {
            known.set(reference, (await client.deliveries.create(orderFor(reference))).trackingNumber);
          } catch (e) {
            process.stdout.write(`FAIL ${reference} ${(e as Error).constructor.name} ${(e as Error).message.slice(0, 120)}\n`);
            failed += 1;
            await settle();
            const found = await client.deliveries.findByReference(reference).catch(() => null);
            if (found) known.set(reference, found.trackingNumber);
          }
        }
      }
      sandbox?.clearFaults();
      await settle();
      return failed;
    });
    // For this seed, on every run: 25 orders took 32 creates (7 sent again after a fault); twice
    // the answer of one that was made was lost (the SDK's repeat, refused as a repeat, read the
    // order back); no call failed: the SDK settled every fault itself, findByReference had nothing left.
    const count = (call: string): number => sent.filter((one) => one === call).length;
    expect({
      failures,
      creates: count('POST /v2/deliveries'),
      readBack: count('GET /v2/deliveries/business/:trackingNumber'),
      searches: count('POST /v2/deliveries/search'),
    }).toEqual({ failures: 0, creates: 32, readBack: 2, searches: 0 });
    expectEveryHeldOrderKnown(sandbox, known, references);
  });
});
