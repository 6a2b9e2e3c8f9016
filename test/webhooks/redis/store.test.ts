// The order tracker on a real Redis: the rules of the in-memory tracker, the keys and their expiry,
// and Redis's own errors as TrackerStoreError. Both clients, one suite.
import { createServer } from 'node:net';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../src/errors/base.js';
import {
  type AsyncOrderTracker,
  createOrderTracker,
  createWebhookHandler,
  FULFILLMENT_FLOWS,
  parseWebhookEvent,
  TrackerStoreError,
  type WebhookEvent,
  WebhookPayloadError,
} from '../../../src/webhooks/index.js';
import { createRedisTrackerStore } from '../../../src/webhooks/redis.js';
import { flowBodies, MINUTE, T0, webhookBody } from '../../support/webhook-bodies.js';
import { arrivals, TIE_CASES, tieEvents } from '../tie-cases.js';
import { CLIENT_NAMES, type ConnectedClient, connect, startConnecting, type Watching, watched } from './clients.js';
import { command, type RedisServer, SKIP_WITHOUT_REDIS, startRedisServer } from './server.js';

let server: RedisServer;
beforeAll(async () => {
  if (!SKIP_WITHOUT_REDIS) server = await startRedisServer();
});
afterAll(() => server?.dispose());

const TN = '4567891234';

/** A loopback port nothing listens on (taken, then released). */
function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
let prefixes = 0;

