import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/base.js';
import {
  createOrderTracker,
  createWebhookHandler,
  FULFILLMENT_FLOWS,
  parseWebhookEvent,
  type WebhookEvent,
  WebhookPayloadError,
} from '../../src/webhooks/index.js';
import { flowBodies, MINUTE, T0, webhookBody } from '../support/webhook-bodies.js';
import { arrivals, TIE_CASES, tieEvents } from './tie-cases.js';

const statesAndTypes = (events: readonly WebhookEvent[]): string[] => events.map((event) => `${event.state} ${event.type}`);

describe("the spec's fulfillment send flows, in order", () => {
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
  it('places an event without a timeStamp before every timed one: it never overwrites a known state', () => {
    const tracker = createOrderTracker();
    const { timeStamp: _dropped, ...untimed } = webhookBody({ state: 47, exceptionCode: 1 });
    tracker.track(parseWebhookEvent(webhookBody({ state: 24, timeStamp: T0 })));
    const late = tracker.track(parseWebhookEvent(untimed));
    expect(late).toMatchObject({ changed: false, duplicate: false, stale: true, current: { state: 24 } });
    expect(tracker.history('4567891234').map((event) => event.state)).toEqual([47, 24]);
    expect(tracker.track(parseWebhookEvent(untimed))).toMatchObject({ duplicate: true, current: { state: 24 } });
  });

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

  describe.each(TIE_CASES)('events of the same millisecond, in any order of arrival: $why', (tieCase) => {
    it.each(arrivals([...tieCase.bodies.keys()]).map((order) => [order]))('arriving as %j', (order) => {
      const tracker = createOrderTracker();
      const events = tieEvents(tieCase, '4567891234');
      const winner = events[tieCase.current] as WebhookEvent;
      for (const i of order) {
        const result = tracker.track(events[i] as WebhookEvent);
        // An event that does not become current is stale: it changed nothing.
        expect(result).toMatchObject({ changed: result.current === events[i], stale: result.current !== events[i] });
        if (i === tieCase.current) expect(result.changed).toBe(true);
      }
      expect(tracker.current('4567891234')).toBe(winner);
      expect(tracker.history('4567891234').at(-1)).toBe(winner);
    });
  });

  it('keeps a long history of late events in order (binary insertion)', () => {
    const tracker = createOrderTracker();
    const count = 20_000;
    // Newest first: every event but the first is late and goes to the front.
    for (let i = count - 1; i >= 0; i--) tracker.track(parseWebhookEvent(webhookBody({ state: 24, timeStamp: T0 + i, numberOfAttempts: i })));
    const history = tracker.history('4567891234');
    expect(history).toHaveLength(count);
    expect(history.every((event, i) => event.timeStamp === T0 + i)).toBe(true);
    expect(tracker.current('4567891234')?.timeStamp).toBe(T0 + count - 1);
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
    fc.assert(
      fc.property(arrivals, ([steps, order]) => {
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
      }),
      { numRuns: 200 },
    );
  });
});

describe('a bound on the orders kept in memory', () => {
  it('forgets the least recently updated order past maxOrders; a repeat of its event then reads as new', () => {
    const tracker = createOrderTracker({ maxOrders: 2 });
    const first = parseWebhookEvent(webhookBody({ trackingNumber: '1', state: 24 }));
    tracker.track(first);
    tracker.track(parseWebhookEvent(webhookBody({ trackingNumber: '2', state: 24 })));
    tracker.track(parseWebhookEvent(webhookBody({ trackingNumber: '1', state: 41, timeStamp: T0 + MINUTE }))); // 1 is now the more recent
    tracker.track(parseWebhookEvent(webhookBody({ trackingNumber: '3', state: 24 })));
    expect(tracker.current('2')).toBeUndefined();
    expect(tracker.current('1')?.state).toBe(41);
    expect(tracker.current('3')?.state).toBe(24);
    tracker.track(parseWebhookEvent(webhookBody({ trackingNumber: '4', state: 24 })));
    expect(tracker.current('1')).toBeUndefined();
    expect(tracker.track(first)).toMatchObject({ changed: true, duplicate: false, previous: undefined });
  });

  it('keeps 50,000 orders by default', () => {
    const tracker = createOrderTracker();
    for (let i = 0; i <= 50_000; i++) tracker.track(parseWebhookEvent(webhookBody({ trackingNumber: `${i}`, state: 24 })));
    expect(tracker.current('0')).toBeUndefined();
    expect(tracker.current('1')?.state).toBe(24);
    expect(tracker.current('50000')?.state).toBe(24);
  });

  it('refuses a bound that is not a positive whole number, and takes Infinity', () => {
    for (const maxOrders of [0, -1, 1.5, Number.NaN, '10' as unknown as number]) expect(() => createOrderTracker({ maxOrders })).toThrow(ConfigurationError);
    expect(() => createOrderTracker({ maxOrders: Infinity })).not.toThrow();
  });
});

describe('a value that is not a parsed event', () => {
  it.each([
    ['a Symbol state', { state: Symbol('41') }, 'state'],
    ['a string state', { state: '41' }, 'state'],
    ['a Symbol type', { type: Symbol('SEND') }, 'type'],
    ['a Symbol exceptionCode', { exceptionCode: Symbol('7') }, 'exceptionCode'],
  ])('%s: a WebhookPayloadError naming the field, nothing recorded', (_, override, field) => {
    const tracker = createOrderTracker();
    const event = { ...parseWebhookEvent(webhookBody({ state: 24 })), ...override } as unknown as WebhookEvent;
    expect(() => tracker.track(event)).toThrow(expect.objectContaining({ name: 'WebhookPayloadError', field }));
    expect(() => tracker.track(event)).toThrow(WebhookPayloadError);
    expect(tracker.history('4567891234')).toEqual([]);
  });
});

describe('storing the state behind a handler, as the README and the TSDoc do', () => {
  const post = (body: Record<string, unknown>): Request =>
    new Request('http://127.0.0.1/webhooks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('writes again when the service repeats an event whose write failed, and never writes a late older one', async () => {
    const tracker = createOrderTracker();
    const stored: number[] = [];
    let failNext = true;
    const handler = createWebhookHandler({
      onEvent: async (event) => {
        const { stale, current } = tracker.track(event);
        if (stale) return;
        if (failNext) {
          failNext = false;
          throw new Error('database unavailable');
        }
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
