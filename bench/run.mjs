/**
 * `npm run bench`: measures the SDK beside anchors taken in the same run (plain ky, raw fetch,
 * `@octokit/core`, `openai`), each timed figure over RUNS process runs with its spread, prints one
 * table and writes bench/RESULTS.md and the table of docs/performance.md. `node bench/run.mjs
 * --src` measures a bundle of src/ instead of dist/ (for development, without touching dist/).
 * One section alone, printed with the load average at its start and end, nothing written:
 * `--per-call`; `--pages` (section 3); `--bulk` (section 4: bulk time and streaming memory,
 * `BENCH_STREAM_RUNS` pairs of the latter); `--first-call`, the first answered create
 * (`BENCH_COLD_RUNS` processes of each variant); `--cold`, that and import alone; `--redis`, the
 * order tracker on Redis (on dist/). The breakdown of the SDK's per-call time over plain ky is
 * bench/profile.mjs.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { bytesBySource, measureBundle } from './lib/bundle-size.mjs';
import { runChild, startServer } from './lib/child.mjs';
import { measureColdStart, measureFirstCall } from './lib/cold-start.mjs';
import { measureRedisTracker, REDIS_TRACKER } from './lib/redis-tracker.mjs';
import { budgetNote, buildRows, bulkSectionRows, firstCallRows, importRows, markdownTable, pageRows, readmeQuote, resultsMarkdown } from './lib/report.mjs';
import { rotate } from './lib/stats.mjs';
import { ensureKy, KY_VERSION, prepareTargets, ROOT } from './lib/targets.mjs';
import { measureTelemetry } from './lib/telemetry.mjs';

/** Process runs of every timed figure: enough for a min-to-max range that says how far one run can be trusted. */
const RUNS = Number(process.env['BENCH_RUNS'] ?? 7);
// At concurrency the calls of a block wait on each other: twice the calls for as steady a median.
const PER_CALL = { calls: 2_000, concurrentCalls: 4_000, concurrency: 50, sequentialBlock: 1, concurrentBlock: 100, warmup: 200 };
const VALIDATION = { blocks: 60, blockCalls: 100, warmup: 500 };
const HEAP = { runs: RUNS, calls: 1_000 };
const BULK_COUNT = Number(process.env['BENCH_BULK'] ?? 10_000);
/** Rounds of every bulk variant in each process against the cheap server: a ratio per round, the process's median of them. */
const BULK_ROUNDS = Number(process.env['BENCH_BULK_ROUNDS'] ?? 5);
/** Fresh processes of each cold-start variant: each takes a fraction of a second, so twice RUNS and one, for a steadier median. */
const COLD_RUNS = Number(process.env['BENCH_COLD_RUNS'] ?? 2 * RUNS + 1);
const STREAM_COUNT = Number(process.env['BENCH_STREAM'] ?? 100_000);
/**
 * Pairs of streaming uploads: a process's peak RSS moves with where the garbage collector's cycles
 * fall (one build's ratio ranged 0.90x to 1.42x pair by pair, and the median of 7 pairs 1.02x to
 * 1.22x, on 2026-11-28), so twice RUNS and one, as the cold start.
 */
const STREAM_RUNS = Number(process.env['BENCH_STREAM_RUNS'] ?? 2 * RUNS + 1);

const started = performance.now();
const load = loadavg()
  .map((value) => value.toFixed(2))
  .join(' / ');
const log = (message) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0)} s] ${message}\n`);
const notes = [];

const targets = await prepareTargets(process.argv.includes('--src') ? 'src' : 'dist');
const kyPath = ensureKy();
if (kyPath === undefined) notes.push(`node_modules/ky is not ky ${KY_VERSION}: the plain-ky anchors are missing and cold start is compared with \`zod/mini\`.`);

/** The per-call benchmark in RUNS fresh processes; each run's figures, for spreads and per-run ratios. */
async function perCallRuns(baseUrl) {
  const runs = [];
  for (let run = 1; run <= RUNS; run++) {
    log(`per call: process run ${run} of ${RUNS}`);
    runs.push(await runChild('per-call.mjs', { targets, kyPath, baseUrl, ...PER_CALL }));
  }
  notes.push(...new Set(runs.flatMap((run) => run.notes)));
  return { ...PER_CALL, runs };
}

/** Prints `rows` (or a section's own markdown) of one section measured alone, its notes and the load average at its start and end, and exits. */
function printAlone(rows, runs) {
  console.log(typeof rows === 'string' ? rows : markdownTable(rows));
  const after = loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');
  console.log(`\n${runs}; load average ${load} at the start, ${after} at the end.`);
  if (notes.length > 0) console.log(notes.map((note) => `- ${note}`).join('\n'));
  process.exit(0);
}

if (process.argv.includes('--per-call')) {
  const server = await startServer('echo-server.mjs');
  let perCall;
  try {
    perCall = await perCallRuns(server.info.baseUrl);
  } finally {
    await server.stop();
  }
  printAlone(buildRows({ perCall }), `${RUNS} processes`);
}

