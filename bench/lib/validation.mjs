/**
 * What the client-side check costs on the send path: `deliveries.create` of the realistic order
 * with validation on and with `validate: false`, through the public client, its `fetch` answering
 * at once in process (no socket, no server), so that the difference between the two is the check
 * that `create` runs, whatever shape its code takes inside. Blocks of calls alternate, the order of
 * the two rotating per block; the cost is the median over pairs of adjacent blocks of their
 * difference in mean call time (and in CPU time per call).
 */
import { pathToFileURL } from 'node:url';
import { API_KEY } from './callers.mjs';
import { childMain } from './child.mjs';
import { CREATED_ANSWER, realisticOrder } from './order.mjs';
import { median, rotate } from './stats.mjs';

const instantFetch = async () => new Response(CREATED_ANSWER, { status: 200, headers: { 'content-type': 'application/json' } });

childMain(async ({ targets, blocks, blockCalls, warmup }) => {
  const { DeliveryClient } = await import(pathToFileURL(targets.main).href);
  const client = new DeliveryClient({ baseUrl: 'http://127.0.0.1:9/v2', apiKey: API_KEY, fetch: instantFetch });
  const order = realisticOrder();
  const variants = {
    checked: () => client.deliveries.create(order),
    unchecked: () => client.deliveries.create(order, { validate: false }),
  };
  for (const call of Object.values(variants)) for (let i = 0; i < warmup; i++) await call();

  // Per block: mean wall and CPU time per call. A checked block and the unchecked one next to it
  // form a pair; the median of the pairs' differences is the check's cost, drift cancelled.
  const blocksOf = { checked: [], unchecked: [] };
  for (let block = 0; block < blocks; block++) {
    for (const name of rotate(Object.keys(variants), block)) {
      const call = variants[name];
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < blockCalls; i++) await call();
      const wall = (performance.now() - t0) / blockCalls;
      const used = process.cpuUsage(cpu0);
      blocksOf[name].push({ wall, cpu: (used.user + used.system) / 1000 / blockCalls });
    }
  }
  const of = (name, field) => blocksOf[name].map((block) => block[field]);
  const paired = (field) => median(blocksOf.checked.map((block, i) => block[field] - blocksOf.unchecked[i][field]));
  return {
    checked: { median: median(of('checked', 'wall')), cpu: median(of('checked', 'cpu')) },
    unchecked: { median: median(of('unchecked', 'wall')), cpu: median(of('unchecked', 'cpu')) },
    cost: { wall: paired('wall'), cpu: paired('cpu') },
  };
});
