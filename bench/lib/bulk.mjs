/**
 * `deliveries.createBulk` of `count` orders against the sandbox: orders per second and the
 * client process's peak RSS; with `variant: 'fetch'`, the same upload as raw fetch POSTs (the baseline). The orders share their nested objects, as rows mapped from one
 * template would, so the input itself weighs little and RSS shows what the SDK holds.
 */
import { pathToFileURL } from 'node:url';
import { childMain } from './child.mjs';
import { realisticOrder } from './order.mjs';
import { prepareAccount } from './sandbox-account.mjs';

/** heapUsed after full collections (the child runs with --expose-gc). */
const liveHeap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};

const sizeOf = (value) => (value instanceof Map ? value.size : Array.isArray(value) ? value.filter((item) => item !== undefined).length : Object.keys(value ?? {}).length);

const CHUNK = 100;
const CONCURRENCY = 4;

/** The baseline: the orders in chunks of the SDK's default size, posted as raw fetch calls with its default concurrency. */
async function rawFetchBulk(orders, { baseUrl, apiKey }) {
  const url = `${baseUrl}/deliveries/bulk?apiVersion=1`;
  const headers = { accept: 'application/json', 'content-type': 'application/json', authorization: apiKey };
  let next = 0;
  let created = 0;
  const worker = async () => {
    while (next < orders.length) {
      const chunk = orders.slice(next, (next += CHUNK));
      const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ deliveries: chunk, deleteFailedDeliveries: false }) });
      const body = await response.json();
      if (!response.ok) throw new Error(`raw fetch bulk: HTTP ${response.status} ${body?.message ?? ''}`);
      created += body.data.createdDeliveriesIds.length;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { created };
}

childMain(async ({ targets, baseUrl, apiKey, count, variant = 'sdk' }) => {
  const { DeliveryClient } = await import(pathToFileURL(targets.main).href);
  const client = new DeliveryClient({ baseUrl, apiKey });
  if (typeof client.deliveries?.createBulk !== 'function') return { missing: '`deliveries.createBulk`' };

  const template = realisticOrder(await prepareAccount(client));
  let orders = Array.from({ length: count }, (_, i) => ({ ...template, businessReference: `BULK-${i}` }));
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  let result = variant === 'fetch' ? await rawFetchBulk(orders, { baseUrl, apiKey }) : await client.deliveries.createBulk(orders, { chunkSize: CHUNK, concurrency: CONCURRENCY });
  const seconds = (performance.now() - t0) / 1000;
  // maxRSS is the true high-water mark in KiB, sampled by the kernel, not by a timer of ours.
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const created = typeof result?.created === 'number' ? result.created : sizeOf(result?.created);
  const failed = sizeOf(result?.failed);
  // What the input and the result keep reachable, per order (collections only after the peak was read).
  const heapWith = liveHeap();
  orders = result = undefined;
  const heldPerOrder = (heapWith - liveHeap()) / count;
  return { count, created, failed, seconds, ordersPerSecond: count / seconds, rssBefore, peakRss, heldPerOrder };
});