async function perCallAndHeap() {
  const server = await startServer('echo-server.mjs');
  try {
    const { baseUrl } = server.info;
    const perCall = await perCallRuns(baseUrl);
    const variants = ['sdk', 'fetch', 'octokit', 'openai', ...(kyPath === undefined ? [] : ['ky'])];
    const heap = { ...HEAP, ...Object.fromEntries(variants.map((variant) => [variant, []])) };
    for (let run = 0; run < HEAP.runs; run++) {
      log(`heap: round ${run + 1} of ${HEAP.runs}`);
      for (const variant of rotate(variants, run)) {
        const { heapAfter } = await runChild('heap.mjs', { targets, kyPath, baseUrl, variant, calls: HEAP.calls }, { execArgv: ['--expose-gc'] });
        heap[variant].push(heapAfter);
      }
    }
    return { perCall, heap };
  } finally {
    await server.stop();
  }
}

async function validationRuns() {
  const runs = [];
  for (let run = 1; run <= RUNS; run++) {
    log(`the check on the send path: process run ${run} of ${RUNS}`);
    runs.push(await runChild('validation.mjs', { targets, ...VALIDATION }));
  }
  return { ...VALIDATION, runs };
}

/** The pages (bench/lib/bundle-size.mjs): each built, run until its first call answers, and measured. */
async function bundles() {
  const measured = {};
  for (const [kind, path] of [
    ['main', targets.pages.main],
    ['cities', targets.pages.main],
    ['functions', targets.pages.functions],
    ['webhooks', targets.pages.webhooks],
    ['ky', kyPath],
  ]) {
    if (path === undefined) continue;
    log(`pages: the ${kind} page, built and run to its first answer`);
    measured[kind] = await measureBundle(kind, path);
  }
  for (const [kind, bundle] of Object.entries(measured)) {
    const over = Object.entries(bundle.budget).filter(([figure, budget]) => bundle[figure].gzipBytes > budget);
    if (over.length === 0) continue;
    const [figure] = over[0];
    const top = bytesBySource(bundle[figure].bytesByInput)
      .slice(0, 8)
      .map(([source, bytes]) => `${source} ${(bytes / 1000).toFixed(1)} KB`);
    notes.push(
      `The ${kind} page is over its budget (${over.map(([name]) => name).join(', ')}); largest minified contributors to ${figure}: ${top.join(', ')}.`,
    );
  }
  return measured;
}

/**
 * Bulk time: RUNS client processes against `serverScript` (a fresh server per process against the
 * sandbox, whose store grows), each timing `variants` in `rounds` shuffled rounds (bench/lib/bulk.mjs).
 */
async function bulkTimes(serverScript, { sandbox, rounds, variants }) {
  const runs = [];
  let shared = sandbox ? undefined : await startServer(serverScript, { targets });
  try {
    for (let run = 0; run < RUNS; run++) {
      log(
        `bulk: ${BULK_COUNT.toLocaleString('en-US')} orders against ${sandbox ? 'the sandbox' : 'the cheap server'}, process ${run + 1} of ${RUNS}, ${rounds} round(s)`,
      );
      const server = shared ?? (await startServer(serverScript, { targets }));
      try {
        if (server.info.missing !== undefined) return { missing: server.info.missing };
        const result = await runChild('bulk.mjs', { targets, kyPath, ...server.info, count: BULK_COUNT, mode: 'time', sandbox, run, rounds, only: variants });
        if (result.missing !== undefined) return { missing: result.missing };
        runs.push(result);
      } finally {
        if (shared === undefined) await server.stop();
      }
    }
  } finally {
    await shared?.stop();
    shared = undefined;
  }
  return { runs };
}

async function bulkRuns() {
  if (kyPath === undefined) return { missing: 'ky' };
  const cheap = await bulkTimes('echo-server.mjs', { sandbox: false, rounds: BULK_ROUNDS, variants: ['createBulk', 'streamBulk', 'ky', 'fetch'] });
  if (cheap.missing !== undefined) return { missing: cheap.missing };
  const sandbox = await bulkTimes('sandbox-server.mjs', { sandbox: true, rounds: 1, variants: ['createBulk', 'ky', 'fetch'] });
  if (sandbox.missing !== undefined) return { missing: sandbox.missing };
  return { cheap: cheap.runs, sandbox: sandbox.runs };
}

/** Streaming memory: `streamBulk` and plain ky, each upload in a process of its own, alternating. */
async function streamRuns() {
  if (kyPath === undefined) return { missing: 'ky' };
  const server = await startServer('echo-server.mjs');
  try {
    const runs = [];
    for (let run = 0; run < STREAM_RUNS; run++) {
      log(`bulk streamed: ${STREAM_COUNT.toLocaleString('en-US')} orders, RSS, run ${run + 1} of ${STREAM_RUNS}`);
      const pair = {};
      for (const variant of rotate(['sdk', 'ky'], run)) {
        const result = await runChild('bulk.mjs', { targets, kyPath, ...server.info, count: STREAM_COUNT, mode: 'memory', variant });
        if (result.missing !== undefined) return { missing: result.missing };
        pair[variant] = result;
      }
      runs.push(pair);
    }
    return { count: STREAM_COUNT, runs };
  } finally {
    await server.stop();
  }
}

