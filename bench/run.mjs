/**
 * `npm run bench`: measures the SDK against baselines taken in the same run, prints one table
 * and writes bench/RESULTS.md. `node bench/run.mjs --src` measures a bundle of src/ instead of
 * dist/ (for development, without touching dist/). `--per-call` runs only the per-call
 * benchmark and prints its medians and ratios to plain ky, writing nothing.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bytesBySource, measureBundle } from './lib/bundle-size.mjs';
import { runChild, startServer } from './lib/child.mjs';
import { measureColdStart } from './lib/cold-start.mjs';
import { measureRedisTracker } from './lib/redis-tracker.mjs';
import { buildRows, markdownTable, readmeQuote, resultsMarkdown } from './lib/report.mjs';
import { median, rotate } from './lib/stats.mjs';
import { ensureKy, KY_VERSION, prepareTargets, ROOT } from './lib/targets.mjs';

const PER_CALL = { runs: 7, calls: 2_000, concurrency: 50, sequentialBlock: 100, concurrentBlock: 200, warmup: 300 };
const HEAP = { runs: 3, calls: 2_000 };
const BULK_SIZES = [10_000, 100_000];
/** Rounds of the interleaved bulk timing, per size: each round uploads `count` orders three times (SDK, plain ky, raw fetch). */
const BULK_ROUNDS = { 10000: 5, 100000: 2 };
const COLD_START_RUNS = 9;

const started = performance.now();
const log = (message) => process.stderr.write(`[bench] ${message}\n`);
const notes = [];

const targets = await prepareTargets(process.argv.includes('--src') ? 'src' : 'dist');
const kyPath = ensureKy();
if (kyPath === undefined)
  notes.push(`node_modules/ky is not ky ${KY_VERSION}: the plain-ky baselines are missing and cold start is budgeted against \`zod/mini\` alone.`);

/** The per-call benchmark: `PER_CALL.runs` processes, each variant's median and p99 the median over them. */
async function perCallRuns(baseUrl) {
  const runs = [];
  for (let run = 1; run <= PER_CALL.runs; run++) {
    log(`per call: process run ${run} of ${PER_CALL.runs}`);
    runs.push(await runChild('per-call.mjs', { targets, kyPath, baseUrl, ...PER_CALL }));
  }
  notes.push(...new Set(runs.flatMap((run) => run.notes)));
  // Each figure the median over the process runs, with every run's own value kept: the report
  // gives the spread (min, median, max) of a ratio run by run, and a verdict only when it holds on
  // the whole range.
  const combine = (mode) =>
    Object.fromEntries(
      Object.keys(runs[0][mode]).map((variant) => [
        variant,
        {
          median: median(runs.map((run) => run[mode][variant].median)),
          p99: median(runs.map((run) => run[mode][variant].p99)),
          cpu: median(runs.map((run) => run[mode][variant].cpu)),
          runs: runs.map((run) => run[mode][variant].median),
        },
      ]),
    );
  return { ...PER_CALL, sequential: combine('sequential'), concurrent: combine('concurrent') };
}

if (process.argv.includes('--per-call')) {
  const server = await startServer('echo-server.mjs');
  try {
    const perCall = await perCallRuns(server.info.baseUrl);
    for (const mode of ['sequential', 'concurrent']) {
      const { ky } = perCall[mode];
      for (const [variant, { median: ms, p99 }] of Object.entries(perCall[mode])) {
        const ratio = ky === undefined ? '' : ` ${(ms / ky.median).toFixed(2)}x ky`;
        console.log(`${mode.padEnd(10)} ${variant.padEnd(15)} median ${(ms * 1000).toFixed(0)} µs, p99 ${(p99 * 1000).toFixed(0)} µs${ratio}`);
      }
    }
    if (notes.length > 0) console.log(notes.map((note) => `- ${note}`).join('\n'));
  } finally {
    await server.stop();
  }
  process.exit(0);
}

