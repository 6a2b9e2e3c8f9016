// One instance of a merchant's webhook route: its own Redis client, the SDK's handler, and the
// order tracker on Redis. instances.test.ts runs several in its own process, each on a connection
// of its own (to Redis they are as separate as processes), and one in a process of its own
// (worker.ts) where a property needs a process to kill.
import { createOrderTracker, createWebhookHandler, type TrackResult } from '../../../src/webhooks/index.js';
import { createRedisTrackerStore } from '../../../src/webhooks/redis.js';
import { type ClientName, connect } from './clients.js';

/** What the tracker reported for a delivery, each event named by its time (the test gives every event of an order its own). */
export interface Report {
  readonly changed: boolean;
  readonly duplicate: boolean;
  readonly stale: boolean;
  readonly current: number;
  readonly previous: number | null;
}

/** The handler's answer to one delivery: what the service would get, and what the tracker reported (none when it failed). */
export interface InstanceAnswer {
  readonly status: number;
  readonly report: Report | null;
}

export interface Instance {
  deliver(body: Readonly<Record<string, unknown>>): Promise<InstanceAnswer>;
  close(): Promise<void>;
}

export async function openInstance(clientName: ClientName, port: number, keyPrefix: string): Promise<Instance> {
  const connected = await connect(clientName, port);
  const tracker = createOrderTracker({ store: createRedisTrackerStore({ client: connected.client, keyPrefix }) });
  const results = new WeakMap<Request, TrackResult>();
  const handler = createWebhookHandler({
    onEvent: async (event, request) => {
      results.set(request, await tracker.track(event));
    },
  });
  return {
    async deliver(body) {
      const request = new Request('http://127.0.0.1/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const response = await handler(request);
      const result = results.get(request);
      const report =
        result === undefined
          ? null
          : {
              changed: result.changed,
              duplicate: result.duplicate,
              stale: result.stale,
              current: result.current.timeStamp ?? Number.NaN,
              previous: result.previous?.timeStamp ?? null,
            };
      return { status: response.status, report };
    },
    close: () => connected.close(),
  };
}
