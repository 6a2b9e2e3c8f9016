// The ordering key for writes outside the tracker: two instances on one Redis, events of one order
// sharing a timestamp, tracked in either order and written to a database in either order. The
// database row, written only when the stored version is lower, always ends with the tracker's
// current state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AsyncOrderTracker, createOrderTracker, parseWebhookEvent, type TrackResult, type WebhookEvent } from '../../../src/webhooks/index.js';
import { createRedisTrackerStore } from '../../../src/webhooks/redis.js';
import { T0, webhookBody } from '../../support/webhook-bodies.js';
import { CLIENT_NAMES, type ConnectedClient, connect } from './clients.js';
import { type RedisServer, SKIP_WITHOUT_REDIS, startRedisServer } from './server.js';

let server: RedisServer;
beforeAll(async () => {
  if (!SKIP_WITHOUT_REDIS) server = await startRedisServer();
});
afterAll(() => server?.dispose());

/** `UPDATE orders SET state = $2, tracker_version = $3 WHERE ... AND tracker_version < $3`, in memory. */
function database() {
  const row: { state?: number; version?: number } = {};
  return {
    row,
    write(result: TrackResult): void {
      if (result.version === undefined) throw new Error('the Redis store reports a version');
      if (row.version === undefined || row.version < result.version) Object.assign(row, { state: result.current.state, version: result.version });
    },
  };
}

let orders = 0;

describe.skipIf(SKIP_WITHOUT_REDIS).each(CLIENT_NAMES)('the tracker version, through %s', (clientName) => {
  const clients: ConnectedClient[] = [];
  beforeAll(async () => {
    clients.push(await connect(clientName, server.port), await connect(clientName, server.port));
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
  });

  // Picked up (41) and Delivered (45) in the same millisecond, each to its own instance.
  it.each([
    ['41 first, writes in tracking order', [41, 45], false],
    ['41 first, writes reversed', [41, 45], true],
    ['45 first, writes in tracking order', [45, 41], false],
    ['45 first, writes reversed', [45, 41], true],
  ] as const)('%s: the database keeps the tracker current state', async (_, states, reverseWrites) => {
    const keyPrefix = `version:${clientName}:${++orders}:`;
    const [a, b] = clients.map((client) => createOrderTracker({ store: createRedisTrackerStore({ client: client.client, keyPrefix }) })) as [
      AsyncOrderTracker,
      AsyncOrderTracker,
    ];
    const [early, late] = states.map((state) => parseWebhookEvent(webhookBody({ state, timeStamp: T0, ...(state === 45 ? { cod: 100 } : {}) }))) as [
      WebhookEvent,
      WebhookEvent,
    ];
    const first = await a.track(early);
    const second = await b.track(late);
    const db = database();
    for (const result of reverseWrites ? [second, first] : [first, second]) db.write(result);
    const current = await a.current(early.trackingNumber);
    expect(second.version).toBeGreaterThan(first.version ?? Number.POSITIVE_INFINITY);
    expect(db.row.state).toBe(current?.state);
    // A repeat delivered to either instance does not move the version.
    expect((await b.track(early)).version).toBe(second.version);
  });
});