describe.skipIf(SKIP_WITHOUT_REDIS).each(CLIENT_NAMES)('the order tracker on Redis, through %s', (clientName) => {
  let connected: ConnectedClient;
  let keyPrefix: string;
  let tracker: AsyncOrderTracker;
  const fresh = (options: { ttlSeconds?: number } = {}): AsyncOrderTracker => {
    keyPrefix = `test:${clientName}:${++prefixes}:`;
    return createOrderTracker({ store: createRedisTrackerStore({ client: connected.client, keyPrefix, ...options }) });
  };
  beforeAll(async () => {
    connected = await connect(clientName, server.port);
  });
  afterAll(() => connected?.close());
  afterEach(() => {
    tracker = fresh();
  });
  beforeAll(() => {
    tracker = fresh();
  });

  describe('the rules of the in-memory tracker', () => {
    it.each(Object.entries(FULFILLMENT_FLOWS))('%s in order: every event changes the order, the last one is current', async (_, steps) => {
      const events = flowBodies(steps).map((body) => parseWebhookEvent(body));
      for (const [i, event] of events.entries()) {
        expect(await tracker.track(event)).toEqual({ changed: true, duplicate: false, stale: false, current: event, previous: events[i - 1], version: i + 1 });
      }
      expect(await tracker.history(TN)).toEqual(events);
      expect(await tracker.current(TN)).toEqual(events.at(-1));
    });

    it('gives back the event as parsed: cod, the promise date as a Date, unknown fields in raw', async () => {
      const event = parseWebhookEvent(webhookBody({ state: 45, cod: 980, courierNote: 'left with the doorman' }));
      await tracker.track(event);
      const current = await tracker.current(TN);
      expect(current).toEqual(event);
      expect(current?.deliveryPromiseDay).toBeInstanceOf(Date);
      expect(current?.raw['courierNote']).toBe('left with the doorman');
    });

    it('ignores an exact repeat', async () => {
      const body = webhookBody({ state: 41 });
      await tracker.track(parseWebhookEvent(body));
      expect(await tracker.track(parseWebhookEvent(body))).toMatchObject({
        changed: false,
        duplicate: true,
        stale: false,
        current: { state: 41 },
        previous: { state: 41 },
      });
      expect(await tracker.history(TN)).toHaveLength(1);
    });

    it('never lets an older event overwrite a newer one, but keeps it in its place in the history', async () => {
      await tracker.track(parseWebhookEvent(webhookBody({ state: 24, timeStamp: T0 })));
      await tracker.track(parseWebhookEvent(webhookBody({ state: 41, timeStamp: T0 + 20 * MINUTE })));
      const late = await tracker.track(parseWebhookEvent(webhookBody({ state: 30, timeStamp: T0 + 10 * MINUTE })));
      expect(late).toMatchObject({ changed: false, duplicate: false, stale: true, current: { state: 41 }, previous: { state: 41 } });
      expect((await tracker.history(TN)).map((event) => event.state)).toEqual([24, 30, 41]);
      expect((await tracker.current(TN))?.state).toBe(41);
    });

    it('places an event without a timeStamp before every timed one: it never overwrites a known state', async () => {
      const { timeStamp: _dropped, ...untimed } = webhookBody({ state: 47, exceptionCode: 1 });
      await tracker.track(parseWebhookEvent(webhookBody({ state: 24, timeStamp: T0 })));
      const late = await tracker.track(parseWebhookEvent(untimed));
      expect(late).toMatchObject({ changed: false, duplicate: false, stale: true, current: { state: 24 } });
      expect((await tracker.history(TN)).map((event) => event.state)).toEqual([47, 24]);
      expect(await tracker.track(parseWebhookEvent(untimed))).toMatchObject({ duplicate: true, current: { state: 24 } });
    });

    it('a repeat of an old event is a duplicate and stale', async () => {
      const old = parseWebhookEvent(webhookBody({ state: 24, timeStamp: T0 }));
      await tracker.track(old);
      await tracker.track(parseWebhookEvent(webhookBody({ state: 41, timeStamp: T0 + MINUTE })));
      expect(await tracker.track(old)).toMatchObject({ changed: false, duplicate: true, stale: true, current: { state: 41 } });
    });

    it.each(TIE_CASES)('events of the same millisecond, in every order of arrival, as in memory: $why', async (tieCase) => {
      for (const [run, order] of arrivals([...tieCase.bodies.keys()]).entries()) {
        const trackingNumber = `tie-${run}`;
        const events = tieEvents(tieCase, trackingNumber);
        const memory = createOrderTracker();
        for (const i of order) expect(await tracker.track(events[i] as WebhookEvent)).toEqual(memory.track(events[i] as WebhookEvent));
        expect(await tracker.current(trackingNumber)).toEqual(events[tieCase.current]);
        expect(await tracker.history(trackingNumber)).toEqual(memory.history(trackingNumber));
      }
    });

    it('reads the events an earlier version stored (an arrival number before the body)', async () => {
      const old = webhookBody({ state: 24, timeStamp: T0 });
      expect(await command(server.port, ['ZADD', `${keyPrefix}${TN}`, String(T0), `000000000000${JSON.stringify(old)}`])).toBe(':1');
      expect(await tracker.track(parseWebhookEvent(webhookBody({ state: 41, timeStamp: T0 + MINUTE })))).toMatchObject({
        changed: true,
        previous: { state: 24 },
      });
      expect((await tracker.history(TN)).map((event) => event.state)).toEqual([24, 41]);
    });

    it('keeps orders apart (even "__proto__" and a number with braces), and forgets one on request', async () => {
      for (const trackingNumber of ['111', '__proto__', '{222}']) await tracker.track(parseWebhookEvent(webhookBody({ trackingNumber, state: 45 })));
      await tracker.track(parseWebhookEvent(webhookBody({ trackingNumber: '222', state: 24 })));
      expect((await tracker.current('111'))?.state).toBe(45);
      expect((await tracker.current('222'))?.state).toBe(24);
      expect((await tracker.current('{222}'))?.state).toBe(45);
      expect(await tracker.forget('111')).toBe(true);
      expect(await tracker.current('111')).toBeUndefined();
      expect(await tracker.history('111')).toEqual([]);
      expect(await tracker.forget('111')).toBe(false);
      expect((await tracker.current('__proto__'))?.state).toBe(45);
    });

    it('answers exactly as the in-memory tracker, whatever order and however often the events arrive (fast-check)', async () => {
      const flows = Object.values(FULFILLMENT_FLOWS);
      const arrivals = fc
        .constantFrom(...flows)
        .chain((steps) => fc.subarray([...steps.keys()]).map((repeats) => [steps, [...steps.keys(), ...repeats]] as const))
        .chain(([steps, all]) => fc.tuple(fc.constant(steps), fc.shuffledSubarray([...all], { minLength: all.length })));
      let run = 0;
      await fc.assert(
        fc.asyncProperty(arrivals, async ([steps, order]) => {
          const trackingNumber = `property-${++run}`;
          const events = flowBodies(steps, Number(`9${run}`)).map((body) => parseWebhookEvent({ ...body, trackingNumber }));
          const memory = createOrderTracker();
          for (const i of order) expect(await tracker.track(events[i] as WebhookEvent)).toEqual(memory.track(events[i] as WebhookEvent));
          expect(await tracker.history(trackingNumber)).toEqual(memory.history(trackingNumber));
        }),
        { numRuns: 40 },
      );
    });
  });

  describe('events that arrive together', () => {
    /** A tracker on `watched(client)`, the record script already on the server: from here on, one call is one script run. */
    const watching = async (watching: Watching = {}, options: { maxEventsPerScript?: number } = {}) => {
      const spy = watched(connected.client, watching);
      tracker = fresh();
      const together = createOrderTracker({ store: createRedisTrackerStore({ client: spy.client, keyPrefix, ...options }) });
      await together.track(parseWebhookEvent(webhookBody({ trackingNumber: 'first' })));
      spy.scripts.length = 0;
      return { spy, together };
    };
    const orderEvent = (trackingNumber: string, overrides: Record<string, unknown> = {}) => parseWebhookEvent(webhookBody({ trackingNumber, ...overrides }));

    // ioredis writes each command as it is made, so a burst's scripts go as it comes in (10, 20, 40,
    // ... up to maxEventsPerScript); node-redis writes once per turn, so they go at its end.
    const burstScripts = clientName === 'ioredis' ? [10, 20, 40, 80] : [100, 50];

    it(`go in scripts of ${burstScripts.join(', ')} events, each answered as the in-memory tracker answers it in their order of arrival`, async () => {
      const { spy, together } = await watching();
      const events = [
        ...Array.from({ length: 146 }, (_, i) => orderEvent(`burst-${i}`)),
        orderEvent('burst-0', { state: 41, timeStamp: T0 + 20 * MINUTE }),
        orderEvent('burst-0', { state: 30, timeStamp: T0 + 10 * MINUTE }),
        orderEvent('burst-1'),
        orderEvent('burst-0', { state: 41, timeStamp: T0 + 20 * MINUTE }),
      ];
      const memory = createOrderTracker();
      expect(await Promise.all(events.map((event) => together.track(event)))).toEqual(events.map((event) => memory.track(event)));
      expect(spy.scripts.map((keys) => keys.length)).toEqual(burstScripts);
      expect(await tracker.history('burst-0')).toEqual(memory.history('burst-0'));
    });

    it('a full script goes at once, in the turn its last event arrives: Redis runs it while the app goes on', async () => {
      const { spy, together } = await watching({}, { maxEventsPerScript: 3 });
      const tracked = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((trackingNumber) => together.track(orderEvent(trackingNumber)));
      // Nothing awaited yet: the two full scripts have been handed to the client, the last event waits for the turn's end.
      expect(spy.scripts.map((keys) => keys.length)).toEqual([3, 3]);
      expect(await Promise.all(tracked)).toMatchObject(tracked.map(() => ({ changed: true })));
      expect(spy.scripts.map((keys) => keys.length)).toEqual([3, 3, 1]);
    });

    it('wait while the store has a script on its way, then go together: one round trip each', async () => {
      const { spy, together } = await watching();
      spy.hold();
      const first = together.track(orderEvent('held'));
      await new Promise(setImmediate);
      const later = [together.track(orderEvent('next-1')), together.track(orderEvent('next-2'))];
      await new Promise(setImmediate);
      expect(spy.scripts).toEqual([[`${keyPrefix}held`]]);
      spy.release();
      expect(await Promise.all([first, ...later])).toMatchObject([{ changed: true }, { changed: true }, { changed: true }]);
      expect(spy.scripts).toEqual([[`${keyPrefix}held`], [`${keyPrefix}next-1`, `${keyPrefix}next-2`]]);
    });

    it('a key Redis refuses (WRONGTYPE) fails its own event only: the others of the script are recorded', async () => {
      const { spy, together } = await watching();
      expect(await command(server.port, ['SET', `${keyPrefix}taken`, 'not a sorted set'])).toBe('+OK');
      const [taken, ...others] = await Promise.allSettled(['taken', 'free-1', 'free-2'].map((trackingNumber) => together.track(orderEvent(trackingNumber))));
      expect(taken).toMatchObject({
        status: 'rejected',
        reason: { name: 'TrackerStoreError', operation: 'track', trackingNumber: 'taken', message: expect.stringContaining('WRONGTYPE') },
      });
      expect(others).toMatchObject([
        { status: 'fulfilled', value: { changed: true } },
        { status: 'fulfilled', value: { changed: true } },
      ]);
      expect(spy.scripts).toHaveLength(1);
      expect((await tracker.current('free-2'))?.trackingNumber).toBe('free-2');
    });

    it('go at most maxEventsPerScript to a script', async () => {
      const { spy, together } = await watching({}, { maxEventsPerScript: 2 });
      const events = ['a', 'b', 'c', 'd', 'e'].map((trackingNumber) => orderEvent(trackingNumber));
      expect(await Promise.all(events.map((event) => together.track(event)))).toMatchObject(events.map(() => ({ changed: true })));
      expect(spy.scripts.map((keys) => keys.length)).toEqual([2, 2, 1]);
    });

    if (clientName === 'ioredis')
      it('through ioredis with enableAutoPipelining, which writes once per turn, go at its end, a hundred to a script', async () => {
        const { spy, together } = await watching({ autoPipelining: true });
        const tracked = Array.from({ length: 120 }, (_, i) => together.track(orderEvent(`piped-${i}`)));
        expect(spy.scripts.map((keys) => keys.length)).toEqual([100]);
        await Promise.all(tracked);
        expect(spy.scripts.map((keys) => keys.length)).toEqual([100, 20]);
      });

    it('a burst that arrives while a script is on its way goes in scripts of 10, 20, 40 through ioredis, at once through node-redis', async () => {
      const { spy, together } = await watching();
      spy.hold();
      const first = together.track(orderEvent('ahead'));
      await new Promise(setImmediate);
      const burst = Array.from({ length: 35 }, (_, i) => together.track(orderEvent(`behind-${i}`)));
      expect(spy.scripts.map((keys) => keys.length)).toEqual(clientName === 'ioredis' ? [1, 10, 20] : [1]);
      spy.release();
      await Promise.all([first, ...burst]);
      expect(spy.scripts.map((keys) => keys.length)).toEqual(clientName === 'ioredis' ? [1, 10, 20, 5] : [1, 35]);
    });

    it("through a cluster client, go one per script: an order's key may live on any node", async () => {
      const { spy, together } = await watching({ cluster: true });
      await Promise.all(['a', 'b', 'c'].map((trackingNumber) => together.track(orderEvent(trackingNumber))));
      expect(spy.scripts).toEqual([[`${keyPrefix}a`], [`${keyPrefix}b`], [`${keyPrefix}c`]]);
    });

    it('behind a proxy that refuses keys of several slots (CROSSSLOT), are all recorded, and go one per script from then on', async () => {
      const crossSlot = new Error("CROSSSLOT Keys in request don't hash to the same slot");
      const { spy, together } = await watching({ refuse: (keys) => (keys.length > 1 ? crossSlot : undefined) });
      const burst = (names: string[]) => Promise.all(names.map((trackingNumber) => together.track(orderEvent(trackingNumber))));
      expect(await burst(['a', 'b'])).toMatchObject([{ changed: true }, { changed: true }]);
      expect(await burst(['c', 'd'])).toMatchObject([{ changed: true }, { changed: true }]);
      const key = (name: string) => `${keyPrefix}${name}`;
      expect(spy.scripts).toEqual([[key('a'), key('b')], [key('a')], [key('b')], [key('c')], [key('d')]]);
      expect((await tracker.history('b')).map((event) => event.trackingNumber)).toEqual(['b']);
    });
  });

  describe('keys and expiry', () => {
    it('keeps an order under one key, <keyPrefix><trackingNumber>, expiring ttlSeconds after its last event; a repeat counts', async () => {
      tracker = fresh({ ttlSeconds: 3600 });
      const body = webhookBody({ state: 24 });
      await tracker.track(parseWebhookEvent(body));
      const key = `${keyPrefix}${TN}`;
      expect(await command(server.port, ['KEYS', `${keyPrefix}*`])).toBe('*1');
      expect(await connected.ttl(key)).toBeGreaterThan(3000);
      // Shorten it as time would, then deliver the same event again.
      expect(await command(server.port, ['EXPIRE', key, '5'])).toBe(':1');
      await tracker.track(parseWebhookEvent(body));
      expect(await connected.ttl(key)).toBeGreaterThan(3000);
    });

    it('defaults to 30 days', async () => {
      await tracker.track(parseWebhookEvent(webhookBody()));
      const ttl = await connected.ttl(`${keyPrefix}${TN}`);
      expect(ttl).toBeGreaterThan(30 * 86_400 - 600);
      expect(ttl).toBeLessThanOrEqual(30 * 86_400);
    });

    it('sends the script text again when the server lost it (SCRIPT FLUSH, as after a restart)', async () => {
      await tracker.track(parseWebhookEvent(webhookBody({ state: 24 })));
      expect(await command(server.port, ['SCRIPT', 'FLUSH'])).toBe('+OK');
      expect(await tracker.track(parseWebhookEvent(webhookBody({ state: 41, timeStamp: T0 + MINUTE })))).toMatchObject({
        changed: true,
        previous: { state: 24 },
      });
    });
  });

  describe('a client that is connecting, and one that is down', () => {
    it('waits for a client still connecting: the first webhook after a cold start is stored, not a 500', async () => {
      const starting = startConnecting(clientName, server.port);
      try {
        const cold = createOrderTracker({ store: createRedisTrackerStore({ client: starting.client, keyPrefix }) });
        expect(await cold.track(parseWebhookEvent(webhookBody({ state: 24 })))).toMatchObject({ changed: true, duplicate: false });
        expect((await tracker.current(TN))?.state).toBe(24);
      } finally {
        starting.close();
      }
    });

    it('gives up after readyTimeoutMs when Redis never answers: a TrackerStoreError naming the option', async () => {
      const starting = startConnecting(clientName, await unusedPort());
      try {
        const cold = createOrderTracker({ store: createRedisTrackerStore({ client: starting.client, keyPrefix, readyTimeoutMs: 200 }) });
        const error = await cold.track(parseWebhookEvent(webhookBody())).catch((err: unknown) => err);
        expect(error).toBeInstanceOf(TrackerStoreError);
        expect(error).toMatchObject({ operation: 'track', message: expect.stringContaining('readyTimeoutMs') });
      } finally {
        starting.close();
      }
    });

    it('fails at once, without waiting, for a client that was closed', async () => {
      const starting = startConnecting(clientName, server.port);
      starting.close();
      // A minute's allowance: answering within the test's few seconds shows it did not wait.
      const closed = createOrderTracker({ store: createRedisTrackerStore({ client: starting.client, keyPrefix, readyTimeoutMs: 60_000 }) });
      await expect(closed.track(parseWebhookEvent(webhookBody()))).rejects.toBeInstanceOf(TrackerStoreError);
    });
  });

  describe("the key prefix: the tracker's own namespace", () => {
    it('is required, non-empty and ends in ":", so no tracking number reaches a key of the app', async () => {
      for (const keyPrefix of [undefined, '', ':', 'session', 'shop:tracker', 42]) {
        expect(() => createRedisTrackerStore({ client: connected.client, keyPrefix } as never)).toThrow(
          expect.objectContaining({ name: 'ConfigurationError', message: expect.stringContaining('keyPrefix') }),
        );
      }
    });
  });

  describe('failures', () => {
    it('a Redis error (here WRONGTYPE) becomes a TrackerStoreError naming the order, and the handler answers 500', async () => {
      expect(await command(server.port, ['SET', `${keyPrefix}${TN}`, 'not a sorted set'])).toBe('+OK');
      const error = await tracker.track(parseWebhookEvent(webhookBody())).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(TrackerStoreError);
      expect(error).toMatchObject({ operation: 'track', trackingNumber: TN, message: expect.stringContaining('WRONGTYPE') });
      const reported: unknown[] = [];
      const handler = createWebhookHandler({ onEvent: async (event) => void (await tracker.track(event)), onError: (err) => reported.push(err) });
      const response = await handler(
        new Request('http://127.0.0.1/webhooks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(webhookBody()) }),
      );
      expect(response.status).toBe(500);
      expect(reported[0]).toBeInstanceOf(TrackerStoreError);
    });

    it('stores an event nested too deeply for JSON to write without that field: 200 as in memory, never a 500 redelivered for ever', async () => {
      const depth = 5_000;
      const valid = JSON.stringify(webhookBody({ state: 45, cod: 980 }));
      const body = `${valid.slice(0, -1)},"note":${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}}`;
      const memory = createOrderTracker();
      const answers: number[] = [];
      for (const track of [(event: WebhookEvent) => tracker.track(event), (event: WebhookEvent) => memory.track(event)]) {
        const handler = createWebhookHandler({ onEvent: async (event) => void (await track(event)) });
        const request = new Request('http://127.0.0.1/webhooks', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        answers.push((await handler(request)).status);
      }
      expect(answers).toEqual([200, 200]);
      const stored = await tracker.current(TN);
      expect(stored).toMatchObject({ state: 45, cod: 980, trackingNumber: TN });
      expect(stored?.raw).not.toHaveProperty('note');
      expect(memory.current(TN)?.state).toBe(45);
    });

    it('refuses an event whose raw body says something else, storing nothing', async () => {
      const event = parseWebhookEvent(webhookBody({ state: 24 }));
      await expect(tracker.track({ ...event, state: 45, cod: 0 } as unknown as WebhookEvent)).rejects.toMatchObject({
        name: 'WebhookPayloadError',
        field: 'raw',
      });
      await expect(tracker.track(null as unknown as WebhookEvent)).rejects.toBeInstanceOf(WebhookPayloadError);
      expect(await tracker.history(TN)).toEqual([]);
    });

    it('fails the events of a script whose answer it cannot read with a TrackerStoreError, telling each apart', async () => {
      // A script answers one number per event, then the previous member when the number is odd.
      const answers = [[5], [4, 7], 'OK', [4, 2.5]];
      const reply = async () => answers.shift();
      const client = clientName === 'ioredis' ? { evalsha: reply, eval: reply } : { evalSha: reply, eval: reply };
      const odd = createOrderTracker({ store: createRedisTrackerStore({ client, keyPrefix: 'odd:', maxEventsPerScript: 2 }) });
      const events = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((trackingNumber) => parseWebhookEvent(webhookBody({ trackingNumber })));
      const settled = [];
      // One alone, then pairs: [5] lacks the member its 1 announces; [4, 7] answers a but not b's
      // previous member (7 is odd); 'OK' is no list; 2.5 is no answer.
      for (const pair of [[events[0]], [events[1], events[2]], [events[3], events[4]], [events[5], events[6]]])
        settled.push(...(await Promise.allSettled((pair as WebhookEvent[]).map((event) => odd.track(event)))));
      expect(settled.map((result) => result.status)).toEqual(['rejected', 'fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled', 'rejected']);
      for (const result of settled.filter((one) => one.status === 'rejected'))
        expect(result).toMatchObject({ reason: { name: 'TrackerStoreError', operation: 'track', message: expect.stringMatching(/unexpected reply/) } });
      expect(settled[1]).toMatchObject({ value: { changed: true, version: 1 } });
    });

    it('refuses a client that is neither, and a ttl, a wait or a script size that is not a positive whole number', () => {
      expect(() => createRedisTrackerStore({ client: {} as never, keyPrefix: 'shop:tracker:' })).toThrow(ConfigurationError);
      expect(() => createRedisTrackerStore(undefined as never)).toThrow(ConfigurationError);
      for (const ttlSeconds of [0, -1, 1.5, Number.NaN])
        expect(() => createRedisTrackerStore({ client: connected.client, keyPrefix: 'shop:', ttlSeconds })).toThrow(/ttlSeconds/);
      for (const readyTimeoutMs of [0, -1, 1.5, Infinity])
        expect(() => createRedisTrackerStore({ client: connected.client, keyPrefix: 'shop:', readyTimeoutMs })).toThrow(/readyTimeoutMs/);
      for (const maxEventsPerScript of [0, -1, 1.5, Infinity])
        expect(() => createRedisTrackerStore({ client: connected.client, keyPrefix: 'shop:', maxEventsPerScript })).toThrow(/maxEventsPerScript/);
      expect(() => createOrderTracker({ store: { record: async () => ({ duplicate: false, previous: undefined }) } as never })).toThrow(/store\.current/);
    });
  });
});

describe('the order tracker on Redis, while its client reconnects', () => {
  it('writes the events in the order they came: none sent once the client is ready goes before those parked while it was not', async () => {
    const written: string[] = [];
    // An ioredis client as it is while it reconnects, answering each event as a new order's first (4).
    const client = {
      status: 'ready',
      evalsha: async (_sha: string, keyCount: number, ...keysAndArgs: string[]) => {
        const keys = keysAndArgs.slice(0, keyCount);
        written.push(...keys);
        return keys.map(() => 4);
      },
      eval: async () => {
        throw new Error('the script is cached');
      },
    };
    const tracker = createOrderTracker({ store: createRedisTrackerStore({ client, keyPrefix: 'o:', maxEventsPerScript: 1 }) });
    const track = (trackingNumber: string) => tracker.track(parseWebhookEvent(webhookBody({ trackingNumber })));
    await track('1000000000');
    written.length = 0;
    client.status = 'reconnecting';
    const first = ['1000000001', '1000000002', '1000000003'].map(track);
    await new Promise((resolve) => setTimeout(resolve, 5));
    client.status = 'ready';
    const second = ['1000000004', '1000000005'].map(track);
    await Promise.all([...first, ...second]);
    expect(written.map((key) => key.replace(/\D/g, ''))).toEqual(['1000000001', '1000000002', '1000000003', '1000000004', '1000000005']);
  });
});
