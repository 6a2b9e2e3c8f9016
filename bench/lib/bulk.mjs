/**
 * Bulk creation against the sandbox, two ways, each in a child process of its own:
 * - `mode: 'rounds'`: time. The SDK's `createBulk` of an array and its baselines (the same chunks
 *   posted by plain ky, and by raw fetch for reference) interleaved in rounds of one process,
 *   the order of the variants rotating per round, so drift (JIT, GC, the sandbox's growing
 *   store) falls on every variant alike. Orders per second: the median over rounds.
 * - `mode: 'memory'`: the client process's peak RSS while `streamBulk` uploads `count` orders
 *   read from a generator, outcomes read and dropped: what a CI upload of any length holds.
 * The orders share their nested objects, as rows mapped from one template would, so the input
 * itself weighs little and RSS shows what the SDK holds.
 */
import { pathToFileURL } from 'node:url';
import { childMain } from './child.mjs';
import { realisticOrder } from './order.mjs';
import { runPool } from './pool.mjs';
import { prepareAccount } from './sandbox-account.mjs';
import { median, rotate } from './stats.mjs';

const CHUNK = 100;
const CONCURRENCY = 4;

/** The baselines: the orders in chunks of the SDK's default size, posted with its default concurrency by plain ky (`ky.post(url, { json }).json()`) or raw fetch. */
async function plainBulk(orders, { baseUrl, apiKey, ky }) {
  const url = `${baseUrl}/deliveries/bulk?apiVersion=1`;
  const headers = { accept: 'application/json', 'content-type': 'application/json', authorization: apiKey };
  const post = async (chunk) => {
    if (ky !== undefined) return ky.post(url, { json: { deliveries: chunk, deleteFailedDeliveries: false }, headers: { authorization: apiKey } }).json();
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ deliveries: chunk, deleteFailedDeliveries: false }) });
    const body = await response.json();
    if (!response.ok) throw new Error(`raw fetch bulk: HTTP ${response.status} ${body?.message ?? ''}`);
    return body;
  };
  let created = 0;
  await runPool(Math.ceil(orders.length / CHUNK), CONCURRENCY, async (index) => {
    // Read the answer first: `created += await ...` would read `created` before the await and lose the other workers' additions.
    const answer = await post(orders.slice(index * CHUNK, (index + 1) * CHUNK));
    created += answer.data.createdDeliveriesIds.length;
  });
  return { created, failed: orders.length - created };
}

const sizeOf = (value) => (typeof value === 'number' ? value : Array.isArray(value) ? value.length : 0);

childMain(async ({ targets, kyPath, baseUrl, apiKey, count, mode = 'rounds', rounds = 3 }) => {
  const { DeliveryClient } = await import(pathToFileURL(targets.main).href);
  const client = new DeliveryClient({ baseUrl, apiKey });
  if (typeof client.deliveries?.createBulk !== 'function') return { missing: '`deliveries.createBulk`' };
  const template = realisticOrder(await prepareAccount(client));

  if (mode === 'memory') {
    if (typeof client.deliveries.streamBulk !== 'function') return { missing: '`deliveries.streamBulk`' };
    function* rows() {
      for (let i = 0; i < count; i++) yield { ...template, businessReference: `STREAM-${i}` };
    }
    const rssBefore = process.memoryUsage().rss;
    const t0 = performance.now();
    let created = 0;
    let failed = 0;
    for await (const outcome of client.deliveries.streamBulk(rows(), { chunkSize: CHUNK, concurrency: CONCURRENCY })) {
      created += outcome.created.length;
      failed += outcome.failed.length;
    }
    // maxRSS is the true high-water mark in KiB, sampled by the kernel, not by a timer of ours.
    return { count, created, failed, seconds: (performance.now() - t0) / 1000, rssBefore, peakRss: process.resourceUsage().maxRSS * 1024 };
  }

  const ky = kyPath === undefined ? undefined : (await import(pathToFileURL(kyPath).href)).default;
  let round = 0;
  const variants = {
    // A chunk that failed (a connection closed under load, say) is counted in `failed`, not fatal to the run.
    sdk: (orders) =>
      client.deliveries.createBulk(orders, { chunkSize: CHUNK, concurrency: CONCURRENCY }).catch((error) => error?.result ?? Promise.reject(error)),
    fetch: (orders) => plainBulk(orders, { baseUrl, apiKey }),
    ...(ky === undefined ? {} : { ky: (orders) => plainBulk(orders, { baseUrl, apiKey, ky }) }),
  };
  const seconds = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  const failures = Object.fromEntries(Object.keys(variants).map((name) => [name, 0]));
  for (; round < rounds; round++) {
    for (const name of rotate(Object.keys(variants), round)) {
      // Fresh references per variant and round: the sandbox refuses nothing, and the SDK's check of repeats stays honest.
      const orders = Array.from({ length: count }, (_, i) => ({ ...template, businessReference: `${name}-${round}-${i}` }));
      const t0 = performance.now();
      const result = await variants[name](orders);
      seconds[name].push((performance.now() - t0) / 1000);
      failures[name] += sizeOf(result?.failed);
    }
  }
  const rate = (name) => (seconds[name] === undefined ? undefined : count / median(seconds[name]));
  return {
    count,
    rounds,
    ordersPerSecond: rate('sdk'),
    kyOrdersPerSecond: rate('ky'),
    fetchOrdersPerSecond: rate('fetch'),
    failed: failures.sdk,
    baselineFailed: failures.ky ?? 0,
  };
});
