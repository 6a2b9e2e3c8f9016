/**
 * One process run of the Redis tracker benchmark, for one client (ioredis or node-redis):
 * `tracker.track(event)` against a plain `SET key body EX 600` of the same body on the same
 * connection, in blocks of `concurrency` calls, the variants' order shuffled every round.
 * Sequentially, each call is timed; at concurrency, each block is `concurrency` calls started at
 * once and timed until the last has answered. Every tracked event is a new order's (the whole
 * script runs: look up, insert, expire), and every SET a new key, as an order's first write is.
 * The in-memory tracker takes the same events for reference.
 */
import { pathToFileURL } from 'node:url';
import { childMain } from './child.mjs';
import { median, quantile, shuffled } from './stats.mjs';

childMain(async ({ webhooksModule, redisModule, clientName, port, rounds, concurrency, warmup }) => {
  const { createOrderTracker, parseWebhookEvent } = await import(pathToFileURL(webhooksModule).href);
  const { createRedisTrackerStore } = await import(pathToFileURL(redisModule).href);
  const { client, set, close } = await connect(clientName, port);
  const run = `${clientName}:${process.pid}`;
  const tracker = createOrderTracker({ store: createRedisTrackerStore({ client, keyPrefix: `bench:${run}:`, ttlSeconds: 600 }) });
  const memory = createOrderTracker();

  // Made before timing, from the JSON text as a webhook route receives it.
  const total = warmup + 2 * rounds * concurrency;
  const events = Array.from({ length: total }, (_, i) =>
    parseWebhookEvent(
      JSON.stringify({
        _id: '65b8c0f2a1d4e5f6a7b8c9d0',
        trackingNumber: 1_000_000_000 + i,
        state: 24,
        type: 'FXF_SEND',
        timeStamp: 1_738_227_600_000 + i,
        businessReference: 'BENCH',
        numberOfAttempts: 0,
      }),
    ),
  );
  const body = JSON.stringify(events[0].raw);
  const next = { set: 0, track: 0, memory: 0 };
  const variants = {
    set: () => set(`bench:${run}:set:${next.set++}`, body),
    track: () => tracker.track(events[next.track++]),
    memory: async () => memory.track(events[next.memory++]),
  };

  for (let i = 0; i < warmup; i++) for (const call of Object.values(variants)) await call();

  const names = Object.keys(variants);
  const sequential = Object.fromEntries(names.map((name) => [name, []]));
  const blocks = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const name of shuffled(names)) {
      for (let i = 0; i < concurrency; i++) {
        const t0 = performance.now();
        await variants[name]();
        sequential[name].push(performance.now() - t0);
      }
    }
    for (const name of shuffled(names)) {
      const t0 = performance.now();
      await Promise.all(Array.from({ length: concurrency }, variants[name]));
      blocks[name].push(performance.now() - t0);
    }
  }
  await close();

  const perSecond = (durations, calls) => (1000 * calls * durations.length) / durations.reduce((a, b) => a + b, 0);
  return {
    clientName,
    sequential: Object.fromEntries(
      names.map((name) => [name, { median: median(sequential[name]), p99: quantile(sequential[name], 0.99), perSecond: perSecond(sequential[name], 1) }]),
    ),
    concurrent: Object.fromEntries(
      names.map((name) => [name, { median: median(blocks[name]), p99: quantile(blocks[name], 0.99), perSecond: perSecond(blocks[name], concurrency) }]),
    ),
  };
});

async function connect(clientName, port) {
  if (clientName === 'ioredis') {
    const { Redis } = await import('ioredis');
    const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true });
    await client.connect();
    return { client, set: (key, value) => client.set(key, value, 'EX', 600), close: async () => client.disconnect() };
  }
  const { createClient } = await import('redis');
  const client = createClient({ url: `redis://127.0.0.1:${port}` });
  await client.connect();
  return { client, set: (key, value) => client.set(key, value, { EX: 600 }), close: async () => client.destroy() };
}
