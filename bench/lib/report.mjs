/**
 * Turns the measurements into the one table `npm run bench` prints and RESULTS.md keeps. Every
 * timed figure is a spread over process runs, median (min–max); a verdict is given only when the
 * whole range is on one side of the budget, else "within noise". Beside each figure, the anchors
 * measured in the same run: plain ky, raw fetch, `@octokit/core` and `openai`.
 */
import { cpus, totalmem } from 'node:os';
import { KB } from './bundle-size.mjs';
import { spread, verdictOf } from './stats.mjs';

const us = (ms) => `${Math.round(ms * 1000).toLocaleString('en-US')} µs`;
const times = (ratio) => `${ratio.toFixed(2)}x`;
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const ms = (value) => `${value.toFixed(1)} ms`;
const rate = (perSecond) => `${Math.round(perSecond).toLocaleString('en-US')} orders/s`;
const signedMb = (bytes) => `${bytes >= 0 ? '+' : '−'}${mb(Math.abs(bytes))}`;
const VERDICT = { ok: 'ok', over: '**OVER**', noise: 'within noise' };

/** `median (min–max)` in `unit`, the unit written once. */
const ranged = (values, unit) => {
  const { min, median, max } = spread(values);
  const bare = (value) => unit(value).replace(/ ?(?:µs|ms|MB|KB|s|x|%|orders\/s)$/, '');
  return min === max ? unit(median) : `${unit(median)} (${bare(min)}–${bare(max)})`;
};
/** The verdict cell: only when every run is on one side of `budget`. */
const verdictCell = (values, budget, options) => VERDICT[verdictOf(spread(values), budget, options)];
/** Each run's `a / b`, for figures measured in the same process run. */
const ratios = (as, bs) => as.map((a, i) => a / bs[i]);
const medianOf = (values) => spread(values).median;

export const ANCHORS = [
  ['ky', 'plain ky'],
  ['fetch', 'raw fetch'],
  ['octokit', '@octokit/core'],
  ['openai', 'openai'],
];

/** The anchors' medians over runs, `name value · name value`. */
function anchorsCell(byVariant, unit) {
  return ANCHORS.filter(([name]) => byVariant[name] !== undefined)
    .map(([name, label]) => `${label} ${unit(medianOf(byVariant[name]))}`)
    .join(' · ');
}

