/**
 * The sandbox under a nightly import, as `delivery-sdk orders import` drives it: `streamBulk` of N
 * orders, each with its own `businessReference`, `uniqueBusinessReference` and phone, then
 * `resolveTrackingNumbers` of what was created, against the sandbox in process (`sandbox.fetch`,
 * no socket). Prints the time per 1,000 orders at each size, min / median / max over RUNS runs:
 * flat when the sandbox's work per order does not grow with the orders it holds.
 *
 * `node bench/sandbox-import.mjs` after `npm run build`; `BENCH_SIZES=20000,200000 BENCH_RUNS=3`.
 */
import { loadavg } from 'node:os';
import { DeliveryClient } from '../dist/index.js';
import { createSandbox } from '../dist/testing/index.js';

const SIZES = (process.env['BENCH_SIZES'] ?? '20000,200000').split(',').map(Number);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);

function* orders(count) {
  for (let i = 0; i < count; i++) {
    yield {
      type: 10,
      dropOffAddress: { city: 'Giza', districtId: 'district-eg-giza-dokki', firstLine: '12 Tahrir Street, 3rd floor' },
      receiver: { firstName: 'Mona', lastName: 'Adel', phone: `010${String(10_000_000 + i).slice(-8)}` },
      cod: 250,
      businessReference: `NIGHT-${i}`,
      uniqueBusinessReference: `U-NIGHT-${i}`,
    };
  }
}

/** Seconds to import `count` orders into a fresh sandbox, their tracking numbers read back. */
async function importOnce(count) {
  const sandbox = createSandbox();
  const merchant = sandbox.createMerchant();
  const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: merchant.apiKey, fetch: sandbox.fetch, logLevel: 'off' });
  const started = performance.now();
  let created = 0;
  for await (const settled of client.deliveries.streamBulk(orders(count), { chunkSize: 100, concurrency: 4 })) {
    const resolved = await client.deliveries.resolveTrackingNumbers(settled);
    created += resolved.created.filter((order) => order.trackingNumber !== undefined).length;
  }
  const seconds = (performance.now() - started) / 1000;
  await sandbox.close();
  if (created !== count) throw new Error(`${created} of ${count} orders created with a tracking number`);
  return seconds;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`sandbox import, ms per 1,000 orders (load ${loadavg()[0].toFixed(1)})`);
for (const size of SIZES) {
  const perThousand = [];
  for (let run = 0; run < RUNS; run++) perThousand.push(((await importOnce(size)) * 1_000_000) / size);
  const [min, max] = [Math.min(...perThousand), Math.max(...perThousand)];
  console.log(`${size} orders: ${min.toFixed(0)} / ${median(perThousand).toFixed(0)} / ${max.toFixed(0)} ms (min / median / max of ${RUNS})`);
}
console.log(`(load ${loadavg()[0].toFixed(1)} at the end)`);