/** Cold start, import alone: COLD_RUNS timed imports of each module, the modules' order rotating per round (bench/lib/cold-start.mjs). */
function coldStart() {
  log('cold start: import alone');
  const { specifiers } = targets;
  const modules = {
    main: specifiers.main,
    functions: specifiers.functions,
    webhooks: specifiers.webhooks,
    webhooksNode: specifiers.webhooksNode,
    testing: specifiers.testing,
    'zod/mini': 'zod/mini',
    '@octokit/core': '@octokit/core',
    openai: 'openai',
  };
  if (kyPath !== undefined) modules.ky = 'ky';
  return measureColdStart(modules, { runs: COLD_RUNS, cwd: ROOT }).runs;
}

/** Cold start to the first answered create: COLD_RUNS fresh processes of each variant against the cheap server, shuffled per round. */
async function firstCall() {
  if (kyPath === undefined) return undefined;
  log('cold start: to the first answered create');
  const server = await startServer('echo-server.mjs');
  try {
    // Each by the name its users import it by, its package's resolution included, as in their process.
    const variants = { sdk: targets.specifiers.main, ky: 'ky', fetch: undefined, octokit: '@octokit/core', openai: 'openai' };
    return measureFirstCall(variants, { runs: COLD_RUNS, baseUrl: server.info.baseUrl, cwd: ROOT });
  } finally {
    await server.stop();
  }
}

if (process.argv.includes('--pages')) printAlone(pageRows(await bundles()), 'Each page built and run once');
if (process.argv.includes('--first-call') || process.argv.includes('--cold')) {
  const imports = process.argv.includes('--cold') ? importRows(coldStart()) : [];
  const measured = await firstCall();
  if (measured === undefined) throw new Error(notes.join(' '));
  printAlone([...firstCallRows(measured), ...imports], `${COLD_RUNS} processes of each variant`);
}
if (process.argv.includes('--bulk')) printAlone(bulkSectionRows({ bulk: await bulkRuns(), stream: await streamRuns() }), `${RUNS} processes of each figure`);
if (process.argv.includes('--redis')) {
  const { markdown, notes: redisNotes } = await measureRedisTracker({ log });
  notes.push(...redisNotes);
  printAlone(markdown, `${REDIS_TRACKER.runs} processes of each client`);
}

// More sections (a CLI's import, say) go here, each a function returning its results, and a row
// builder in bench/lib/report.mjs.
const { perCall, heap } = await perCallAndHeap();
const results = {
  source: targets.source,
  kyVersion: kyPath === undefined ? undefined : KY_VERSION,
  perCall,
  heap,
  validation: await validationRuns(),
  bundles: await bundles(),
  bulk: await bulkRuns(),
  stream: await streamRuns(),
  coldStart: coldStart(),
  coldStartRuns: COLD_RUNS,
  firstCall: await firstCall(),
};
if (results.bulk.missing !== undefined) notes.push(`Bulk throughput is not measured: ${results.bulk.missing} has not landed.`);
if (results.stream.missing !== undefined) notes.push(`Streaming memory is not measured: ${results.stream.missing} is missing.`);

// A section of its own (bench/lib/redis-tracker.mjs), after the main table.
const redisTracker = await measureRedisTracker({ log });
notes.push(...redisTracker.notes);
const telemetry = await measureTelemetry({ log });
notes.push(...telemetry.notes);
const rows = buildRows(results);
for (const row of rows) {
  const note = budgetNote(row);
  if (note !== undefined) notes.push(note);
}
const durationSeconds = (performance.now() - started) / 1000;
const date = new Date().toISOString().slice(0, 10);
const resultsPath = join(ROOT, 'bench', 'RESULTS.md');
// Notes written by hand between the `kept` markers (a cross-check, say) survive the rewrite.
const kept = existsSync(resultsPath) ? (readFileSync(resultsPath, 'utf8').match(/<!-- kept:start -->\n([\s\S]*?)<!-- kept:end -->/)?.[1] ?? '') : '';
writeFileSync(resultsPath, `${resultsMarkdown({ rows, results, notes, date, durationSeconds, load, kept })}\n${redisTracker.markdown}\n${telemetry.markdown}`);
// docs/performance.md quotes the table between markers, rewritten here so that it cannot drift from RESULTS.md.
const docPath = join(ROOT, 'docs', 'performance.md');
const doc = existsSync(docPath) ? readFileSync(docPath, 'utf8') : '';
const quoted = doc.replace(
  /(<!-- bench-table:start -->\n)[\s\S]*?(\n<!-- bench-table:end -->)/,
  (_, start, end) => `${start}${readmeQuote({ rows, date, load })}${end}`,
);
if (quoted !== doc) writeFileSync(docPath, quoted);
console.log(markdownTable(rows));
console.log(`\n${redisTracker.markdown}`);
console.log(`\n${telemetry.markdown}`);
if (notes.length > 0) console.log(`\n${notes.map((note) => `- ${note}`).join('\n')}`);
log(`done in ${durationSeconds.toFixed(0)} s (load average at the start ${load}); written to bench/RESULTS.md`);
