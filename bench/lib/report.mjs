/** Turns the measurements into the one table `npm run bench` prints and RESULTS.md keeps. */
import { cpus, totalmem } from 'node:os';
import { KB } from './bundle-size.mjs';

const us = (ms) => `${Math.round(ms * 1000).toLocaleString('en-US')} µs`;
const x = (ratio) => `${ratio.toFixed(2)}x`;
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const msOf = (ms) => `${ms.toFixed(1)} ms`;
const verdict = (ok) => (ok ? 'ok' : '**OVER**');

/** Rows of [#, measure, SDK, baseline, ratio, budget, verdict]. */
export function buildRows(results) {
  const rows = [];
  const { perCall, validation, bundles, bulk, coldStart, heap } = results;

  for (const [mode, label] of [
    ['sequential', 'sequential'],
    ['concurrent', `concurrency ${perCall.concurrency}`],
  ]) {
    const { sdk, sdkUnvalidated, fetch, ky, kyBare } = perCall[mode];
    if (ky !== undefined) {
      rows.push([
        '1',
        `Per call, ${label}, median`,
        us(sdk.median),
        `plain ky ${us(ky.median)}`,
        x(sdk.median / ky.median),
        '≤ 1.10x',
        verdict(sdk.median / ky.median <= 1.1),
      ]);
      rows.push(['1', `Per call, ${label}, p99`, us(sdk.p99), `plain ky ${us(ky.p99)}`, x(sdk.p99 / ky.p99), '', '']);
    }
    rows.push([
      '1',
      `Validation's share, ${label}: validation on vs \`validate: false\`, median`,
      us(sdk.median),
      `\`validate: false\` ${us(sdkUnvalidated.median)}`,
      x(sdk.median / sdkUnvalidated.median),
      '≤ 1.05x',
      verdict(sdk.median / sdkUnvalidated.median <= 1.05),
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

  if (validation.opsPerSecond === undefined) {
    rows.push(['2', 'Validation of the order', 'not measured', '', '', '', 'missing']);
  } else {
    const perOp = 1000 / validation.opsPerSecond;
    const call = perCall.sequential.sdk.median;
    rows.push([
      '2',
      `Validation (\`${validation.validator}\`)`,
      `${Math.round(validation.opsPerSecond).toLocaleString('en-US')} ops/s (${us(perOp)})`,
      `one SDK call ${us(call)}`,
      `${((perOp / call) * 100).toFixed(1)} % of a call`,
      '',
      '',
    ]);
  }

  for (const [kind, label] of [
    ['main', 'Bundle, main entry + `deliveries.create`'],
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
  for (const [label, name] of [
    ['main entry', 'main'],
    ['webhooks entry', 'webhooks'],
    ['`webhooks/node` entry', 'webhooksNode'],
    ['`testing` entry', 'testing'],
  ]) {
    if (coldStart[name] === undefined) continue;
    const budgeted = name === 'main';
    rows.push([
      '5',
      `Cold start, ${label}`,
      msOf(coldStart[name]),
      `${reference} alone ${msOf(base)}`,
      x(coldStart[name] / base),
      budgeted ? '≤ 1.25x' : '',
      budgeted ? verdict(coldStart[name] / base <= 1.25) : '',
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
   of each call's duration; each figure is the median over ${results.perCall.runs} fresh processes.
2. **Validation**: the SDK's exported validator on the same order, in timed rounds after a warm-up; median
   ops/s, and the time of one validation as a share of one sequential SDK call.
3. **Bundle size**: esbuild \`--bundle --minify\` (platform browser, ESM) of a checkout entry that constructs
   the client and calls \`deliveries.create\`, and of a webhook route using \`parseWebhookEvent\` and
   \`createWebhookHandler\`; gzip level 9. 1 KB = 1,000 bytes. The same check runs in \`npm test\` on src/.
4. **Bulk**: against the SDK's sandbox listening on 127.0.0.1 in its own process (a fresh one per
   size and measure). Time: \`createBulk\` of an array, plain ky POSTs (\`ky.post(url, { json }).json()\`)
   and raw \`fetch\` POSTs of the same orders in the same chunks (100) and concurrency (4), in rounds of
   one client process, the variants' order rotating per round; median over rounds; the ratio is of the
   times taken (SDK over plain ky; raw fetch for reference). Memory: \`streamBulk\` of orders read from a
   generator, outcomes dropped, in a client process of its own; peak RSS is its kernel high-water mark.
5. **Cold start**: one \`await import(...)\` of each entry timed inside a fresh \`node\` process, median of ${results.coldStartRuns}, interleaved.
6. **Heap**: \`heapUsed\` after ${results.heap.calls.toLocaleString('en-US')} sequential calls and three \`gc()\`s (\`--expose-gc\`), each variant in its own fresh
   process with only its own modules loaded; median of ${results.heap.runs}.
${notes.length > 0 ? `\n## Notes from this run\n\n${notes.map((note) => `- ${note}`).join('\n')}\n` : ''}`;
}
