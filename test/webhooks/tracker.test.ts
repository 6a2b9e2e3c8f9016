import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOrderTracker, createWebhookHandler, FULFILLMENT_FLOWS, parseWebhookEvent, type WebhookEvent } from '../../src/webhooks/index.js';
import { flowBodies, MINUTE, T0, webhookBody } from './helpers.js';

const statesAndTypes = (events: readonly WebhookEvent[]): string[] => events.map((event) => `${event.state} ${event.type}`);

describe('the spec\'s fulfillment send flows, in order', () => {
  it.each(Object.entries(FULFILLMENT_FLOWS))('%s: every event changes the order, the last one is current', (_, steps) => {
    const tracker = createOrderTracker();
    const events = flowBodies(steps).map((body) => parseWebhookEvent(JSON.stringify(body)));
    for (const event of events) expect(tracker.track(event)).toMatchObject({ changed: true, duplicate: false, stale: false, current: event });
    expect(statesAndTypes(tracker.history('4567891234'))).toEqual(steps.map((step) => `${step.state} ${step.type}`));
    expect(tracker.current('4567891234')).toBe(events.at(-1));
  });

  it('success ends Delivered with the cod collected', () => {
    const tracker = createOrderTracker();
    for (const body of flowBodies(FULFILLMENT_FLOWS.success)) tracker.track(parseWebhookEvent(body));
    const current = tracker.current('4567891234');
    expect(current?.state).toBe(45);
    if (current?.state === 45) expect(current.cod).toBe(1250);
  });

  it('exception then success keeps the failed attempt and its reason in the history', () => {
    const tracker = createOrderTracker();
    for (const body of flowBodies(FULFILLMENT_FLOWS.exceptionThenSuccess)) tracker.track(parseWebhookEvent(body));
    const exception = tracker.history('4567891234').find((event) => event.state === 47);
    expect(exception).toMatchObject({ exceptionCode: 7, exceptionReason: 'Customer is not answering', numberOfAttempts: 1 });
    expect(tracker.current('4567891234')).toMatchObject({ state: 45, numberOfAttempts: 2 });
  });

  it('unsuccessful: the type turns RTO at the warehouse (same state, a change) and ends Returned to stock', () => {
    const tracker = createOrderTracker();
    const results = flowBodies(FULFILLMENT_FLOWS.unsuccessful).map((body) => tracker.track(parseWebhookEvent(body)));
    const turn = results.findIndex((result) => result.current.type === 'RTO');
    expect(results[turn]).toMatchObject({ changed: true, previous: { state: 24, type: 'FXF_SEND' }, current: { state: 24, type: 'RTO' } });
    expect(tracker.current('4567891234')).toMatchObject({ state: 60, type: 'RTO' });
  });
});

