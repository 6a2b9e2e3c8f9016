// One instance of a merchant's webhook route, as a process of its own (forked by instances.test.ts):
// its own Redis client, the SDK's handler, and the order tracker on Redis. The parent plays the
// service: it sends deliveries over IPC, and the worker answers each with the handler's status and
// what the tracker reported. An answer is the acknowledgement the service would get.
//
// Usage: node --import tsx worker.ts <ioredis|node-redis> <port> <keyPrefix>
import { createOrderTracker, createWebhookHandler, type TrackResult } from '../../../src/webhooks/index.js';
import { createRedisTrackerStore } from '../../../src/webhooks/redis.js';
import { type ClientName, connect } from './clients.js';

/** An event named by its order and time (the test gives every event of an order its own time). */
export interface Report {
  readonly changed: boolean;
  readonly duplicate: boolean;
  readonly stale: boolean;
  readonly current: number;
  readonly previous: number | null;
}
export type FromParent = { readonly delivery: number; readonly body: Readonly<Record<string, unknown>> };
export type FromWorker = { readonly ready: true } | { readonly delivery: number; readonly status: number; readonly report: Report | null };

const [clientName, port, keyPrefix = ''] = process.argv.slice(2);
const connected = await connect(clientName as ClientName, Number(port));
const tracker = createOrderTracker({ store: createRedisTrackerStore({ client: connected.client, keyPrefix }) });
const reports = new WeakMap<Request, TrackResult>();
const handler = createWebhookHandler({
  onEvent: async (event, request) => {
    reports.set(request, await tracker.track(event));
  },
});

process.on('message', (message: FromParent) => {
  void (async () => {
    const request = new Request('http://127.0.0.1/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message.body),
    });
    const response = await handler(request);
    const result = reports.get(request);
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
    process.send?.({ delivery: message.delivery, status: response.status, report } satisfies FromWorker);
  })();
});
// The parent closes the channel when it has nothing more to send and every answer came.
process.on('disconnect', () => {
  void connected.close().then(() => process.exit(0));
});
process.send?.({ ready: true } satisfies FromWorker);