async function perCallAndHeap() {
  const server = await startServer('echo-server.mjs');
  try {
    const { baseUrl } = server.info;
    const perCall = await perCallRuns(baseUrl);

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
  const cities = await measureBundle('cities', targets.main);
  const functions = await measureBundle('functions', targets.functions);
  const webhooks = await measureBundle('webhooks', targets.webhooks);
  const ky = kyPath === undefined ? undefined : await measureBundle('ky', kyPath);
  if (!/["'`]\/deliveries/.test(main.text))
    notes.push('The main bundle does not mention `deliveries`: `client.deliveries.create` has not landed, so its size is of the client alone.');
  if (main.gzipBytes > main.budget) {
    const top = bytesBySource(main.bytesByInput)
      .slice(0, 8)
      .map(([source, bytes]) => `${source} ${(bytes / 1000).toFixed(1)} KB`);
    notes.push(`Main bundle over budget; largest minified contributors: ${top.join(', ')}.`);
  }
  return { main, cities, functions, webhooks, ky };
}

async function bulkRuns() {
  const runs = [];
  for (const count of BULK_SIZES) {
    log(`bulk: ${count.toLocaleString('en-US')} orders, the SDK and its baselines in rounds`);
    const sandbox = await startServer('sandbox-server.mjs', { targets });
    try {
      if (sandbox.info.missing !== undefined) return { missing: sandbox.info.missing };
      const result = await runChild('bulk.mjs', { targets, kyPath, ...sandbox.info, count, mode: 'rounds', rounds: BULK_ROUNDS[count] ?? 2 });
      if (result.missing !== undefined) return { missing: result.missing };
      runs.push(result);
    } finally {
      await sandbox.stop();
    }
    // Memory in a process of its own (peak RSS is per process): the SDK streaming the orders from a generator.
    log(`bulk: ${count.toLocaleString('en-US')} orders streamed, peak RSS`);
    const fresh = await startServer('sandbox-server.mjs', { targets });
    try {
      const memory = await runChild('bulk.mjs', { targets, ...fresh.info, count, mode: 'memory' });
      if (memory.missing !== undefined) return { missing: memory.missing };
      Object.assign(runs.at(-1), {
        peakRss: memory.peakRss,
        rssBefore: memory.rssBefore,
        streamedOrdersPerSecond: count / memory.seconds,
        streamFailed: memory.failed,
      });
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
    functions: pathToFileURL(targets.functions).href,
    webhooks: pathToFileURL(targets.webhooks).href,
    webhooksNode: pathToFileURL(targets.webhooksNode).href,
    testing: pathToFileURL(targets.testing).href,
    zod: 'zod',
    'zod/mini': 'zod/mini',
  };
  if (kyPath !== undefined) modules.ky = pathToFileURL(kyPath).href;
  return measureColdStart(modules, { runs: COLD_START_RUNS, cwd: ROOT });
}

const { perCall, heap } = await perCallAndHeap();
const validation = await (log('validation on the send path'), runChild('validation.mjs', { targets, rounds: 9, callsPerRound: 2_000 }));
const results = {
  source: targets.source,
  kyVersion: kyPath === undefined ? undefined : KY_VERSION,
  perCall,
  heap,
  validation,
  bundles: await bundles(),
  bulk: await bulkRuns(),
  ...(await coldStart().then(({ medians, runs }) => ({ coldStart: medians, coldStartByRun: runs }))),
  coldStartRuns: COLD_START_RUNS,
};
if (results.bulk.missing !== undefined) notes.push(`Bulk throughput is not measured: ${results.bulk.missing} has not landed.`);
for (const mode of ['sequential', 'concurrent']) {
  const { sdk, sdkUnvalidated, ky } = results.perCall[mode];
  if (ky !== undefined && Math.min(...sdk.runs.map((ms, run) => ms / ky.runs[run])) > 1.1) {
    notes.push(
      `Per call (${mode}) is over 1.10x plain ky: ${(sdk.median / ky.median).toFixed(2)}x (${(sdkUnvalidated.median / ky.median).toFixed(2)}x with \`validate: false\`). ` +
        "See docs/performance.md for where the SDK's time goes.",
    );
  }
  if (Math.min(...sdk.runs.map((ms, run) => ms / sdkUnvalidated.runs[run])) > 1.05) {
    notes.push(`Validation's share (${mode}) is over 1.05x in every run: ${(sdk.median / sdkUnvalidated.median).toFixed(2)}x at the median.`);
  }
}
if (results.bulk.runs !== undefined) {
  const [small, large] = results.bulk.runs;
  if (large.peakRss > 1.5 * small.peakRss) {
    notes.push(
      `Bulk peak RSS, streamed, for ${large.count.toLocaleString('en-US')} orders is ${(large.peakRss / small.peakRss).toFixed(2)}x that for ${small.count.toLocaleString('en-US')}: over the 1.5x budget.`,
    );
  }
}

// A section of its own (bench/lib/redis-tracker.mjs), after the main table.
const redisTracker = await measureRedisTracker({ log });
notes.push(...redisTracker.notes);
const rows = buildRows(results);
const durationSeconds = (performance.now() - started) / 1000;
const date = new Date().toISOString().slice(0, 10);
writeFileSync(join(ROOT, 'bench', 'RESULTS.md'), `${resultsMarkdown({ rows, results, notes, date, durationSeconds })}\n${redisTracker.markdown}`);
// docs/performance.md quotes the table between markers, rewritten here so that it cannot drift from RESULTS.md.
const docPath = join(ROOT, 'docs', 'performance.md');
const doc = existsSync(docPath) ? readFileSync(docPath, 'utf8') : '';
const quoted = doc.replace(
  /(<!-- bench-table:start -->\n)[\s\S]*?(\n<!-- bench-table:end -->)/,
  (_, start, end) => `${start}${readmeQuote({ rows, date })}${end}`,
);
if (quoted !== doc) writeFileSync(docPath, quoted);
console.log(markdownTable(rows));
console.log(`\n${redisTracker.markdown}`);
if (notes.length > 0) console.log(`\n${notes.map((note) => `- ${note}`).join('\n')}`);
log(`done in ${durationSeconds.toFixed(0)} s; written to bench/RESULTS.md`);
