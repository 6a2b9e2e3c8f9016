/**
 * The baseline of the command line's import: what a program of its own would do with the same
 * orders, in memory: `streamBulk` (100 a request, 4 at a time), then `resolveTrackingNumbers` of
 * the whole result. Sends `{ created, withTrackingNumber, cpuSeconds }` once done (the CPU time of
 * the whole process, as the command's is taken).
 */
import { pathToFileURL } from 'node:url';
import { childMain } from './child.mjs';
import { importOrders } from './cli-orders.mjs';

childMain(async ({ main, baseUrl, apiKey, count }) => {
  const { DeliveryClient } = await import(pathToFileURL(main).href);
  const client = new DeliveryClient({ baseUrl, apiKey });
  const orders = importOrders(count);
  const result = { created: [], failed: [], createdIds: [] };
  for await (const chunk of client.deliveries.streamBulk(orders, { chunkSize: 100, concurrency: 4 })) {
    result.created.push(...chunk.created);
    result.failed.push(...chunk.failed);
    result.createdIds.push(...chunk.createdIds);
  }
  const resolved = await client.deliveries.resolveTrackingNumbers(result, { orders });
  const usage = process.resourceUsage();
  return {
    created: resolved.created.length,
    withTrackingNumber: resolved.created.filter((entry) => typeof entry.trackingNumber === 'string').length,
    cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
  };
});
