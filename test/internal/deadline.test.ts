// One deadline for the whole call (issue 40, point 2): `totalTimeout` counts from the start of a
// call made of several requests, and no request starts once it has passed. One rule when the time
// is up (issue 49): a request with less than 5 ms of its call's totalTimeout left is not sent, and
// the call fails with the same TimeoutError whichever way it was made. The clock is a fake one,
// moved by the service as it answers: each answer "takes" the time the test says, so nothing
// depends on how fast the machine is.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type AirwayBillFilesPartial,
  type CustomerHistory,
  DeliveryClient,
  DeliveryType,
  DuplicateOrderError,
  type OrderInput,
  PartialResultError,
  TimeoutError,
} from '../../src/index.js';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { clientOnFetch, envelope, startFakeService } from '../support/fake-service.js';
import { dropOff, setUpAccount } from '../support/sandbox.js';

/** Moves the fake clock on, as a service taking `ms` to answer would. */
const takes = (ms: number): void => void vi.setSystemTime(Date.now() + ms);

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const close of closers.splice(0)) await close();
});

const PDF = btoa('%PDF-1.4 labels');

describe('against an independent node:http service whose answers take 1.5 s each', () => {
  async function service(): Promise<{ client: DeliveryClient; received: () => string[]; fake: Awaited<ReturnType<typeof startFakeService>> }> {
    const fake = await startFakeService();
    closers.push(fake.close);
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = new DeliveryClient({ baseUrl: fake.baseUrl, apiKey: 'k', maxRetries: 0, cache: false });
    return { client, fake, received: () => fake.received.map((r) => `${r.method} ${r.path}`) };
  }
  const fullPage = (page: number) =>
    Array.from({ length: 50 }, (_, i) => ({
      _id: `id-${page}-${i}`,
      trackingNumber: `${page}${String(i).padStart(3, '0')}`,
      businessReference: 'REF-1',
      state: { code: 45 },
    }));

  it('airwayBillFiles sends no request after totalTimeout: the files printed come with the error', async () => {
    const { client, fake } = await service();
    fake.on('POST /deliveries/mass-awb', () => (takes(1_500), envelope(PDF)));
    const numbers = Array.from({ length: 120 }, (_, i) => String(70_000_000 + i));
    const error = (await client.deliveries.airwayBillFiles(numbers, {}, { totalTimeout: 3_000 }).catch((err: unknown) => err)) as PartialResultError;
    expect(error).toBeInstanceOf(PartialResultError);
    expect(error.cause).toBeInstanceOf(TimeoutError);
    const partial = error.partial as AirwayBillFilesPartial;
    expect(partial.files.map((file) => file.trackingNumbers.length)).toEqual([50, 50]);
    expect(partial.notPrinted).toEqual(numbers.slice(100));
    expect(fake.received).toHaveLength(2);
  });

  it('customerHistory, findByReference and resolveTrackingNumbers read no page after it', async () => {
    const { client, fake } = await service();
    let page = 0;
    fake.on('POST /deliveries/search', () => (takes(1_500), envelope({ deliveries: fullPage(++page), count: 0, page, limit: 50 })));
    const history = (await client.deliveries.customerHistory('01012345678', { totalTimeout: 3_000 }).catch((err: unknown) => err)) as PartialResultError;
    expect(history).toBeInstanceOf(PartialResultError);
    expect(history.cause).toBeInstanceOf(TimeoutError);
    expect((history.partial as CustomerHistory).total).toBe(100);
    expect(fake.received).toHaveLength(2);

    await expect(client.deliveries.findByReference('REF-1', { totalTimeout: 3_000 })).rejects.toBeInstanceOf(TimeoutError);
    expect(fake.received).toHaveLength(4);

    const resolved = await client.deliveries.resolveTrackingNumbers(
      { created: [{ index: 0, businessReference: 'REF-9' }], failed: [], createdIds: [] },
      { totalTimeout: 3_000 },
    );
    expect(resolved.unresolved[0]?.reason).toBeInstanceOf(TimeoutError);
    expect(fake.received).toHaveLength(6);
  });

  it('lookup.resolveAddress reads no list after it', async () => {
    const { client, fake } = await service();
    fake.on('GET /cities', () => (takes(1_500), envelope([{ _id: 'c-giza', name: 'Giza', dropOffAvailability: true }])));
    fake.on('GET /cities/:id/zones', () => (takes(1_500), envelope([{ _id: 'z-dokki', name: 'Dokki', dropOffAvailability: true }])));
    fake.on('GET /cities/:id/districts', () => envelope([]));
    const error = await client.lookup
      .resolveAddress({ city: 'Giza', zone: 'Dokki', district: 'Dokki', firstLine: '12 Tahrir Street', for: 'dropOffAddress' }, { totalTimeout: 3_000 })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(fake.received.map((r) => r.path)).toEqual(['/cities', '/cities/c-giza/zones']);
  });
});

