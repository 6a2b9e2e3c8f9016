/** Turns the measurements into the one table `npm run bench` prints and RESULTS.md keeps. */
import { cpus, totalmem } from 'node:os';
import { BUDGETS, KB } from './bundle-size.mjs';

const us = (ms) => `${Math.round(ms * 1000).toLocaleString('en-US')} µs`;
const x = (ratio) => `${ratio.toFixed(2)}x`;
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const msOf = (ms) => `${ms.toFixed(1)} ms`;
const verdict = (ok) => (ok ? 'ok' : '**OVER**');

/** The smallest, middle and largest of `values`. */
function spread(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0], median: sorted[Math.floor((sorted.length - 1) / 2)], max: sorted.at(-1) };
}

/** A ratio taken run by run: its median, and its range over the runs. */
const ratioText = (ratios) => {
  const { min, median, max } = spread(ratios);
  return `${x(median)} (${x(min)} to ${x(max)}, ${ratios.length} runs)`;
};

/** A verdict only when the whole range is on one side of the budget; else the runs cannot tell. */
function rangeVerdict(ratios, budget) {
  const { min, max } = spread(ratios);
  if (max <= budget) return 'ok';
  if (min > budget) return '**OVER**';
  return 'within noise';
}

const perRun = (a, b) => a.runs.map((value, run) => value / b.runs[run]);
const withCpu = (figure) => `${us(figure.median)} (CPU ${us(figure.cpu)})`;

