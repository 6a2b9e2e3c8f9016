/**
 * Bulk creation, two ways, each in a child process of its own:
 * - `mode: 'time'`: the SDK's `createBulk` of an array, its `streamBulk` of the same orders from an
 *   iterator, and their baselines (the same chunks posted by plain ky, and by raw fetch), `rounds`
 *   times in one process, their order shuffled in each round, so that drift (JIT, GC, a server's
 *   growing store) falls on every variant alike; `only` names the variants to run. Seconds and
 *   client CPU seconds (`process.cpuUsage()`) of each, per round. Against the cheap server
 *   (echo-server.mjs) or, for reference, the SDK's sandbox (`sandbox: true`, an account set up first).
 * - `mode: 'memory'`: the client process's RSS growth (peak minus starting) while `variant`
 *   uploads `count` orders read from a generator, outcomes read and dropped: the SDK's `streamBulk`,
 *   or plain ky posting the same chunks at the same concurrency.
 * The orders share their nested objects, as rows mapped from one template would, so the input
 * itself weighs little and RSS shows what the client holds.
 */
import { pathToFileURL } from 'node:url';
import { childMain } from './child.mjs';
import { realisticOrder } from './order.mjs';
import { runPool } from './pool.mjs';
import { prepareAccount } from './sandbox-account.mjs';
import { shuffled } from './stats.mjs';

const CHUNK = 100;
const CONCURRENCY = 4;

/** Posts one chunk as the baselines do: plain ky (`ky.post(url, { json }).json()`) or raw fetch. */
function chunkPoster({ baseUrl, apiKey, ky }) {
  const url = `${baseUrl}/deliveries/bulk?apiVersion=1`;
  const headers = { accept: 'application/json', 'content-type': 'application/json', authorization: apiKey };
  return async (chunk) => {
    const body = { deliveries: chunk, deleteFailedDeliveries: false };
    if (ky !== undefined) return ky.post(url, { json: body, headers: { authorization: apiKey } }).json();
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
    const answer = await response.json();
    if (!response.ok) throw new Error(`raw fetch bulk: HTTP ${response.status} ${answer?.message ?? ''}`);
    return answer;
  };
}

/** The baselines: the orders in chunks of the SDK's default size, posted with its default concurrency. */
async function plainBulk(orders, post) {
  let created = 0;
  await runPool(Math.ceil(orders.length / CHUNK), CONCURRENCY, async (index) => {
    // Read the answer first: `created += await ...` would read `created` before the await and lose the other workers' additions.
    const answer = await post(orders.slice(index * CHUNK, (index + 1) * CHUNK));
    created += answer.data.createdDeliveriesIds.length;
  });
  return { created, failed: orders.length - created };
}

/** The baseline of streaming: chunks pulled from `rows` as each of CONCURRENCY workers gets free, answers dropped. */
async function plainStream(rows, post) {
  const source = rows[Symbol.iterator]();
  let created = 0;
  const worker = async () => {
    for (;;) {
      const chunk = [];
      for (let next = source.next(); !next.done; next = chunk.length < CHUNK ? source.next() : { done: true }) chunk.push(next.value);
      if (chunk.length === 0) return;
      const answer = await post(chunk);
      created += answer.data.createdDeliveriesIds.length;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return created;
}

const sizeOf = (value) => (typeof value === 'number' ? value : Array.isArray(value) ? value.length : 0);
const cpuSeconds = (usage) => (usage.user + usage.system) / 1e6;

childMain(async ({ targets, kyPath, baseUrl, apiKey, count, mode, variant, sandbox = false, run = 0, rounds = 1, only }) => {
  const { DeliveryClient } = await import(pathToFileURL(targets.main).href);
  const client = new DeliveryClient({ baseUrl, apiKey });
  if (typeof client.deliveries?.createBulk !== 'function') return { missing: '`deliveries.createBulk`' };
  const template = realisticOrder(sandbox ? await prepareAccount(client) : {});
  const ky = kyPath === undefined ? undefined : (await import(pathToFileURL(kyPath).href)).default;

  if (mode === 'memory') {
    function* rows() {
      for (let i = 0; i < count; i++) yield { ...template, businessReference: `STREAM-${i}` };
    }
    if (variant === 'sdk' && typeof client.deliveries.streamBulk !== 'function') return { missing: '`deliveries.streamBulk`' };
    if (variant === 'ky' && ky === undefined) return { missing: 'ky' };
    const rssBefore = process.memoryUsage().rss;
    const t0 = performance.now();
    let created = 0;
    if (variant === 'sdk') {
      for await (const outcome of client.deliveries.streamBulk(rows(), { chunkSize: CHUNK, concurrency: CONCURRENCY })) created += outcome.created.length;
    } else {
      created = await plainStream(rows(), chunkPoster({ baseUrl, apiKey, ky }));
    }
    // maxRSS is the true high-water mark in KiB, sampled by the kernel, not by a timer of ours.
    return { count, created, seconds: (performance.now() - t0) / 1000, rssBefore, peakRss: process.resourceUsage().maxRSS * 1024 };
  }

  // createBulk checks an array whole before sending; streamBulk takes any iterable and checks it
  // chunk by chunk (given the array's iterator, not the array, as a stream's source is).
  const all = {
    // A chunk that failed (a connection closed under load, say) is counted in `failed`, not fatal to the run.
    createBulk: (orders) =>
      client.deliveries.createBulk(orders, { chunkSize: CHUNK, concurrency: CONCURRENCY }).catch((error) => error?.result ?? Promise.reject(error)),
    streamBulk: async (orders) => {
      const failed = [];
      for await (const outcome of client.deliveries.streamBulk(orders.values(), { chunkSize: CHUNK, concurrency: CONCURRENCY })) failed.push(...outcome.failed);
      return { failed };
    },
    fetch: (orders) => plainBulk(orders, chunkPoster({ baseUrl, apiKey })),
    ...(ky === undefined ? {} : { ky: (orders) => plainBulk(orders, chunkPoster({ baseUrl, apiKey, ky })) }),
  };
  const variants = Object.fromEntries(Object.entries(all).filter(([name]) => only === undefined || only.includes(name)));
  // One untimed upload each first: the first chunk's connections and code paths warm for all alike.
  for (const [name, upload] of Object.entries(variants))
    await upload(Array.from({ length: CHUNK * CONCURRENCY }, (_, i) => ({ ...template, businessReference: `warm-${name}-${i}` })));
  // Several rounds in this process, the variants' order shuffled in each: a ratio is taken within
  // a round, so what the machine does meanwhile falls on both sides of it.
  const results = [];
  for (let round = 0; round < rounds; round++) {
    const result = {};
    for (const name of shuffled(Object.keys(variants))) {
      // Fresh references per variant, run and round: the sandbox refuses nothing, and the SDK's check of repeats stays honest.
      const orders = Array.from({ length: count }, (_, i) => ({ ...template, businessReference: `${name}-${run}-${round}-${i}` }));
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const outcome = await variants[name](orders);
      result[name] = { seconds: (performance.now() - t0) / 1000, cpuSeconds: cpuSeconds(process.cpuUsage(cpu0)), failed: sizeOf(outcome?.failed) };
    }
    results.push(result);
  }
  return { count, rounds: results };
});