describe('repeated and late deliveries', () => {
  it('ignores an exact repeat', () => {
    const tracker = createOrderTracker();
    const body = webhookBody({ state: 41 });
    tracker.track(parseWebhookEvent(body));
    const again = tracker.track(parseWebhookEvent(JSON.stringify(body)));
    expect(again).toMatchObject({ changed: false, duplicate: true, stale: false, current: { state: 41 } });
    expect(tracker.history('4567891234')).toHaveLength(1);
  });

  it('never lets an older event overwrite a newer one, but keeps it in its place in the history', () => {
    const tracker = createOrderTracker();
    tracker.track(parseWebhookEvent(webhookBody({ state: 24, timeStamp: T0 })));
    tracker.track(parseWebhookEvent(webhookBody({ state: 41, timeStamp: T0 + 20 * MINUTE })));
    const late = tracker.track(parseWebhookEvent(webhookBody({ state: 30, timeStamp: T0 + 10 * MINUTE })));
    expect(late).toMatchObject({ changed: false, duplicate: false, stale: true, current: { state: 41 }, previous: { state: 41 } });
    expect(tracker.history('4567891234').map((event) => event.state)).toEqual([24, 30, 41]);
  });

  it('a repeat of an old event is a duplicate and stale', () => {
    const tracker = createOrderTracker();
    const old = parseWebhookEvent(webhookBody({ state: 24, timeStamp: T0 }));
    tracker.track(old);
    tracker.track(parseWebhookEvent(webhookBody({ state: 41, timeStamp: T0 + MINUTE })));
    expect(tracker.track(old)).toMatchObject({ changed: false, duplicate: true, stale: true, current: { state: 41 } });
  });

  it('two exceptions of one run at different times are two events', () => {
    const tracker = createOrderTracker();
    tracker.track(parseWebhookEvent(webhookBody({ state: 47, exceptionCode: 7, timeStamp: T0 })));
    const second = tracker.track(parseWebhookEvent(webhookBody({ state: 47, exceptionCode: 3, timeStamp: T0 + MINUTE })));
    expect(second).toMatchObject({ changed: true, duplicate: false, current: { exceptionCode: 3 } });
  });

  it('events of the same millisecond count in arrival order', () => {
    const tracker = createOrderTracker();
    tracker.track(parseWebhookEvent(webhookBody({ state: 45, timeStamp: T0 })));
    expect(tracker.track(parseWebhookEvent(webhookBody({ state: 104, timeStamp: T0 })))).toMatchObject({ changed: true, stale: false, current: { state: 104 } });
  });

  it('keeps orders apart, and forgets one on request', () => {
    const tracker = createOrderTracker();
    tracker.track(parseWebhookEvent(webhookBody({ trackingNumber: 111, state: 45 })));
    tracker.track(parseWebhookEvent(webhookBody({ trackingNumber: '222', state: 24 })));
    expect(tracker.current('111')?.state).toBe(45);
    expect(tracker.current('222')?.state).toBe(24);
    expect(tracker.forget('111')).toBe(true);
    expect(tracker.current('111')).toBeUndefined();
    expect(tracker.history('111')).toEqual([]);
    expect(tracker.forget('111')).toBe(false);
  });

  it('tracks an order whose tracking number is "__proto__" like any other', () => {
    const tracker = createOrderTracker();
    tracker.track(parseWebhookEvent(webhookBody({ trackingNumber: '__proto__', state: 20 })));
    expect(tracker.current('__proto__')?.state).toBe(20);
    expect(tracker.current('constructor')).toBeUndefined();
  });

  it('ends in the same state and history whatever order and however often the events arrive (fast-check)', () => {
    const flows = Object.values(FULFILLMENT_FLOWS);
    const arrivals = fc
      .constantFrom(...flows)
      .chain((steps) => fc.subarray([...steps.keys()]).map((repeats) => [steps, [...steps.keys(), ...repeats]] as const))
      .chain(([steps, all]) => fc.tuple(fc.constant(steps), fc.shuffledSubarray([...all], { minLength: all.length })));
    fc.assert(fc.property(arrivals, ([steps, order]) => {
      const events = flowBodies(steps).map((body) => parseWebhookEvent(body));
      const tracker = createOrderTracker();
      let newest = -1;
      for (const i of order) {
        const result = tracker.track(events[i] as WebhookEvent);
        expect(result.changed).toBe(i > newest);
        newest = Math.max(newest, i);
        expect(result.current).toBe(events[newest]);
      }
      expect(tracker.history('4567891234')).toEqual(events);
    }), { numRuns: 200 });
  });
});

describe('storing the state behind a handler, as the README and the TSDoc do', () => {
  const post = (body: Record<string, unknown>): Request => new Request('http://127.0.0.1/webhooks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('writes again when the service repeats an event whose write failed, and never writes a late older one', async () => {
    const tracker = createOrderTracker();
    const stored: number[] = [];
    let failNext = true;
    const handler = createWebhookHandler({
      onEvent: async (event) => {
        const { stale, current } = tracker.track(event);
        if (stale) return;
        if (failNext) { failNext = false; throw new Error('database unavailable'); }
        stored.push(current.state);
      },
      onError: () => {},
    });
    const delivered = webhookBody({ state: 41, timeStamp: T0 + MINUTE });
    expect((await handler(post(delivered))).status).toBe(500);
    expect((await handler(post(delivered))).status).toBe(200); // the repeat: a duplicate, written this time
    expect((await handler(post(webhookBody({ state: 24, timeStamp: T0 })))).status).toBe(200); // late and older
    expect(stored).toEqual([41]);
  });
});