describe('less than 5 ms of totalTimeout left: nothing is sent, and the same TimeoutError', () => {
  /** A full page of orders of other references: the search goes on to the next. */
  const otherOrders = (page: number) =>
    Response.json({
      success: true,
      data: { deliveries: Array.from({ length: 50 }, (_, i) => ({ _id: `id-${page}-${i}`, trackingNumber: `${page}${i}`, businessReference: 'OTHER' })) },
    });
  const answered = () => Response.json({ success: true, data: { _id: 'o-1', trackingNumber: '70000012' } });
  /** The message and request of `error`, a TimeoutError, with the origin of the URL left out. */
  const told = (error: unknown) => {
    expect(error).toBeInstanceOf(TimeoutError);
    const { message, request } = error as TimeoutError;
    return { message: message.replace(/https?:\/\/[^/]+/, ''), request: { ...request, url: request?.url.replace(/https?:\/\/[^/]+/, '') } };
  };

  // The read's chunk and the transport arrive by real I/O, which a fake clock does not wait for: loaded before any.
  beforeAll(async () => {
    await clientOnFetch(answered).client.deliveries.get('70000012');
  });

  it('a call given 4 ms sends nothing; given 5 ms, it is sent', async () => {
    // setTimeout faked too: the attempt's own timer, 5 ms of real time, does not decide.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const { client, sent } = clientOnFetch(answered);
    expect(told(await client.deliveries.get('70000012', { totalTimeout: 4 }).catch((err: unknown) => err))).toEqual({
      message: 'GET /v2/deliveries/business/70000012 took longer than totalTimeout.',
      request: { method: 'GET', url: '/v2/deliveries/business/70000012' },
    });
    expect(sent).toEqual([]);
    await expect(client.deliveries.get('70000012', { totalTimeout: 5 })).resolves.toMatchObject({ trackingNumber: '70000012' });
    expect(sent).toHaveLength(1);
  });

  it("a run's next request, with 3 ms left, is not sent either, and fails the same way", async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    let page = 0;
    const { client, sent } = clientOnFetch(() => (takes(2_997), otherOrders(++page)));
    const error = await client.deliveries.findByReference('R', { totalTimeout: 3_000, maxPages: 10 }).catch((err: unknown) => err);
    expect(told(error)).toEqual({
      message: 'POST /v2/deliveries/search took longer than totalTimeout.',
      request: { method: 'POST', url: '/v2/deliveries/search' },
    });
    expect(sent).toHaveLength(1);
  });
});

describe("a repeated create's read-back, against the sandbox", () => {
  const order = (extra: Record<string, unknown> = {}): OrderInput =>
    ({
      type: DeliveryType.Deliver,
      dropOffAddress: dropOff,
      receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
      cod: 250,
      businessReference: 'NILE-1042',
      uniqueBusinessReference: 'WC_1042',
      ...extra,
    }) as OrderInput;

  /** The sandbox behind a fetch whose first create is acted on and its answer lost; each request takes `ms[kind]`. */
  async function setUp(ms: { create: number; read: number }): Promise<{ sandbox: Sandbox; client: DeliveryClient; reads: () => number }> {
    const sandbox = createSandbox();
    closers.push(() => sandbox.close());
    await setUpAccount(sandbox);
    let creates = 0;
    let reads = 0;
    const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = input instanceof Request ? input : new Request(input, init);
      const answer = await sandbox.fetch(request);
      if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/deliveries')) {
        takes(ms.create);
        if (++creates === 1)
          throw Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('other side closed'), { code: 'ECONNRESET' }) });
      } else if (request.method === 'GET') {
        reads += 1;
        takes(ms.read);
      }
      return answer;
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch, retryDelay: { base: 1, max: 1 } });
    return { sandbox, client, reads: () => reads };
  }

  it('resolves with the order read back while totalTimeout lasts', async () => {
    const { sandbox, client, reads } = await setUp({ create: 1_000, read: 500 });
    const created = await client.deliveries.create(order(), { totalTimeout: 3_000 });
    expect(created.trackingNumber).toBe(sandbox.orders()[0]?.trackingNumber);
    expect(reads()).toBe(1);
  });

  it('starts no read-back once totalTimeout has passed: the refusal, saying mayExist, is the answer', async () => {
    const { sandbox, client, reads } = await setUp({ create: 1_600, read: 500 });
    const error = await client.deliveries.create(order(), { totalTimeout: 3_000 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(DuplicateOrderError);
    expect(error).toMatchObject({ mayExist: true });
    expect(reads()).toBe(0);
    expect(sandbox.orders()).toHaveLength(1);
  });

  it('nor with less than 5 ms of it left', async () => {
    const { client, reads } = await setUp({ create: 1_498, read: 500 });
    const error = await client.deliveries.create(order(), { totalTimeout: 3_000 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(DuplicateOrderError);
    expect(error).toMatchObject({ mayExist: true });
    expect(reads()).toBe(0);
  });
});
