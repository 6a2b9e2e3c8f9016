// A caller's abort ends what the SDK does for it: nothing more is sent on its behalf, and no timer
// of the SDK is left to keep the process alive. On a fake clock, with the service answered in
// process (no socket): what is pending after an abort is what the SDK itself left.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CountryId, DeliveryType, RequestAbortedError } from '../../src/index.js';
import { clientOnFetch, dropOffAddress, ok, receiver } from '../support/fake-service.js';

afterEach(() => vi.useRealTimers());

/**
 * Real turns of the event loop until `done()` holds (the first call loads the SDK's code for it):
 * the fake clock does not move meanwhile. A bound of real time only ends a wait that would never end.
 */
async function until(done: () => boolean): Promise<void> {
  const giveUp = Date.now() + 30_000;
  while (!done() && Date.now() < giveUp) await new Promise((resolve) => setImmediate(resolve));
  expect(done()).toBe(true);
}

/** A 503 that asks for another try in `seconds`. */
const busy = (seconds: number): Response => Response.json({ success: false, message: 'busy' }, { status: 503, headers: { 'retry-after': String(seconds) } });

/** An answer that never comes: the request ends only when its signal aborts, as fetch's does. */
const never = (request: Request): Promise<Response> =>
  new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true }));

describe('a cached lookup', () => {
  it('aborted by its only caller sends nothing more and leaves no timer, though its retry was waiting', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let retries = 0;
    const { client, sent } = clientOnFetch(() => busy(5), { maxRetries: 2, hooks: { onRetry: () => void retries++ } });
    const controller = new AbortController();
    const cities = client.lookup.cities({ countryId: CountryId.Egypt }, { signal: controller.signal }).catch((error: unknown) => error);
    await until(() => retries === 1); // the 503 came; the retry waits 5 s
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    expect(await cities).toBeInstanceOf(RequestAbortedError);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(1);
  });

  it('goes on for a caller still waiting when another aborts, and is kept for the next', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let retries = 0;
    const { client, sent } = clientOnFetch((_request, index) => (index === 0 ? busy(5) : ok([{ _id: 'city-1', name: 'Cairo' }])), {
      maxRetries: 2,
      hooks: { onRetry: () => void retries++ },
    });
    const controller = new AbortController();
    const query = { countryId: CountryId.Egypt };
    const leaving = client.lookup.cities(query, { signal: controller.signal }).catch((error: unknown) => error);
    const staying = client.lookup.cities(query);
    await until(() => retries === 1);
    controller.abort();
    expect(await leaving).toBeInstanceOf(RequestAbortedError);
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await staying).map((city) => city.name)).toEqual(['Cairo']);
    expect((await client.lookup.cities(query)).map((city) => city.name)).toEqual(['Cairo']);
    expect(sent).toHaveLength(2);
  });

  it('is loaded again after every caller aborted it: the aborted load is not kept', async () => {
    const { client, sent } = clientOnFetch((_request, index) => (index === 0 ? never(_request) : ok([{ _id: 'city-1', name: 'Giza' }])));
    const controller = new AbortController();
    const first = client.lookup.cities({ countryId: CountryId.Egypt }, { signal: controller.signal }).catch((error: unknown) => error);
    await until(() => sent.length === 1);
    controller.abort();
    expect(await first).toBeInstanceOf(RequestAbortedError);
    expect((await client.lookup.cities({ countryId: CountryId.Egypt })).map((city) => city.name)).toEqual(['Giza']);
  });
});

describe("after its caller's abort, no timer of the SDK is left", () => {
  it('of a create waiting out a Retry-After, a read waiting for its answer, a wait between polls, a bulk upload and a cached lookup', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const record = { _id: 'o1', trackingNumber: '70000001', state: { code: 10, value: 'Pickup requested' }, type: { code: 10, value: 'SEND' } };
    let retries = 0;
    const { client, sent } = clientOnFetch(
      (request) => {
        const { pathname } = new URL(request.url);
        if (pathname.endsWith('/deliveries')) return Response.json({ success: false }, { status: 429, headers: { 'retry-after': '30' } });
        if (pathname.endsWith('/deliveries/business/70000001')) return ok(record);
        if (pathname.endsWith('/cities')) return busy(5);
        return never(request); // the bulk upload and the pickup read: no answer
      },
      { maxRetries: 2, timeout: 30_000, totalTimeout: Number.POSITIVE_INFINITY, hooks: { onRetry: () => void retries++ } },
    );
    const controller = new AbortController();
    const signal = controller.signal;
    const order = { type: DeliveryType.Deliver, dropOffAddress, receiver, cod: 100, businessReference: 'abort-1' } as const;
    const calls = [
      client.deliveries.create(order, { signal }),
      client.pickups.get('pickup-1', { signal }),
      client.deliveries.waitForState('70000001', { signal, pollInterval: 60_000 }),
      client.deliveries.createBulk([{ ...order, businessReference: 'abort-2' }], { signal }),
      client.lookup.cities({ countryId: CountryId.Egypt }, { signal }),
    ].map((call) =>
      call.then(
        () => 'resolved',
        (error: unknown) => (error instanceof Error ? error.name : String(error)),
      ),
    );
    // Each waits on a timer of its own: the create's and the lookup's retries, the two reads' and the upload's clocks or waits.
    await until(() => sent.length === 5 && retries === 2 && vi.getTimerCount() === 5);
    controller.abort();
    const outcomes = await Promise.all(calls);
    expect(outcomes.slice(0, 3)).toEqual(['RequestAbortedError', 'RequestAbortedError', 'RequestAbortedError']);
    expect(outcomes[3]).toBe('BulkCreationError'); // its one order: failed, aborted in flight (mayExist)
    expect(outcomes[4]).toBe('RequestAbortedError');
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(sent).toHaveLength(5);
  });
});
