import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type AsyncOrderTracker,
  createOrderTracker,
  type OrderTracker,
  type OrderTrackerStore,
  type TrackResult,
  type WebhookEvent,
} from '../../../src/webhooks/index.js';
import { createRedisTrackerStore } from '../../../src/webhooks/redis.js';

declare const store: OrderTrackerStore;
declare const maybeStore: OrderTrackerStore | undefined;
declare const event: WebhookEvent;

describe('createOrderTracker', () => {
  it('answers at once without a store, as before', () => {
    expectTypeOf(createOrderTracker()).toEqualTypeOf<OrderTracker>();
    expectTypeOf(createOrderTracker({})).toEqualTypeOf<OrderTracker>();
    expectTypeOf(createOrderTracker({ store: undefined })).toEqualTypeOf<OrderTracker>();
    expectTypeOf(createOrderTracker().track(event)).toEqualTypeOf<TrackResult>();
    expectTypeOf(createOrderTracker().current('1')).toEqualTypeOf<WebhookEvent | undefined>();
    expectTypeOf(createOrderTracker().forget('1')).toEqualTypeOf<boolean>();
  });

  it('answers with promises with a store', () => {
    const tracker = createOrderTracker({ store });
    expectTypeOf(tracker).toEqualTypeOf<AsyncOrderTracker>();
    expectTypeOf(tracker.track(event)).toEqualTypeOf<Promise<TrackResult>>();
    expectTypeOf(tracker.current('1')).toEqualTypeOf<Promise<WebhookEvent | undefined>>();
    expectTypeOf(tracker.history('1')).toEqualTypeOf<Promise<readonly WebhookEvent[]>>();
    expectTypeOf(tracker.forget('1')).toEqualTypeOf<Promise<boolean>>();
    // @ts-expect-error a promise has no `changed`: await it
    void tracker.track(event).changed;
  });

  it('with a store that may be missing, either', () => {
    expectTypeOf(createOrderTracker({ store: maybeStore })).toEqualTypeOf<OrderTracker | AsyncOrderTracker>();
  });

  it('refuses a store without its methods', () => {
    // @ts-expect-error record, current, history and forget are required
    createOrderTracker({ store: { record: store.record } });
  });
});

describe('createRedisTrackerStore', () => {
  it('takes an ioredis client or cluster, and a node-redis client or cluster', () => {
    expectTypeOf(createRedisTrackerStore({ client: new Redis(), keyPrefix: 'shop:tracker:' })).toEqualTypeOf<OrderTrackerStore>();
    createRedisTrackerStore({ client: new Cluster([]), keyPrefix: 'shop:tracker:', readyTimeoutMs: 500 });
    createRedisTrackerStore({ client: createClient(), keyPrefix: 'shop:', ttlSeconds: 86_400 });
    createRedisTrackerStore({ client: createCluster({ rootNodes: [] }), keyPrefix: 'shop:tracker:' });
    expectTypeOf(
      createOrderTracker({ store: createRedisTrackerStore({ client: createClient(), keyPrefix: 'shop:tracker:' }) }),
    ).toEqualTypeOf<AsyncOrderTracker>();
  });

  it('refuses anything else', () => {
    // @ts-expect-error not a Redis client
    createRedisTrackerStore({ client: { get: async () => null } });
    // @ts-expect-error client is required
    createRedisTrackerStore({ ttlSeconds: 60 });
  });
});