/** Rows of [#, measure, SDK, anchors, ratio, budget, verdict]. */
export function buildRows(results) {
  const rows = [];
  const { perCall, validation, bundles, bulk, stream, coldStart, heap } = results;

  for (const [mode, label] of [
    ['sequential', 'sequential'],
    ['concurrent', `concurrency ${perCall.concurrency}`],
  ]) {
    const figure = (field) =>
      Object.fromEntries(Object.entries(perCall.runs[0][mode]).map(([name]) => [name, perCall.runs.map((run) => run[mode][name][field])]));
    const wall = figure('median');
    const cpu = figure('cpu');
    const p99 = figure('p99');
    if (wall.ky !== undefined) {
      rows.push([
        '1',
        `Per call, ${label}: wall time, median`,
        ranged(wall.sdk, us),
        anchorsCell(wall, us),
        `${ranged(ratios(wall.sdk, wall.ky), times)} plain ky`,
        '≤ 1.10x',
        verdictCell(ratios(wall.sdk, wall.ky), 1.1),
      ]);
      rows.push([
        '1',
        `Per call, ${label}: client CPU time per call`,
        ranged(cpu.sdk, us),
        anchorsCell(cpu, us),
        `${ranged(ratios(cpu.sdk, cpu.ky), times)} plain ky`,
        '',
        '',
      ]);
      rows.push([
        '1',
        `Per call, ${label}: wall time, p99`,
        ranged(p99.sdk, us),
        anchorsCell(p99, us),
        `${ranged(ratios(p99.sdk, p99.ky), times)} plain ky`,
        '',
        '',
      ]);
    }
    rows.push([
      '1',
      `Per call, ${label}: validation on vs \`validate: false\`, median`,
      ranged(wall.sdk, us),
      `\`validate: false\` ${us(medianOf(wall.sdkUnvalidated))}`,
      ranged(ratios(wall.sdk, wall.sdkUnvalidated), times),
      '≤ 1.05x',
      verdictCell(ratios(wall.sdk, wall.sdkUnvalidated), 1.05),
    ]);
  }

  if (validation === undefined) return rows; // --per-call: that section alone

  const checkCost = validation.runs.map((run) => run.cost.wall);
  const checkCpu = validation.runs.map((run) => run.cost.cpu);
  const sequentialCall = medianOf(perCall.runs.map((run) => run.sequential.sdk.median));
  rows.push([
    '2',
    'The plain check on the send path: `create` with validation on minus `validate: false`, in process (instant `fetch`)',
    `${ranged(checkCost, us)}; CPU ${ranged(checkCpu, us)}`,
    `create ${us(medianOf(validation.runs.map((run) => run.checked.median)))} checked, ${us(medianOf(validation.runs.map((run) => run.unchecked.median)))} not`,
    `${ranged(
      checkCost.map((cost) => (cost / sequentialCall) * 100),
      (share) => `${share.toFixed(1)} %`,
    )} of a sequential call`,
    '',
    '',
  ]);

  const ky = bundles.ky;
  for (const [kind, label, measure] of [
    ['main', 'Bundle, a `DeliveryClient` page creating one order, at once', 'gzipBytes'],
    ['cities', 'Bundle, a page looking up cities, at once', 'gzipBytes'],
    ['main', 'Bundle, the create page, every chunk', 'allChunksGzipBytes'],
    ['functions', 'Bundle, `delivery-sdk/functions` page, at once', 'gzipBytes'],
    ['webhooks', 'Bundle, `delivery-sdk/webhooks` route', 'gzipBytes'],
  ]) {
    const bundle = bundles[kind];
    if (bundle === undefined) continue;
    const budget = measure === 'allChunksGzipBytes' ? bundles.allChunksBudget : bundle.budget;
    const ok = budget === undefined ? '' : bundle[measure] <= budget ? VERDICT.ok : VERDICT.over;
    rows.push([
      '3',
      `${label}, min+gzip -9`,
      kb(bundle[measure]),
      ky ? `plain ky ${kb(ky.gzipBytes)}` : '',
      ky ? times(bundle[measure] / ky.gzipBytes) : '',
      budget === undefined ? '' : `≤ ${kb(budget)}`,
      ok,
    ]);
  }
  const forbidden = Object.values(bundles).flatMap((bundle) => bundle?.forbiddenInputs ?? []);
  rows.push([
    '3',
    'msw or `testing` code in those bundles',
    forbidden.length === 0 ? 'none' : forbidden.join(', '),
    '',
    '',
    'none',
    forbidden.length === 0 ? VERDICT.ok : VERDICT.over,
  ]);

  if (bulk.missing !== undefined) {
    rows.push(['4', 'Bulk `createBulk`', 'not measured', '', '', '', 'missing']);
  } else {
    for (const [runs, label, budgeted] of [
      [bulk.cheap, 'against a server answering at once', true],
      [bulk.sandbox, 'against the SDK sandbox (reference)', false],
    ]) {
      const seconds = Object.fromEntries(['sdk', 'ky', 'fetch'].map((name) => [name, runs.map((run) => run[name]?.seconds)]));
      const cpuSeconds = Object.fromEntries(['sdk', 'ky', 'fetch'].map((name) => [name, runs.map((run) => run[name]?.cpuSeconds)]));
      const failed = runs.reduce((sum, run) => sum + run.sdk.failed, 0);
      const count = runs[0].count;
      const perSecond = (values) => values.map((value) => count / value);
      rows.push([
        '4',
        `Bulk, ${count.toLocaleString('en-US')} orders ${label}: wall time`,
        `${ranged(perSecond(seconds.sdk), rate)}${failed > 0 ? `, ${failed} failed` : ''}`,
        anchorsCell({ ky: perSecond(seconds.ky), fetch: perSecond(seconds.fetch) }, rate),
        `${ranged(ratios(seconds.sdk, seconds.ky), times)} plain ky's time`,
        budgeted ? '≤ 1.20x' : '',
        budgeted ? verdictCell(ratios(seconds.sdk, seconds.ky), 1.2) : '',
      ]);
      rows.push([
        '4',
        `Bulk, ${count.toLocaleString('en-US')} orders ${label}: client CPU time`,
        ranged(cpuSeconds.sdk, (value) => `${value.toFixed(2)} s`),
        anchorsCell(cpuSeconds, (value) => `${value.toFixed(2)} s`),
        `${ranged(ratios(cpuSeconds.sdk, cpuSeconds.ky), times)} plain ky`,
        '',
        '',
      ]);
    }
  }
  if (stream.missing === undefined) {
    const growth = (variant) => stream.runs.map((run) => run[variant].peakRss - run[variant].rssBefore);
    rows.push([
      '4',
      `Bulk streamed, ${stream.count.toLocaleString('en-US')} orders from a generator: RSS growth (peak minus start), \`streamBulk\` vs plain ky posting the same chunks`,
      ranged(growth('sdk'), mb),
      `plain ky ${mb(medianOf(growth('ky')))}`,
      `${ranged(ratios(growth('sdk'), growth('ky')), times)} plain ky`,
      '≤ 1.50x',
      verdictCell(ratios(growth('sdk'), growth('ky')), 1.5),
    ]);
  }

  const reference = coldStart.ky === undefined ? 'zod/mini' : 'ky';
  const coldAnchors = Object.fromEntries(
    [
      ['ky', 'ky'],
      ['octokit', '@octokit/core'],
      ['openai', 'openai'],
    ].map(([name, module]) => [name, coldStart[module]]),
  );
  for (const [label, name, budget] of [
    ['main entry', 'main', 1.25],
    ['`delivery-sdk/functions`', 'functions', 1.0],
    ['`delivery-sdk/webhooks`', 'webhooks'],
    ['`webhooks/node`', 'webhooksNode'],
    ['`testing`', 'testing'],
  ]) {
    if (coldStart[name] === undefined) continue;
    rows.push([
      '5',
      `Cold start, ${label}: one \`await import()\` in a fresh process`,
      ranged(coldStart[name], ms),
      anchorsCell(coldAnchors, ms),
      `${ranged(ratios(coldStart[name], coldStart[reference]), times)} ${reference}`,
      budget === undefined ? '' : `≤ ${budget.toFixed(2)}x`,
      budget === undefined ? '' : verdictCell(ratios(coldStart[name], coldStart[reference]), budget),
    ]);
  }

  if (heap.ky !== undefined) {
    const difference = heap.sdk.map((bytes, i) => bytes - heap.ky[i]);
    rows.push([
      '6',
      `Heap after ${heap.calls.toLocaleString('en-US')} calls, after gc()`,
      ranged(heap.sdk, mb),
      anchorsCell(heap, mb),
      `${ranged(difference, signedMb)} vs plain ky`,
      '≤ +3.0 MB',
      verdictCell(difference, 3 * 2 ** 20),
    ]);
  }
  return rows;
}

