/**
 * One process run of the Redis tracker benchmark, for one client (ioredis or node-redis): a plain
 * SET of a webhook body and `tracker.track(event)` on the same connection, each `calls` times
 * sequentially and `calls` times at `concurrency`, interleaved in blocks whose order rotates; and
 * the in-memory tracker on the same events. Every tracked event is new (its own order and time),
 * so each `track` runs the whole script: look up, insert, expire.
 */
import { pathToFileURL } from 'node:url';
import { runConcurrent } from './callers.mjs';
import { childMain } from './child.mjs';
import { median, quantile, rotate } from './stats.mjs';

childMain(async ({ webhooksModule, redisModule, clientName, port, calls, concurrency, block, warmup }) => {
  const { createOrderTracker, parseWebhookEvent } = await import(pathToFileURL(webhooksModule).href);
  const { createRedisTrackerStore } = await import(pathToFileURL(redisModule).href);
  const { client, set, close } = await connect(clientName, port);
  const tracker = createOrderTracker({ store: createRedisTrackerStore({ client, keyPrefix: `bench:${clientName}:`, ttlSeconds: 600 }) });
  const memory = createOrderTracker();

  // Ten events per order, as a delivery's life has; made before timing.
  const total = warmup + 4 * calls;
  const events = Array.from({ length: total }, (_, i) =>
    parseWebhookEvent({
      _id: '65b8c0f2a1d4e5f6a7b8c9d0',
      trackingNumber: 1_000_000_000 + Math.floor(i / 10),
      state: 24,
      type: 'FXF_SEND',
      timeStamp: 1_738_227_600_000 + i,
      businessReference: 'BENCH',
      numberOfAttempts: 0,
    }),
  );
  const body = JSON.stringify(events[0].raw);
  let nextEvent = 0;
  let nextKey = 0;
  const variants = {
    set: () => set(`bench:${clientName}:set:${nextKey++ % 1000}`, body),
    track: () => tracker.track(events[nextEvent++]),
  };
  let nextMemory = 0;
  const memoryTrack = async () => memory.track(events[nextMemory++ % total]);

  for (let i = 0; i < warmup; i++) {
    await variants.set();
    await variants.track();
  }

  const names = Object.keys(variants);
  const sequential = { set: [], track: [] };
  const concurrent = { set: [], track: [] };
  const wall = { set: 0, track: 0 };
  for (let b = 0; b < calls / block; b++) {
    for (const name of rotate(names, b)) {
      for (let i = 0; i < block; i++) {
        const t0 = performance.now();
        await variants[name]();
        sequential[name].push(performance.now() - t0);
      }
    }
    for (const name of rotate(names, b + 1)) {
      const t0 = performance.now();
      await runConcurrent(variants[name], block, concurrency, concurrent[name]);
      wall[name] += performance.now() - t0;
    }
  }

  // The in-memory tracker, for reference: the same events, the same harness.
  const memorySequential = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await memoryTrack();
    memorySequential.push(performance.now() - t0);
  }
  const memoryConcurrent = [];
  const memoryStart = performance.now();
  await runConcurrent(memoryTrack, calls, concurrency, memoryConcurrent);
  const memoryWall = performance.now() - memoryStart;
  await close();

  const summary = (durations) => ({ median: median(durations), p99: quantile(durations, 0.99) });
  const sum = (durations) => durations.reduce((a, b) => a + b, 0);
  return {
    clientName,
    sequential: {
      set: { ...summary(sequential.set), perSecond: (1000 * calls) / sum(sequential.set) },
      track: { ...summary(sequential.track), perSecond: (1000 * calls) / sum(sequential.track) },
      memory: { ...summary(memorySequential), perSecond: (1000 * calls) / sum(memorySequential) },
    },
    concurrent: {
      set: { ...summary(concurrent.set), perSecond: (1000 * calls) / wall.set },
      track: { ...summary(concurrent.track), perSecond: (1000 * calls) / wall.track },
      memory: { ...summary(memoryConcurrent), perSecond: (1000 * calls) / memoryWall },
    },
  };
});

async function connect(clientName, port) {
  if (clientName === 'ioredis') {
    const { Redis } = await import('ioredis');
    const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true });
    await client.connect();
    return { client, set: (key, value) => client.set(key, value), close: async () => client.disconnect() };
  }
  const { createClient } = await import('redis');
  const client = createClient({ url: `redis://127.0.0.1:${port}` });
  await client.connect();
  return { client, set: (key, value) => client.set(key, value), close: async () => client.destroy() };
}