/** Rows of [#, measure, SDK, baseline, ratio, budget, verdict]. */
export function buildRows(results) {
  const rows = [];
  const { perCall, validation, bundles, bulk, coldStart, coldStartByRun, heap } = results;

  for (const [mode, label] of [
    ['sequential', 'sequential'],
    ['concurrent', `concurrency ${perCall.concurrency}`],
  ]) {
    const { sdk, sdkUnvalidated, fetch, ky, kyBare } = perCall[mode];
    if (ky !== undefined) {
      rows.push([
        '1',
        `Per call, ${label}, median wall time (CPU time per call)`,
        withCpu(sdk),
        `plain ky ${withCpu(ky)}`,
        ratioText(perRun(sdk, ky)),
        '≤ 1.10x',
        rangeVerdict(perRun(sdk, ky), 1.1),
      ]);
      rows.push(['1', `Per call, ${label}, p99`, us(sdk.p99), `plain ky ${us(ky.p99)}`, x(sdk.p99 / ky.p99), '', '']);
    }
    rows.push([
      '1',
      `Validation's share, ${label}: validation on vs \`validate: false\`, median`,
      us(sdk.median),
      `\`validate: false\` ${us(sdkUnvalidated.median)}`,
      ratioText(perRun(sdk, sdkUnvalidated)),
      '≤ 1.05x',
      rangeVerdict(perRun(sdk, sdkUnvalidated), 1.05),
    ]);
    rows.push([
      '1',
      `Per call, ${label}, median, against raw fetch (reference)`,
      us(sdk.median),
      `raw fetch ${us(fetch.median)}`,
      x(sdk.median / fetch.median),
      '',
      '',
    ]);
    if (ky !== undefined)
      rows.push(['1', `Plain ky, ${label}, median (reference)`, us(ky.median), `raw fetch ${us(fetch.median)}`, x(ky.median / fetch.median), '', '']);
    if (kyBare !== undefined) {
      rows.push([
        '1',
        `Plain ky with \`retry: 0, timeout: false\`, ${label}, median (reference)`,
        us(kyBare.median),
        `raw fetch ${us(fetch.median)}`,
        x(kyBare.median / fetch.median),
        '',
        '',
      ]);
    }
  }

  rows.push([
    '2',
    'Checking an order on the send path: `createDelivery` with validation on, over an in-process answer',
    `${us(validation.checked)} (the check ${us(validation.checkMs)})`,
    `\`validate: false\` ${us(validation.unchecked)}`,
    x(validation.checked / validation.unchecked),
    '',
    '',
  ]);

  for (const [kind, label] of [
    ['main', 'Bundle, `DeliveryClient` + `deliveries.create`, at once'],
    ['cities', 'Bundle, `DeliveryClient` + `lookup.cities`, at once'],
    ['functions', 'Bundle, `DeliveryCore` + `createDelivery`, at once'],
    ['webhooks', 'Bundle, `delivery-sdk/webhooks`'],
  ]) {
    const bundle = bundles[kind];
    const base = bundles.ky;
    rows.push([
      '3',
      `${label}, min+gzip -9`,
      kb(bundle.gzipBytes),
      base ? `ky alone ${kb(base.gzipBytes)}` : '',
      base ? x(bundle.gzipBytes / base.gzipBytes) : '',
      `≤ ${kb(bundle.budget)}`,
      verdict(bundle.gzipBytes <= bundle.budget),
    ]);
  }
  rows.push([
    '3',
    'Bundle, `DeliveryClient` + `deliveries.create`, every chunk it can load (gzipped together; each on its own)',
    `${kb(bundles.main.allChunksGzipBytes)}; ${kb(bundles.main.eachChunkGzipBytes)}`,
    '',
    '',
    `≤ ${kb(BUDGETS.allChunks)}`,
    verdict(bundles.main.allChunksGzipBytes <= BUDGETS.allChunks),
  ]);
  const forbidden = [...bundles.main.forbiddenInputs, ...bundles.webhooks.forbiddenInputs];
  rows.push([
    '3',
    'msw or `testing` code in those bundles',
    forbidden.length === 0 ? 'none' : forbidden.join(', '),
    '',
    '',
    'none',
    verdict(forbidden.length === 0),
  ]);

  if (bulk.missing !== undefined) {
    rows.push(['4', 'Bulk `createBulk`', 'not measured', '', '', 'RSS(100k) ≤ 1.5x RSS(10k), streamed', 'missing']);
  } else {
    const [small, large] = bulk.runs;
    for (const run of bulk.runs) {
      const failures = run.failed > 0 ? `, ${run.failed.toLocaleString('en-US')} failed` : '';
      const rate = (perSecond) => `${Math.round(perSecond).toLocaleString('en-US')} orders/s`;
      if (run.kyOrdersPerSecond !== undefined) {
        const ratio = run.kyOrdersPerSecond / run.ordersPerSecond;
        rows.push([
          '4',
          `Bulk, ${run.count.toLocaleString('en-US')} orders, time (rounds interleaved with plain ky)`,
          `${rate(run.ordersPerSecond)}${failures}`,
          `plain ky ${rate(run.kyOrdersPerSecond)}`,
          `${x(ratio)} the time`,
          '≤ 1.20x',
          verdict(ratio <= 1.2),
        ]);
      }
      if (run.fetchOrdersPerSecond !== undefined) {
        rows.push([
          '4',
          `Bulk, ${run.count.toLocaleString('en-US')} orders, against raw fetch (reference)`,
          `${rate(run.ordersPerSecond)}${failures}`,
          `raw fetch ${rate(run.fetchOrdersPerSecond)}`,
          `${x(run.fetchOrdersPerSecond / run.ordersPerSecond)} the time`,
          '',
          '',
        ]);
      }
    }
    const ratio = large.peakRss / small.peakRss;
    rows.push([
      '4',
      `Bulk, peak RSS ${large.count.toLocaleString('en-US')} orders, \`streamBulk\` from a generator`,
      mb(large.peakRss),
      `${small.count.toLocaleString('en-US')} orders ${mb(small.peakRss)}`,
      x(ratio),
      '≤ 1.50x',
      verdict(ratio <= 1.5),
    ]);
  }

  const reference = coldStart.ky === undefined ? 'zod/mini' : 'ky';
  const base = coldStart[reference];
  const coldRatios = (name) => coldStartByRun[name].map((ms, run) => ms / coldStartByRun[reference][run]);
  const COLD_BUDGETS = { main: 1.25, functions: 1 };
  for (const [label, name] of [
    ['main entry', 'main'],
    ['functions entry', 'functions'],
    ['webhooks entry', 'webhooks'],
    ['`webhooks/node` entry', 'webhooksNode'],
    ['`testing` entry', 'testing'],
  ]) {
    if (coldStart[name] === undefined) continue;
    const budget = COLD_BUDGETS[name];
    rows.push([
      '5',
      `Cold start, ${label}`,
      msOf(coldStart[name]),
      `${reference} alone ${msOf(base)}`,
      ratioText(coldRatios(name)),
      budget === undefined ? '' : `≤ ${x(budget)}`,
      budget === undefined ? '' : rangeVerdict(coldRatios(name), budget),
    ]);
  }
  for (const name of ['zod', 'zod/mini', 'ky']) {
    if (coldStart[name] !== undefined && name !== reference)
      rows.push([
        '5',
        `Cold start, \`${name}\` alone (reference)`,
        msOf(coldStart[name]),
        `${reference} alone ${msOf(base)}`,
        x(coldStart[name] / base),
        '',
        '',
      ]);
  }

  const signed = (bytes) => `${bytes >= 0 ? '+' : '−'}${mb(Math.abs(bytes))}`;
  if (heap.ky !== undefined) {
    rows.push([
      '6',
      `Heap after ${heap.calls.toLocaleString('en-US')} calls, after gc()`,
      mb(heap.sdk),
      `plain ky ${mb(heap.ky)}`,
      signed(heap.sdk - heap.ky),
      '≤ +3.0 MB',
      verdict(heap.sdk - heap.ky <= 3 * 2 ** 20),
    ]);
    rows.push(['6', 'Heap, plain ky (reference)', mb(heap.ky), `raw fetch ${mb(heap.fetch)}`, signed(heap.ky - heap.fetch), '', '']);
  }
  rows.push(['6', 'Heap, SDK against raw fetch (reference)', mb(heap.sdk), `raw fetch ${mb(heap.fetch)}`, signed(heap.sdk - heap.fetch), '', '']);
  return rows;
}

