import { describe, expect, it, vi } from 'vitest';
import { ConnectionError, RateLimitError, RequestAbortedError, ServerError, TimeoutError } from '../../src/index.js';
import { onFakeClock } from '../support/fake-clock.js';
import { BASE, clientOnFetch, HttpResponse, http, makeClient, useFakeService } from '../support/fake-service.js';

const server = useFakeService();

function countCalls(method: 'get' | 'post' | 'put', respond: (call: number) => Response | Promise<Response>) {
  const calls = { count: 0 };
  server.use(http[method](`${BASE}/r`, () => respond(++calls.count)));
  return calls;
}

describe('retries', () => {
  it.each([408, 429, 500, 502, 503, 504])('retries a GET answered %i, up to maxRetries', async (status) => {
    const calls = countCalls('get', () => HttpResponse.json({}, { status }));
    await expect(makeClient({ maxRetries: 2 }).request({ method: 'GET', path: '/r' })).rejects.toMatchObject({ status });
    expect(calls.count).toBe(3);
  });

  it('retries a PUT and succeeds when a later attempt does', async () => {
    const calls = countCalls('put', (n) => (n < 3 ? HttpResponse.json({}, { status: 503 }) : HttpResponse.json({ success: true, data: 'ok' })));
    await expect(makeClient().request({ method: 'PUT', path: '/r', body: {} })).resolves.toBe('ok');
    expect(calls.count).toBe(3);
  });

  it('does not retry a GET answered 400, 404 or 501', async () => {
    for (const status of [400, 404, 501]) {
      const calls = countCalls('get', () => HttpResponse.json({}, { status }));
      await expect(makeClient().request({ method: 'GET', path: '/r' })).rejects.toMatchObject({ status });
      expect(calls.count).toBe(1);
    }
  });

  it('never repeats a POST whose outcome is unknown (503)', async () => {
    const calls = countCalls('post', () => HttpResponse.json({}, { status: 503 }));
    await expect(makeClient({ maxRetries: 5 }).request({ method: 'POST', path: '/r', body: {} })).rejects.toBeInstanceOf(ServerError);
    expect(calls.count).toBe(1);
  });

  it('never repeats a POST whose connection broke after sending', async () => {
    const calls = countCalls('post', () => HttpResponse.error());
    await expect(makeClient({ maxRetries: 5 }).request({ method: 'POST', path: '/r', body: {} })).rejects.toBeInstanceOf(ConnectionError);
    expect(calls.count).toBe(1);
  });

  it('repeats a POST answered 429, where the service said it did nothing', async () => {
    const calls = countCalls('post', (n) =>
      n === 1 ? HttpResponse.json({}, { status: 429, headers: { 'retry-after': '0' } }) : HttpResponse.json({ success: true, data: 1 }),
    );
    await expect(makeClient().request({ method: 'POST', path: '/r', body: {} })).resolves.toBe(1);
    expect(calls.count).toBe(2);
  });

  it('retries a GET after a network failure', async () => {
    const calls = countCalls('get', (n) => (n === 1 ? HttpResponse.error() : HttpResponse.json({ success: true, data: 'up' })));
    await expect(makeClient().request({ method: 'GET', path: '/r' })).resolves.toBe('up');
    expect(calls.count).toBe(2);
  });

  describe('on a fake clock: the waits are asserted, not slept', () => {
    /** A client whose service answers 429 with `retryAfter` seconds once, then 200; `requests` counts what arrived. */
    function rateLimited(retryAfter: string, options: Parameters<typeof makeClient>[0] = {}) {
      const requests = { count: 0 };
      const fetch = (async () =>
        ++requests.count === 1
          ? Response.json({}, { status: 429, headers: { 'retry-after': retryAfter } })
          : Response.json({ success: true, data: 2 })) as typeof globalThis.fetch;
      return { requests, client: makeClient({ fetch, ...options }) };
    }
    /** Moves the fake clock on by `ms`, in steps a timer can hold, running what falls due. */
    async function advance(ms: number): Promise<void> {
      for (let left = ms; left > 0; left -= 2 ** 30) await vi.advanceTimersByTimeAsync(Math.min(left, 2 ** 30));
    }

    it('waits as long as Retry-After asks before the next attempt, and not a millisecond less', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const seen: number[] = [];
        const { requests, client } = rateLimited('1', { hooks: { onRetry: (event) => seen.push(event.delayMs) } });
        const result = client.request({ method: 'GET', path: '/r' });
        await advance(999);
        expect(requests.count).toBe(1);
        await advance(1);
        await expect(result).resolves.toBe(2);
        expect(requests.count).toBe(2);
        expect(seen).toEqual([1000]);
      } finally {
        vi.useRealTimers();
      }
    });

    it('waits a Retry-After of 60 s in full, however long totalTimeout is', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const { requests, client } = rateLimited('60', { totalTimeout: Number.POSITIVE_INFINITY });
        const result = client.request({ method: 'GET', path: '/r' });
        await advance(59_999);
        expect(requests.count).toBe(1);
        await advance(1);
        await expect(result).resolves.toBe(2);
        expect(requests.count).toBe(2);
      } finally {
        vi.useRealTimers();
      }
    });

    it('ends the call at once on a longer Retry-After (25 days), with totalTimeout Infinity: no timer is left to keep the process alive', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const twentyFiveDays = 25 * 24 * 3600;
        const { requests, client } = rateLimited(String(twentyFiveDays), { totalTimeout: Number.POSITIVE_INFINITY });
        const error = await client.request({ method: 'GET', path: '/r' }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(RateLimitError);
        expect((error as RateLimitError).retryAfter).toBe(twentyFiveDays * 1000);
        expect(vi.getTimerCount()).toBe(0);
        expect(requests.count).toBe(1);
      } finally {
        vi.useRealTimers();
      }
    });
  });

  it('gives up at once, with the RateLimitError carrying retryAfter, when Retry-After would outlast totalTimeout', async () => {
    const calls = countCalls('get', () => HttpResponse.json({}, { status: 429, headers: { 'retry-after': '60' } }));
    const err = await makeClient({ totalTimeout: 2_000 })
      .request({ method: 'GET', path: '/r' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfter).toBe(60_000);
    expect(calls.count).toBe(1);
  });

  it('honours maxRetries per call', async () => {
    const calls = countCalls('get', () => HttpResponse.json({}, { status: 503 }));
    await expect(makeClient({ maxRetries: 4 }).request({ method: 'GET', path: '/r' }, { maxRetries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(calls.count).toBe(1);
  });
});

describe('timeouts and aborts', () => {
  const slow = () => new Promise<Response>((resolve) => setTimeout(() => resolve(HttpResponse.json({ success: true, data: 'late' })), 300));

  it('raises TimeoutError when one attempt takes longer than timeout, and retries an idempotent call', async () => {
    const calls = countCalls('get', slow);
    const err = await makeClient({ timeout: 50, maxRetries: 1 })
      .request({ method: 'GET', path: '/r' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(calls.count).toBe(2);
  });

  it('takes Infinity as no time limit, not as a timer that fires at once', async () => {
    const calls = countCalls('get', slow);
    const data = await makeClient({ timeout: Infinity, totalTimeout: Infinity, maxRetries: 0 }).request({ method: 'GET', path: '/r' });
    expect(data).toBe('late');
    expect(calls.count).toBe(1);
  });

  it('does not repeat a POST that timed out, and says the service may have acted', async () => {
    const calls = countCalls('post', slow);
    const err = await makeClient({ timeout: 50 })
      .request({ method: 'POST', path: '/r', body: {} })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ mayExist: true });
    expect((err as Error).message).toContain('may have been acted on (mayExist)');
    expect(calls.count).toBe(1);
  });

  it('bounds all attempts together with totalTimeout', async () => {
    // On a fake clock: the answers (300 ms), the attempts' limit (250 ms) and the bound (400 ms) come in this order on any machine.
    const { err, calls } = await onFakeClock(async () => {
      const counted = countCalls('get', slow);
      const error = await makeClient({ timeout: 250, maxRetries: 10 })
        .request({ method: 'GET', path: '/r' }, { totalTimeout: 400 })
        .catch((e: unknown) => e);
      return { err: error, calls: counted };
    });
    expect(err).toBeInstanceOf(TimeoutError);
    // The first attempt is cut at 250 ms, the second (after a wait of a few ms) by the bound at 400 ms; without it all 11 would be made.
    expect(calls.count).toBe(2);
  });

  it('raises RequestAbortedError, a DeliveryError, when the caller aborts', async () => {
    countCalls('get', slow);
    const controller = new AbortController();
    const pending = makeClient().request({ method: 'GET', path: '/r' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
  });

  it('does not send at all when the signal is already aborted', async () => {
    const calls = countCalls('get', slow);
    await expect(makeClient().request({ method: 'GET', path: '/r' }, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(RequestAbortedError);
    expect(calls.count).toBe(0);
  });

  it('stops waiting between retries when the caller aborts', async () => {
    countCalls('get', () => HttpResponse.json({}, { status: 429, headers: { 'retry-after': '30' } }));
    const controller = new AbortController();
    const pending = makeClient().request({ method: 'GET', path: '/r' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
  });

  it('sends no further attempt when the caller aborts from onRetry', async () => {
    const calls = countCalls('get', () => HttpResponse.json({}, { status: 503 }));
    const controller = new AbortController();
    const client = makeClient({ maxRetries: 3, hooks: { onRetry: () => controller.abort() } });
    await expect(client.request({ method: 'GET', path: '/r' }, { signal: controller.signal })).rejects.toBeInstanceOf(RequestAbortedError);
    expect(calls.count).toBe(1);
  });

  it('leaves no timer behind once a call has ended', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // Answered in process: a socket's own keep-alive timer is the platform's, not the SDK's.
      const { client } = clientOnFetch(() => HttpResponse.json({ success: true, data: 1 }), { maxRetries: 2, retryDelay: { base: 1, max: 5 } });
      await client.request({ method: 'GET', path: '/r' });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
