// A tracing back end that fails never changes a call: what a client's `telemetry` throws is
// dropped, so a create the service made is answered with its order, sent once, and a bulk upload
// reports every order it created.
import { BasicTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigurationError, DeliveryClient, type DeliveryTelemetry, DeliveryType } from '../../src/index.js';
import { openTelemetry } from '../../src/telemetry/index.js';
import { createWebhookHandler } from '../../src/webhooks/index.js';
import { clientOnFetch } from '../support/fake-service.js';
import { dropOff, sandboxWithAccount } from '../support/sandbox.js';
import { recordTelemetry } from '../support/telemetry.js';

const receiver = { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' };

/** Every method throws. */
const throwing = (): never => {
  throw new Error('the tracing back end is down');
};

/** A telemetry whose every method throws at once. */
const failsAtOnce = { call: throwing, bulk: throwing, webhook: throwing } as unknown as DeliveryTelemetry;

/** A telemetry that starts calls, attempts, uploads and chunks, then throws at every report. */
function failsLater(): DeliveryTelemetry {
  const reports = { attempt: () => reports, headers: throwing, end: throwing, chunk: () => reports };
  return { call: () => reports, bulk: () => reports, webhook: throwing } as unknown as DeliveryTelemetry;
}

describe.each([
  ['throws when a call starts', () => failsAtOnce],
  ['throws at every report after the request', failsLater],
])('a telemetry that %s', (_name, telemetry) => {
  it('leaves a create as it is: the order is answered and the service holds it once', async () => {
    const { sandbox, client } = await sandboxWithAccount({}, { telemetry: telemetry() });
    const order = await client.deliveries.create({ type: DeliveryType.Deliver, dropOffAddress: dropOff, receiver, cod: 250, businessReference: 'T-1' });
    expect(order.trackingNumber).toEqual(expect.any(String));
    expect(
      sandbox
        .orders()
        .filter((held) => held.businessReference === 'T-1')
        .map((held) => held.trackingNumber),
    ).toEqual([order.trackingNumber]);
  });

  it('leaves a bulk upload as it is: every created order is reported', async () => {
    const { sandbox, client } = await sandboxWithAccount({}, { telemetry: telemetry() });
    const orders = ['B-1', 'B-2', 'B-3'].map((businessReference) => ({
      type: DeliveryType.Deliver,
      dropOffAddress: dropOff,
      receiver,
      cod: 100,
      businessReference,
    }));
    const result = await client.deliveries.createBulk(orders, { chunkSize: 2 });
    expect(result.failed).toEqual([]);
    expect(result.createdIds).toHaveLength(3);
    expect(
      sandbox
        .orders()
        .map((held) => held.businessReference)
        .sort(),
    ).toEqual(['B-1', 'B-2', 'B-3']);
  });
});

describe('a telemetry that is not an object', () => {
  it.each([5, 'otel', null])('is a ConfigurationError naming the option: %s', (telemetry) => {
    expect(() => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', telemetry: telemetry as never })).toThrow(ConfigurationError);
    expect(() => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', telemetry: telemetry as never })).toThrow(/telemetry/);
    expect(() => createWebhookHandler({ telemetry: telemetry as never, onEvent() {} })).toThrow(ConfigurationError);
  });
});

/** Unhandled rejections while `run` runs and one turn of the event loop after it: a custom telemetry's must be none (in Node, one ends the process). */
async function unhandledRejectionsOf(run: () => Promise<void>): Promise<unknown[]> {
  const unhandled: unknown[] = [];
  const listener = (reason: unknown): void => void unhandled.push(reason);
  process.on('unhandledRejection', listener);
  try {
    await run();
    await new Promise((resolve) => setTimeout(resolve, 0));
  } finally {
    process.off('unhandledRejection', listener);
  }
  return unhandled;
}

describe('a telemetry whose methods are async and reject', () => {
  const rejecting = async (): Promise<never> => {
    throw new Error('the tracing back end is down, asynchronously');
  };
  const telemetry = { call: rejecting, bulk: rejecting, webhook: rejecting } as unknown as DeliveryTelemetry;
  /** Methods that return objects whose own methods are async and reject. */
  const reports = { attempt: () => reports, headers: rejecting, end: rejecting, chunk: () => reports, event: rejecting, verdict: rejecting, error: rejecting };
  const rejectsLater = { call: () => reports, bulk: () => reports, webhook: () => reports } as unknown as DeliveryTelemetry;

  it.each([
    ['at once', telemetry],
    ['at every report', rejectsLater],
  ])('rejecting %s, leaves a create, a bulk upload and a webhook as they are, and nothing unhandled', async (_name, given) => {
    const { sandbox, client } = await sandboxWithAccount({}, { telemetry: given });
    const handler = createWebhookHandler({ telemetry: given, onEvent() {} });
    let order: { trackingNumber: string } | undefined;
    let answered: Response | undefined;
    const unhandled = await unhandledRejectionsOf(async () => {
      order = await client.deliveries.create({ type: DeliveryType.Deliver, dropOffAddress: dropOff, receiver, cod: 250, businessReference: 'A-1' });
      const orders = ['A-2', 'A-3'].map((businessReference) => ({
        type: DeliveryType.Deliver,
        dropOffAddress: dropOff,
        receiver,
        cod: 100,
        businessReference,
      }));
      expect((await client.deliveries.createBulk(orders, { chunkSize: 1 })).createdIds).toHaveLength(2);
      const body = JSON.stringify({ _id: 'o1', trackingNumber: order.trackingNumber, state: 20, type: 'SEND', timeStamp: 1735689600000 });
      answered = await handler(new Request('https://shop.example/hooks', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    });
    expect(unhandled).toEqual([]);
    expect(answered?.status).toBe(200);
    expect(
      sandbox
        .orders()
        .map((held) => held.businessReference)
        .sort(),
    ).toEqual(['A-1', 'A-2', 'A-3']);
    expect(sandbox.orders().find((held) => held.businessReference === 'A-1')?.trackingNumber).toBe(order?.trackingNumber);
  });
});

describe('a span processor that blocks the process', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  // The block is played on a fake clock: each span's end moves `performance.now()` on by 300 ms, as
  // a processor exporting synchronously would, and the timers due meanwhile fire after it, as they
  // would after a real block. No real time is waited for, whatever the machine's load.
  it('does not turn a bulk chunk answered meanwhile into a TimeoutError: telemetry time is not the attempt’s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    let blocked = 0;
    const blocking: SpanProcessor = {
      onStart: () => undefined,
      onEnd: () => {
        now += 300;
        blocked += 300;
      },
      forceFlush: async () => undefined,
      shutdown: async () => undefined,
    };
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [blocking] });
    const deferred = () => {
      let resolve = (): void => undefined;
      const promise = new Promise<void>((done) => (resolve = done));
      return { promise, resolve };
    };
    const second = deferred();
    const release = deferred();
    const answer = (index: number) => Response.json({ success: true, data: { createdDeliveriesIds: [`id-${index}`], failedDeliveries: [] } }, { status: 201 });
    const { client } = clientOnFetch(
      async (_request, index) => {
        // The first chunk is answered once the second is in flight, the second only when the test says so.
        if (index === 0) await second.promise;
        else {
          second.resolve();
          await release.promise;
        }
        return answer(index);
      },
      { timeout: 500, telemetry: openTelemetry({ tracerProvider }) },
    );
    const orders = ['K-1', 'K-2'].map((businessReference) => ({ type: DeliveryType.Deliver, dropOffAddress: dropOff, receiver, cod: 100, businessReference }));
    const upload = client.deliveries.createBulk(orders, { chunkSize: 1, concurrency: 2 });
    // The first chunk's spans end (its attempt's and its own): the process is held 600 ms, longer than `timeout`.
    await vi.waitFor(() => expect(blocked).toBe(600), { interval: 1 });
    // The timers due while it was held fire now, then the second chunk's answer arrives.
    vi.advanceTimersByTime(600);
    release.resolve();
    const result = await upload;
    expect(result.failed).toEqual([]);
    expect(result.createdIds.sort()).toEqual(['id-0', 'id-1']);
  });
});

describe('delivery.tracking_number', () => {
  it('holds a value shaped as a tracking number only: `get(apiKey)` records no key', async () => {
    const recorded = recordTelemetry();
    const { client, sandbox } = await sandboxWithAccount({}, { telemetry: recorded.telemetry });
    const { trackingNumber } = await client.deliveries.create({ type: DeliveryType.Deliver, dropOffAddress: dropOff, receiver, cod: 250 });
    await client.deliveries.get(trackingNumber);
    await client.deliveries.get(sandbox.apiKey).catch(() => undefined);
    const recordedNumbers = recorded.spans().map((span) => span.attributes['delivery.tracking_number']);
    expect(recordedNumbers.filter((value) => value !== undefined)).toEqual([trackingNumber, trackingNumber]);
    expect(JSON.stringify(recorded.spans().map((span) => span.attributes))).not.toContain(sandbox.apiKey);
  });
});