export function markdownTable(rows) {
  const header = ['#', 'Measure', 'Delivery SDK', 'Baseline (same run)', 'Ratio', 'Budget', ''];
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

export function machineLine() {
  const cpu = cpus();
  return `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB · Node ${process.version} · ${process.platform}/${process.arch}`;
}

/** The table as README quotes it: the run's date and machine, then the rows. */
export function readmeQuote({ rows, date }) {
  return `From the run of ${date} (${machineLine()}; loopback):\n\n${markdownTable(rows)}`;
}

export function resultsMarkdown({ rows, results, notes, date, durationSeconds }) {
  return `# Benchmark results

Written by \`npm run bench\` (bench/run.mjs); do not edit by hand.

- Date: ${date}
- Machine: ${machineLine()}
- Measured: ${results.source === 'dist' ? '`dist/` as built by `npm run build`' : "an esbuild bundle of `src/` shaped like tsup's (dependencies external), with `--src`"}${results.kyVersion ? `; plain ky ${results.kyVersion} as a reference` : '; ky unavailable'}
- Whole run: ${durationSeconds.toFixed(0)} s

${markdownTable(rows)}

## How each figure is taken

1. **Per call**: a \`node:http\` server in a child process on 127.0.0.1 answers every POST at once with the
   spec's success envelope. Each variant sends the same realistic order (receiver, address, specs, cod,
   10 image URLs) to \`/deliveries?apiVersion=1\`: the SDK's \`deliveries.create\` with validation on, a raw
   \`fetch\` POST (\`JSON.stringify\` in, \`response.json()\` out), and \`ky.post(url, { json }).json()\` with ky's
   defaults (and, for reference, with \`retry: 0, timeout: false\`). ${results.perCall.calls.toLocaleString('en-US')} calls each sequentially and ${results.perCall.calls.toLocaleString('en-US')} at concurrency ${results.perCall.concurrency}, after a warm-up,
   interleaved in blocks (${results.perCall.sequentialBlock} sequential, ${results.perCall.concurrentBlock} concurrent) whose variant order rotates. Median and p99
   of each call's duration, and the process's CPU time per call while the variant ran; each figure is the
   median over ${results.perCall.runs} fresh processes. A ratio is taken run by run (the SDK and its baseline of the
   same process) and given as its median with its range; the verdict is "ok" or "OVER" only when the whole
   range is on one side of the budget, "within noise" otherwise.
2. **Checking an order on the send path**: \`createDelivery\` with validation on and with \`validate: false\`,
   over a \`fetch\` that answers in the same process at once, interleaved rounds after a warm-up; the
   difference is what the checking step \`create\` runs costs a call (not a validator off that path).
3. **Bundle size**: esbuild \`--bundle --minify --splitting\` (platform browser, ESM, as Vite, webpack and
   Next build) of a checkout entry that constructs the client and calls \`deliveries.create\`, of a page that
   only looks cities up, of the same checkout over \`delivery-sdk/functions\`, and of a webhook route; what
   the page loads at once (the entry and its static imports), and every chunk it can load; gzip level 9.
   1 KB = 1,000 bytes. The same check runs in \`npm test\` on src/.
4. **Bulk**: against the SDK's sandbox listening on 127.0.0.1 in its own process (a fresh one per
   size and measure). Time: \`createBulk\` of an array, plain ky POSTs (\`ky.post(url, { json }).json()\`)
   and raw \`fetch\` POSTs of the same orders in the same chunks (100) and concurrency (4), in rounds of
   one client process, the variants' order rotating per round; median over rounds; the ratio is of the
   times taken (SDK over plain ky; raw fetch for reference). Memory: \`streamBulk\` of orders read from a
   generator, outcomes dropped, in a client process of its own; peak RSS is its kernel high-water mark.
5. **Cold start**: one \`await import(...)\` of each entry timed inside a fresh \`node\` process, ${results.coldStartRuns} runs interleaved; the
   ratio to ky is taken run by run, given with its range, and judged as in 1.
6. **Heap**: \`heapUsed\` after ${results.heap.calls.toLocaleString('en-US')} sequential calls and three \`gc()\`s (\`--expose-gc\`), each variant in its own fresh
   process with only its own modules loaded; median of ${results.heap.runs}.
${notes.length > 0 ? `\n## Notes from this run\n\n${notes.map((note) => `- ${note}`).join('\n')}\n` : ''}`;
}