export function markdownTable(rows) {
  const header = ['#', 'Measure', 'Delivery SDK: median (min–max) over runs', 'Anchors, same run: median', 'Ratio: median (min–max)', 'Budget', 'Verdict'];
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

export function machineLine() {
  const cpu = cpus();
  return `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB · Node ${process.version} · ${process.platform}/${process.arch}`;
}

/** The table as docs/performance.md quotes it: the run's date and machine, then the rows. */
export function readmeQuote({ rows, date, load }) {
  return `From the run of ${date} (${machineLine()}; loopback; load average at the start ${load}):\n\n${markdownTable(rows)}`;
}

export function resultsMarkdown({ rows, results, notes, date, durationSeconds, load }) {
  const { perCall, validation, heap, bulk, stream, coldStartRuns } = results;
  return `# Benchmark results

Written by \`npm run bench\` (bench/run.mjs); do not edit by hand.

- Date: ${date}
- Machine: ${machineLine()}; load average at the start ${load}
- Measured: ${results.source === 'dist' ? '`dist/` as built by `npm run build`' : "an esbuild bundle of `src/` shaped like tsup's (dependencies external), with `--src`"}${results.kyVersion ? `; plain ky ${results.kyVersion}` : '; ky unavailable'}; anchors \`@octokit/core\` and \`openai\` with their defaults
- Whole run: ${durationSeconds.toFixed(0)} s

${markdownTable(rows)}

## How each figure is taken

Every timed figure is taken in ${perCall.runs.length} or more fresh processes, the variants interleaved; the table gives the median
over those runs and, in brackets, the lowest and highest. A ratio is taken within each run (the SDK and its
anchor measured in the same process, or in processes run one after the other) and its spread reported the same
way. A verdict is given only when every run is on the same side of the budget; otherwise the figure is
**within noise** of it. CPU time is the client process's user + system time (\`process.cpuUsage()\`), beside
the wall time: it does not move with what else the machine runs as much as wall time does.

1. **Per call**: a \`node:http\` server in a child process on 127.0.0.1 answers every POST at once. Each variant
   sends the same realistic order (receiver, address, specs, cod, 10 image URLs) to \`/deliveries?apiVersion=1\`:
   the SDK's \`deliveries.create\` (validation on, and \`validate: false\`), a raw \`fetch\` POST
   (\`JSON.stringify\` in, \`response.json()\` out), \`ky.post(url, { json }).json()\`, \`@octokit/core\`'s
   \`octokit.request('POST /deliveries{?apiVersion}', { data })\` and \`openai\`'s \`client.post(path, { body })\`, each
   with its defaults (retries and timeouts on). ${perCall.calls.toLocaleString('en-US')} calls each sequentially and ${perCall.concurrentCalls.toLocaleString('en-US')} at concurrency ${perCall.concurrency}, after a
   warm-up; sequentially ${perCall.sequentialBlock === 1 ? 'one call of each variant in turn' : `in blocks of ${perCall.sequentialBlock} calls`}, at concurrency in blocks of ${perCall.concurrentBlock} calls, the variants'
   order shuffled each round: every variant runs in the same state of the machine, after
   every other variant as often, its caches as cold as a call between other work finds them; ${perCall.runs.length} processes.
2. **The plain check on the send path**: \`deliveries.create\` through the public client with a \`fetch\` that
   answers at once in the same process, validation on and \`validate: false\` in alternating blocks of
   ${validation.blockCalls} calls (${validation.blocks} blocks each, ${validation.runs.length} processes); the figure is the median, over pairs of adjacent blocks, of
   their difference in time per call: what \`create\`'s own check costs, whatever shape its code takes inside.
3. **Bundle size**: esbuild \`--bundle --minify --splitting\` (platform browser, ESM) of a page that constructs
   the client and creates one order, of a page that looks up cities, of a page on \`delivery-sdk/functions\`,
   and of a webhook route; what the page loads at once (the entry and its static imports), and every chunk
   it can load; gzip level 9. 1 KB = 1,000 bytes. Deterministic: one build. The same check runs in \`npm test\`.
4. **Bulk**: time: \`createBulk\` of ${bulk.cheap?.[0]?.count?.toLocaleString('en-US') ?? 'N'} orders, and plain ky and raw \`fetch\` posting the same chunks (100) at the same
   concurrency (4), in one client process per run, their order rotating per run; ${bulk.cheap?.length ?? 0} runs against a \`node:http\`
   server that answers each chunk at once (one \`JSON.parse\` to count it), and ${bulk.sandbox?.length ?? 0} against the SDK's sandbox
   (which checks and stores every order) for reference. Memory: ${stream.count?.toLocaleString('en-US') ?? 'N'} orders read from a generator, uploaded by
   \`streamBulk\` or by plain ky posting the same chunks at the same concurrency, outcomes dropped, each in a
   process of its own (${stream.runs?.length ?? 0} of each, alternating) against the cheap server; the figure is the process's peak RSS
   (the kernel's high-water mark) minus its RSS before the upload.
5. **Cold start**: one \`await import(...)\` of each module timed inside a fresh \`node\` process, ${coldStartRuns} rounds, the
   modules' order rotating per round, after one untimed round that fills the file-system cache.
6. **Heap**: \`heapUsed\` after ${heap.calls.toLocaleString('en-US')} sequential calls and three \`gc()\`s (\`--expose-gc\`), each variant in a fresh
   process with only its own modules loaded; ${heap.runs} rounds, the variants' order rotating.
${notes.length > 0 ? `\n## Notes from this run\n\n${notes.map((note) => `- ${note}`).join('\n')}\n` : ''}`;
}
