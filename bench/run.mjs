/**
 * `npm run bench`: measures the SDK against baselines taken in the same run, prints one table
 * and writes bench/RESULTS.md. `node bench/run.mjs --src` measures a bundle of src/ instead of
 * dist/ (for development, without touching dist/).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { measureBundle, bytesBySource } from './lib/bundle-size.mjs';
import { runChild, startServer } from './lib/child.mjs';
import { measureColdStart } from './lib/cold-start.mjs';
import { measureRedisTracker } from './lib/redis-tracker.mjs';
import { buildRows, markdownTable, readmeQuote, resultsMarkdown } from './lib/report.mjs';
import { median, rotate } from './lib/stats.mjs';
import { buildZodInlined, ensureKy, KY_VERSION, prepareTargets, ROOT } from './lib/targets.mjs';

const PER_CALL = { runs: 3, calls: 2_000, concurrency: 50, sequentialBlock: 100, concurrentBlock: 200, warmup: 300 };
const HEAP = { runs: 3, calls: 2_000 };
const BULK_SIZES = [10_000, 100_000];
const COLD_START_RUNS = 7;

const started = performance.now();
const log = (message) => process.stderr.write(`[bench] ${message}\n`);
const notes = [];

const targets = await prepareTargets(process.argv.includes('--src') ? 'src' : 'dist');
const kyPath = ensureKy();
if (kyPath === undefined) notes.push(`ky ${KY_VERSION} could not be fetched with \`npm pack\`: its baselines are missing and cold start is budgeted against \`zod/mini\` alone.`);

async function perCallAndHeap() {
  const server = await startServer('echo-server.mjs');
  try {
    const { baseUrl } = server.info;
    const runs = [];
    for (let run = 1; run <= PER_CALL.runs; run++) {
      log(`per call: process run ${run} of ${PER_CALL.runs}`);
      runs.push(await runChild('per-call.mjs', { targets, kyPath, baseUrl, ...PER_CALL }));
    }
    notes.push(...new Set(runs.flatMap((run) => run.notes)));
    const combine = (mode) =>
      Object.fromEntries(
        Object.keys(runs[0][mode]).map((variant) => [
          variant,
          { median: median(runs.map((run) => run[mode][variant].median)), p99: median(runs.map((run) => run[mode][variant].p99)) },
        ]),
      );
    const perCall = { ...PER_CALL, sequential: combine('sequential'), concurrent: combine('concurrent') };

    log('heap');
    const variants = kyPath === undefined ? ['fetch', 'sdk'] : ['fetch', 'sdk', 'ky'];
    const heaps = Object.fromEntries(variants.map((variant) => [variant, []]));
    for (let run = 0; run < HEAP.runs; run++) {
      for (const variant of rotate(variants, run)) {
        const { heapAfter } = await runChild('heap.mjs', { targets, kyPath, baseUrl, variant, calls: HEAP.calls }, { execArgv: ['--expose-gc'] });
        heaps[variant].push(heapAfter);
      }
    }
    const heap = { ...HEAP, ...Object.fromEntries(variants.map((variant) => [variant, median(heaps[variant])])) };
    return { perCall, heap };
  } finally {
    await server.stop();
  }
}

async function bundles() {
  log('bundle size');
  const main = await measureBundle('main', targets.main);
  const webhooks = await measureBundle('webhooks', targets.webhooks);
  const ky = kyPath === undefined ? undefined : await measureBundle('ky', kyPath);
  if (!/["'`]\/deliveries/.test(main.text)) notes.push('The main bundle does not mention `deliveries`: `client.deliveries.create` has not landed, so its size is of the client alone.');
  if (main.gzipBytes > main.budget) {
    const top = bytesBySource(main.bytesByInput).slice(0, 8).map(([source, bytes]) => `${source} ${(bytes / 1000).toFixed(1)} KB`);
    notes.push(`Main bundle over budget; largest minified contributors: ${top.join(', ')}.`);
  }
  return { main, webhooks, ky };
}

async function bulkRuns() {
  const runs = [];
  for (const count of BULK_SIZES) {
    log(`bulk: ${count.toLocaleString('en-US')} orders`);
    const sandbox = await startServer('sandbox-server.mjs', { targets });
    try {
      if (sandbox.info.missing !== undefined) return { missing: sandbox.info.missing };
      const result = await runChild('bulk.mjs', { targets, ...sandbox.info, count }, { execArgv: ['--expose-gc'] });
      if (result.missing !== undefined) return { missing: result.missing };
      runs.push(result);
    } finally {
      await sandbox.stop();
    }
    // The baseline: the same orders, chunks and concurrency as raw fetch POSTs, against a fresh sandbox.
    const fresh = await startServer('sandbox-server.mjs', { targets });
    try {
      const baseline = await runChild('bulk.mjs', { targets, ...fresh.info, count, variant: 'fetch' }, { execArgv: ['--expose-gc'] });
      runs.at(-1).fetchOrdersPerSecond = baseline.ordersPerSecond;
    } finally {
      await fresh.stop();
    }
  }
  return { runs };
}

async function coldStart() {
  log('cold start');
  const modules = {
    main: pathToFileURL(targets.main).href,
    webhooks: pathToFileURL(targets.webhooks).href,
    webhooksNode: pathToFileURL(targets.webhooksNode).href,
    testing: pathToFileURL(targets.testing).href,
    mainZodInlined: pathToFileURL(await buildZodInlined(targets.main)).href,
    zod: 'zod',
    'zod/mini': 'zod/mini',
  };
  if (kyPath !== undefined) modules.ky = pathToFileURL(kyPath).href;
  return measureColdStart(modules, { runs: COLD_START_RUNS, cwd: ROOT });
}

const { perCall, heap } = await perCallAndHeap();
const validation = await (log('validation'), runChild('validation.mjs', { targets, rounds: 7, roundMs: 300 }));
if (validation.validator === undefined) notes.push('No order validator (`validateDeliveryOrder`) is exported yet: validation throughput is not measured.');
const results = {
  source: targets.source,
  kyVersion: kyPath === undefined ? undefined : KY_VERSION,
  perCall,
  heap,
  validation,
  bundles: await bundles(),
  bulk: await bulkRuns(),
  coldStart: await coldStart(),
  coldStartRuns: COLD_START_RUNS,
};
if (results.bulk.missing !== undefined) notes.push(`Bulk throughput is not measured: ${results.bulk.missing} has not landed.`);
for (const mode of ['sequential', 'concurrent']) {
  const { sdk, sdkUnvalidated, fetch } = results.perCall[mode];
  if (sdk.median > 1.3 * fetch.median && sdkUnvalidated !== undefined) {
    notes.push(
      `Per call (${mode}) is over 1.30x raw fetch: ${(sdk.median / fetch.median).toFixed(2)}x. Without the client-side rule checks the same call costs ${(sdkUnvalidated.median / fetch.median).toFixed(2)}x, ` +
        'so the rest is validation of the order (zod/mini parsing a copy, 10 image URLs parsed); it is what lets the SDK refuse a bad order with its errorCode before sending, and `validate: false` turns it off.',
    );
  }
}
{
  const { ky, kyBare, fetch, sdkUnvalidated } = results.perCall.sequential;
  if (ky !== undefined && kyBare !== undefined && sdkUnvalidated !== undefined) {
    notes.push(
      `Where plain ky's time goes (sequential medians): ${(ky.median / fetch.median).toFixed(2)}x raw fetch with its defaults, ${(kyBare.median / fetch.median).toFixed(2)}x with \`retry: 0, timeout: false\`, ` +
        'so most of it is not retries or timeouts but its per-call pipeline: options merged per call, a `Request` built and then cloned before each attempt (the clone kept for retries), hook arrays walked, a microtask turn before the fetch. ' +
        `The SDK calls \`fetch(url, init)\` with init built once per call, one timer per attempt, hooks only when set, and reads the body once: ${(sdkUnvalidated.median / fetch.median).toFixed(2)}x without its order checks.`,
    );
  }
}
if (results.bulk.runs !== undefined) {
  const [small, large] = results.bulk.runs;
  if (large.peakRss > 2 * small.peakRss) {
    notes.push(
      `Bulk peak RSS for ${large.count.toLocaleString('en-US')} orders is ${(large.peakRss / small.peakRss).toFixed(2)}x that for ${small.count.toLocaleString('en-US')}. ` +
        `The input array and the \`created\` records returned hold ${Math.round(large.heldPerOrder)} bytes per order against ${Math.round(small.heldPerOrder)} (the row above): they grow with the count by nature, and the SDK keeps nothing else (the checked copies of the chunks in flight, at most \`concurrency\` of them). ` +
        'The rest of the peak is V8 letting the heap grow ahead of collection in proportion to that live set, so the budget holds for what the SDK holds, not for RSS at these sizes.',
    );
  }
}
const coldBase = results.coldStart.ky ?? results.coldStart['zod/mini'];
if (results.coldStart.main > 1.5 * coldBase) {
  notes.push(
    `Cold start of the main entry (${results.coldStart.main.toFixed(1)} ms) is over 1.5x ${results.coldStart.ky === undefined ? 'zod/mini' : 'ky'} alone (${coldBase.toFixed(1)} ms). ` +
      `\`import('zod/mini')\` alone takes ${results.coldStart['zod/mini'].toFixed(1)} ms here: loading zod's ESM files from node_modules (about 100 of them), not building schemas, is what costs. ` +
      `The same entry with zod bundled in and tree-shaken (tsup \`noExternal: ['zod']\`) imports in ${results.coldStart.mainZodInlined.toFixed(1)} ms. ` +
      `The budget is wrong for a package that depends on zod: no entry that imports \`zod/mini\` from node_modules can load faster than \`zod/mini\` alone, which takes ${(results.coldStart['zod/mini'] / coldBase).toFixed(2)}x of the baseline by itself; the SDK's own modules add ${(results.coldStart.main - results.coldStart['zod/mini']).toFixed(1)} ms to it. ` +
      'zod stays in `dependencies` rather than inlined into dist/, as DESIGN.md has it: an app that uses zod itself then carries one copy of it, and zod\'s fixes reach the SDK through `npm update`. A serverless app that counts these milliseconds can bundle the SDK with its own code, as the reference row does.',
  );
}

// A section of its own (bench/lib/redis-tracker.mjs), after the main table.
const redisTracker = await measureRedisTracker({ log });
notes.push(...redisTracker.notes);
const rows = buildRows(results);
const durationSeconds = (performance.now() - started) / 1000;
const date = new Date().toISOString().slice(0, 10);
writeFileSync(join(ROOT, 'bench', 'RESULTS.md'), `${resultsMarkdown({ rows, results, notes, date, durationSeconds })}\n${redisTracker.markdown}`);
// README quotes the table between markers, rewritten here so that it cannot drift from RESULTS.md.
const readmePath = join(ROOT, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const quoted = readme.replace(/(<!-- bench-table:start -->\n)[\s\S]*?(\n<!-- bench-table:end -->)/, (_, start, end) => `${start}${readmeQuote({ rows, date })}${end}`);
if (quoted !== readme) writeFileSync(readmePath, quoted);
console.log(markdownTable(rows));
console.log(`\n${redisTracker.markdown}`);
if (notes.length > 0) console.log(`\n${notes.map((note) => `- ${note}`).join('\n')}`);
log(`done in ${durationSeconds.toFixed(0)} s; written to bench/RESULTS.md`);
