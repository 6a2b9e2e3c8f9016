/**
 * `deliveries.createBulk` of `count` orders against the sandbox: orders per second and the
 * client process's peak RSS. The orders share their nested objects, as rows mapped from one
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

childMain(async ({ targets, baseUrl, apiKey, count }) => {
  const { DeliveryClient } = await import(pathToFileURL(targets.main).href);
  const client = new DeliveryClient({ baseUrl, apiKey });
  if (typeof client.deliveries?.createBulk !== 'function') return { missing: '`deliveries.createBulk`' };

  const template = realisticOrder(await prepareAccount(client));
  let orders = Array.from({ length: count }, (_, i) => ({ ...template, businessReference: `BULK-${i}` }));
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  let result = await client.deliveries.createBulk(orders);
  const seconds = (performance.now() - t0) / 1000;
  // maxRSS is the true high-water mark in KiB, sampled by the kernel, not by a timer of ours.
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const created = sizeOf(result?.created);
  const failed = sizeOf(result?.failed);
  // What the input and the result keep reachable, per order (collections only after the peak was read).
  const heapWith = liveHeap();
  orders = result = undefined;
  const heldPerOrder = (heapWith - liveHeap()) / count;
  return { count, created, failed, seconds, ordersPerSecond: count / seconds, rssBefore, peakRss, heldPerOrder };
});
