/**
 * One profiled process of bench/cpu-profile.mjs, run under `node --cpu-prof`: the SDK and plain ky
 * each do `what` in `blocks` alternating blocks against the loopback server, after a warm-up
 * (`call`: `count` creates of the realistic order, `concurrency` at a time; `bulk`: `count` orders
 * uploaded in chunks of 100, 4 at a time). Sends back each block's window on the profiler's clock
 * (`process.hrtime`, µs), its variant and the units done in it: start-up and warm-up are left out.
 */
import { pathToFileURL } from 'node:url';
import { makeCallers, runConcurrent } from './callers.mjs';
import { childMain } from './child.mjs';
import { realisticOrder } from './order.mjs';
import { runPool } from './pool.mjs';

const CHUNK = 100;
const CONCURRENCY = 4;
const now = () => Number(process.hrtime.bigint() / 1000n);

async function bulkUploader({ targets, kyPath, baseUrl, variant }) {
  const template = realisticOrder();
  const url = `${baseUrl}/deliveries/bulk?apiVersion=1`;
  if (variant === 'sdk') {
    const { DeliveryClient } = await import(pathToFileURL(targets.main).href);
    const client = new DeliveryClient({ baseUrl, apiKey: 'bench-api-key' });
    return { template, upload: (orders) => client.deliveries.createBulk(orders, { chunkSize: CHUNK, concurrency: CONCURRENCY }) };
  }
  const { default: ky } = await import(pathToFileURL(kyPath).href);
  const upload = (orders) =>
    runPool(Math.ceil(orders.length / CHUNK), CONCURRENCY, (index) =>
      ky
        .post(url, {
          json: { deliveries: orders.slice(index * CHUNK, (index + 1) * CHUNK), deleteFailedDeliveries: false },
          headers: { authorization: 'bench-api-key' },
        })
        .json(),
    );
  return { template, upload };
}

childMain(async ({ targets, kyPath, baseUrl, what, count, blocks, concurrency = 1, warmup }) => {
  const variants = {};
  for (const variant of ['sdk', 'ky']) {
    if (what === 'call') {
      const call = (await makeCallers({ targets, kyPath, baseUrl, only: variant })).callers[variant];
      variants[variant] = { run: () => runConcurrent(call, count, concurrency, []), warm: () => runConcurrent(call, warmup, concurrency, []) };
    } else {
      const { template, upload } = await bulkUploader({ targets, kyPath, baseUrl, variant });
      const orders = (tag, length) => Array.from({ length }, (_, i) => ({ ...template, businessReference: `${variant}-${tag}-${i}` }));
      let block = 0;
      variants[variant] = { prepare: () => orders(block++, count), run: (batch) => upload(batch), warm: () => upload(orders('warm', warmup)) };
    }
  }
  for (const { warm } of Object.values(variants)) await warm();
  // Blocks of each in turn, the order alternating: both run in the same state of the machine, and
  // each sample of the profile is counted for the variant whose window it falls in.
  const windows = [];
  for (let block = 0; block < blocks; block++) {
    for (const variant of block % 2 === 0 ? ['sdk', 'ky'] : ['ky', 'sdk']) {
      const batch = variants[variant].prepare?.();
      const start = now();
      await variants[variant].run(batch);
      windows.push({ variant, start, end: now(), units: count });
    }
  }
  return { windows };
});
