// deliveries.track and waitForState (issue 32): against fakes in the shapes live-service.md lists
// ("A merchant's month"), and against the sandbox, which answers from an order's real history.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeliveryState, NotFoundError, RequestAbortedError, TimeoutError } from '../../src/index.js';
import { IN_PROCESS as BASE, clientOnFetch } from '../support/fake-service.js';
import { dropOff, sandboxWithAccount } from '../support/sandbox.js';

afterEach(() => vi.useRealTimers());

/** A client whose fetch answers each request with the next of `bodies` (the last one repeated); `urls()` are those it was asked. */
function clientAnswering(bodies: unknown[], options: { totalTimeout?: number } = {}) {
  const { client, sent } = clientOnFetch((_, index) => Response.json(bodies[Math.min(index, bodies.length - 1)]), options);
  return { client, urls: () => sent.map((request) => request.url) };
}

describe('deliveries.track', () => {
  it("reads the merchant API's shape (JAVA DeliveryTrackingData, RUBY delivery.rb: CurrentStatus, stateHistory)", async () => {
    const { client, urls } = clientAnswering([
      {
        success: true,
        data: {
          trackingNumber: '70000012',
          CurrentStatus: { state: 'Out for delivery', code: 41, timestamp: '2026-11-20T09:12:00.000Z' },
          stateHistory: [
            { state: 'Pickup requested', code: 10, timestamp: '2026-11-18T10:00:00.000Z' },
            { state: 'Picked up', code: 21, timestamp: '2026-11-19T12:30:00.000Z' },
            { state: 'Out for delivery', code: 41, timestamp: '2026-11-20T09:12:00.000Z' },
          ],
          createDate: '2026-11-18T10:00:00.000Z',
        },
      },
    ]);
    const tracking = await client.deliveries.track('70000012');
    expect(urls()).toEqual([`${BASE}/deliveries/70000012/tracking`]);
    expect(tracking.trackingNumber).toBe('70000012');
    expect(tracking.currentState).toEqual({ code: 41, value: 'Out for delivery', timestamp: '2026-11-20T09:12:00.000Z' });
    expect(tracking.history.map((event) => event.code)).toEqual([10, 21, 41]);
    expect(tracking['createDate']).toBe('2026-11-18T10:00:00.000Z');
  });

  it("reads the public tracker's shape (TrackingNumber, TransitEvents, PromisedDate, TrackingURL), codes given as text", async () => {
    const { client } = clientAnswering([
      {
        TrackingNumber: 70000013,
        CurrentStatus: { state: 'Delivered', code: '45', timestamp: '2026-11-21T15:00:00.000Z' },
        TransitEvents: [
          { state: 'Created', code: '10', timestamp: '2026-11-19T08:00:00.000Z' },
          { state: 'Delivered', code: '45', timestamp: '2026-11-21T15:00:00.000Z' },
        ],
        PromisedDate: '2026-11-22',
        TrackingURL: 'https://tracking.example/70000013',
        SupportPhoneNumbers: ['19043'],
      },
    ]);
    const tracking = await client.deliveries.track('70000013');
    expect(tracking.trackingNumber).toBe('70000013');
    expect(tracking.currentState?.code).toBe(DeliveryState.Delivered);
    expect(tracking.history.map((event) => [event.code, event.value])).toEqual([
      [10, 'Created'],
      [45, 'Delivered'],
    ]);
    expect(tracking.promisedDate).toBe('2026-11-22');
    expect(tracking.trackingUrl).toBe('https://tracking.example/70000013');
    expect(tracking['SupportPhoneNumbers']).toEqual(['19043']);
  });

  it('takes the last event as the current state when the answer has no CurrentStatus, and tolerates a bare answer', async () => {
    const { client } = clientAnswering([{ success: true, data: { stateHistory: [{ state: { code: 24, value: 'In hub' }, date: '2026-11-20' }] } }]);
    const tracking = await client.deliveries.track('70000014');
    expect(tracking.trackingNumber).toBe('70000014');
    expect(tracking.currentState).toEqual({ code: 24, value: 'In hub', timestamp: '2026-11-20' });
  });

  it('answers from the order’s real history in the sandbox, and 404s an unknown order', async () => {
    const { sandbox, client } = await sandboxWithAccount();
    const order = await client.deliveries.create({
      type: 10,
      dropOffAddress: dropOff,
      receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
    });
    await sandbox.play(order.trackingNumber, 'success');
    const [tracking, record] = await Promise.all([client.deliveries.track(order.trackingNumber), client.deliveries.get(order.trackingNumber)]);
    expect(tracking.history.map((event) => event.code)).toEqual(record.timeline?.map((step) => step.code));
    expect(tracking.currentState?.code).toBe(DeliveryState.Delivered);
    await expect(client.deliveries.track('99999999')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('deliveries.waitForState', () => {
  const order = (code: number) => ({ success: true, data: { _id: 'o-70000012', trackingNumber: '70000012', state: { code, value: String(code) } } });

  it('reads until the state is final by default, waiting longer each time, and resolves with the order', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { client, urls } = clientAnswering([order(10), order(21), order(41), order(45)], { totalTimeout: 3_600_000 });
    const waited = client.deliveries.waitForState('70000012', { pollInterval: 1000 });
    await vi.advanceTimersByTimeAsync(1000 + 1500 + 2250);
    const done = await waited;
    expect(done.state?.code).toBe(45);
    expect(urls()).toHaveLength(4);
    expect(new Set(urls())).toEqual(new Set([`${BASE}/deliveries/business/70000012`]));
  });

  it('stops at the state `until` accepts', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { client } = clientAnswering([order(10), order(21), order(45)]);
    const waited = client.deliveries.waitForState('70000012', { until: (state) => state === DeliveryState.PickedUpFromBusiness, pollInterval: 10 });
    await vi.advanceTimersByTimeAsync(100);
    expect((await waited).state?.code).toBe(21);
  });

  it('rejects with a TimeoutError naming the last state when totalTimeout runs out first', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { client } = clientAnswering([order(24)]);
    const waited = client.deliveries.waitForState('70000012', { pollInterval: 1000, totalTimeout: 5000 }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await waited;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toContain('state 24');
  });

  it('rejects with a RequestAbortedError when the signal aborts during a wait', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { client } = clientAnswering([order(24)]);
    const controller = new AbortController();
    const waited = client.deliveries
      .waitForState('70000012', { pollInterval: 60_000, totalTimeout: 3_600_000, signal: controller.signal })
      .catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1000);
    controller.abort();
    expect(await waited).toBeInstanceOf(RequestAbortedError);
  });

  it('refuses options it cannot use, before reading anything', async () => {
    const { client, urls } = clientAnswering([order(10)]);
    await expect(client.deliveries.waitForState('70000012', { pollInterval: -1 })).rejects.toThrow(/pollInterval/);
    await expect(client.deliveries.waitForState('70000012', { until: '45' as never })).rejects.toThrow(/until/);
    expect(urls()).toEqual([]);
  });
});
