/**
 * Turns the measurements into the one table `npm run bench` prints and RESULTS.md keeps. Every
 * timed figure is a spread over process runs, median (min–max); a budget is judged on the median,
 * and a median that meets it while the range crosses it is "within noise" (stats.mjs, verdictOf).
 * Beside each figure, the anchors measured in the same run: plain ky, raw fetch, `@octokit/core`
 * and `openai`. The budgets are bench/lib/budgets.mjs.
 */
import { cpus, totalmem } from 'node:os';
import { BUDGETS, FORBIDDEN_SOURCES, KB } from './budgets.mjs';
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
/** The verdict cell of `values` (one per process run) against `budget`: ok, **OVER** or within noise. */
export const verdictCell = (values, budget, options) => VERDICT[verdictOf(spread(values), budget, options)];
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

/** Each process's median over its rounds of `of(round)`. */
const perProcess = (processes, of) => processes.map((run) => medianOf(run.rounds.map(of)));

/**
 * The rows of bulk uploads against one server: for each SDK variant, wall time against plain ky
 * posting the same chunks, client CPU per order, and the SDK's cost per order over plain ky. A
 * ratio or a difference is taken within a round, each process's median over its rounds, then the
 * spread over processes.
 */
function bulkRows(processes, label, variants, budgeted) {
  const rows = [];
  const count = processes[0].count;
  const perOrderUs = (seconds) => (seconds / count) * 1e6;
  const usPerOrder = (value) => `${value.toFixed(1)} µs`;
  const perSecond = (seconds) => count / seconds;
  for (const name of variants) {
    const failed = processes.reduce((sum, run) => sum + run.rounds.reduce((total, round) => total + round[name].failed, 0), 0);
    const wall = perProcess(processes, (round) => round[name].seconds / round.ky.seconds);
    const anchorRate = Object.fromEntries(['ky', 'fetch'].map((anchor) => [anchor, perProcess(processes, (round) => perSecond(round[anchor].seconds))]));
    rows.push([
      '4',
      `Bulk \`${name}\`, ${count.toLocaleString('en-US')} orders ${label}: wall time`,
      `${ranged(
        perProcess(processes, (round) => perSecond(round[name].seconds)),
        rate,
      )}${failed > 0 ? `, ${failed} failed` : ''}`,
      anchorsCell(anchorRate, rate),
      `${ranged(wall, times)} plain ky's time`,
      budgeted ? `≤ ${times(BUDGETS.bulk)} (aim ${times(BUDGETS.bulkAim)})` : '',
      budgeted ? verdictCell(wall, BUDGETS.bulk) : '',
    ]);
    const anchorCpu = Object.fromEntries(['ky', 'fetch'].map((anchor) => [anchor, perProcess(processes, (round) => perOrderUs(round[anchor].cpuSeconds))]));
    rows.push([
      '4',
      `Bulk \`${name}\`, ${label}: client CPU time per order`,
      ranged(
        perProcess(processes, (round) => perOrderUs(round[name].cpuSeconds)),
        usPerOrder,
      ),
      anchorsCell(anchorCpu, usPerOrder),
      `${ranged(
        perProcess(processes, (round) => round[name].cpuSeconds / round.ky.cpuSeconds),
        times,
      )} plain ky`,
      '',
      '',
    ]);
    rows.push([
      '4',
      `Bulk \`${name}\`, ${label}: the SDK's cost per order over plain ky's chunks, client CPU (wall time beside)`,
      ranged(
        perProcess(processes, (round) => perOrderUs(round[name].cpuSeconds - round.ky.cpuSeconds)),
        usPerOrder,
      ),
      `wall ${ranged(
        perProcess(processes, (round) => perOrderUs(round[name].seconds - round.ky.seconds)),
        usPerOrder,
      )}`,
      '',
      '',
      '',
    ]);
  }
  return rows;
}

/** Section 4's rows: bulk time against the cheap server and the sandbox, and streaming memory. */
export function bulkSectionRows({ bulk, stream }) {
  const rows = [];
  if (bulk.missing !== undefined) {
    rows.push(['4', 'Bulk `createBulk`', 'not measured', '', '', '', 'missing']);
  } else {
    rows.push(...bulkRows(bulk.cheap, 'against a server answering at once', ['createBulk', 'streamBulk'], true));
    rows.push(...bulkRows(bulk.sandbox, 'against the SDK sandbox (reference)', ['createBulk'], false));
  }
  if (stream.missing === undefined) {
    const growth = (variant) => stream.runs.map((run) => run[variant].peakRss - run[variant].rssBefore);
    rows.push([
      '4',
      `Bulk streamed, ${stream.count.toLocaleString('en-US')} orders from a generator: RSS growth (peak minus start), \`streamBulk\` vs plain ky posting the same chunks`,
      ranged(growth('sdk'), mb),
      `plain ky ${mb(medianOf(growth('ky')))}`,
      `${ranged(ratios(growth('sdk'), growth('ky')), times)} plain ky`,
      `≤ ${times(BUDGETS.streamRss)}`,
      verdictCell(ratios(growth('sdk'), growth('ky')), BUDGETS.streamRss),
    ]);
  }
  return rows;
}

/**
 * Section 5's rows of the first answered call (bench/lib/first-call.mjs): wall time from the import,
 * CPU time, wall time from the process's start; none without the plain-ky anchor. Also what
 * `node bench/run.mjs --first-call` prints alone.
 */
export function firstCallRows(firstCall) {
  const rows = [];
  if (firstCall === undefined || firstCall.ky === undefined) return rows;
  const field = (name, key) => firstCall[name].map((run) => run[key]);
  const anchors = (key) =>
    Object.fromEntries(['ky', 'fetch', 'octokit', 'openai'].filter((name) => firstCall[name] !== undefined).map((name) => [name, field(name, key)]));
  // One row per figure of each process, the SDK against plain ky; only the first has a budget.
  const row = (measure, key, budget) => {
    const ratio = ratios(field('sdk', key), field('ky', key));
    const judged = budget === undefined ? ['', ''] : [`≤ ${times(budget)}`, verdictCell(ratio, budget)];
    return ['5', measure, ranged(field('sdk', key), ms), anchorsCell(anchors(key), ms), `${ranged(ratio, times)} plain ky`, ...judged];
  };
  rows.push(
    row(
      'Cold start to the first answered create, main entry: a fresh process imports it, builds a client, awaits one create (loopback); from the import to the answer',
      'firstCallMs',
      BUDGETS.firstCall,
    ),
    row('The same: client CPU time (user + system) from the import to the answer', 'firstCallCpuMs'),
    row("The same, wall time from the process's start (Node's own start-up included) to the answer", 'sinceStartMs'),
  );
  return rows;
}

/** Section 3's rows: each page's figures (bench/lib/bundle-size.mjs), then the check for code no page may carry. Also what `--pages` prints alone. */
export function pageRows(bundles) {
  const rows = [];
  const kyPage = bundles.ky;
  for (const [kind, page] of [
    ['main', 'a `DeliveryClient` page creating one order'],
    ['cities', 'a page looking cities up'],
    ['functions', 'a `delivery-sdk/functions` page creating one order'],
    ['webhooks', 'a `delivery-sdk/webhooks` route'],
  ]) {
    const bundle = bundles[kind];
    if (bundle === undefined) continue;
    const figures = [
      ['atOnce', 'at once (the page and its static imports)'],
      ['firstCall', 'loaded when its first call has answered'],
      ['allChunks', 'every chunk it can load'],
    ];
    // A page without a call or lazily loaded code loads it all at once: one row says so.
    const one = bundle.allChunks.files.length === bundle.atOnce.files.length;
    for (const [figure, label] of one ? [['atOnce', 'all it can load, at once']] : figures) {
      const measured = bundle[figure];
      const budget = bundle.budget[figure] ?? (one ? bundle.budget.atOnce : undefined);
      const files = `${measured.files.length} file${measured.files.length === 1 ? '' : 's'}`;
      rows.push([
        '3',
        `Bundle, ${page}: ${label}, min+gzip -9`,
        `${kb(measured.gzipBytes)}, ${files}${measured.files.length > 1 ? ` (${kb(measured.eachGzipBytes)} gzipped one by one)` : ''}`,
        kyPage ? `plain ky ${kb(kyPage.atOnce.gzipBytes)}` : '',
        kyPage ? times(measured.gzipBytes / kyPage.atOnce.gzipBytes) : '',
        budget === undefined ? '' : `≤ ${kb(budget)}`,
        budget === undefined ? '' : measured.gzipBytes <= budget ? VERDICT.ok : VERDICT.over,
      ]);
    }
  }
  const forbidden = Object.values(bundles).flatMap((bundle) => bundle?.forbiddenInputs ?? []);
  rows.push([
    '3',
    `Code of ${FORBIDDEN_SOURCES.map(({ name }) => name).join(', ')} in any chunk of those pages`,
    forbidden.length === 0 ? 'none' : forbidden.join(', '),
    '',
    '',
    'none',
    forbidden.length === 0 ? VERDICT.ok : VERDICT.over,
  ]);
  return rows;
}

/** Section 5's rows of import alone, each entry against ky (bench/lib/cold-start.mjs). Also what `--cold` prints, beside the first answered create. */
export function importRows(coldStart) {
  const rows = [];
  const reference = coldStart.ky === undefined ? 'zod/mini' : 'ky';
  const coldAnchors = Object.fromEntries(
    [
      ['ky', 'ky'],
      ['octokit', '@octokit/core'],
      ['openai', 'openai'],
    ].map(([name, module]) => [name, coldStart[module]]),
  );
  for (const [label, name] of [
    ['main entry', 'main'],
    ['`delivery-sdk/functions`', 'functions'],
    ['`delivery-sdk/webhooks`', 'webhooks'],
    ['`webhooks/node`', 'webhooksNode'],
    ['`testing`', 'testing'],
  ]) {
    if (coldStart[name] === undefined) continue;
    const budget = BUDGETS.importAlone[name];
    rows.push([
      '5',
      `Cold start, ${label}: one \`await import()\` alone in a fresh process`,
      ranged(coldStart[name], ms),
      anchorsCell(coldAnchors, ms),
      `${ranged(ratios(coldStart[name], coldStart[reference]), times)} ${reference}`,
      budget === undefined ? '' : `≤ ${times(budget)}`,
      budget === undefined ? '' : verdictCell(ratios(coldStart[name], coldStart[reference]), budget),
    ]);
  }
  return rows;
}

/** Rows of [#, measure, SDK, anchors, ratio, budget, verdict]. */
export function buildRows(results) {
  const rows = [];
  const { perCall, validation, bundles, bulk, stream, coldStart, firstCall, heap } = results;

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
        `≤ ${times(BUDGETS.perCall)}`,
        verdictCell(ratios(wall.sdk, wall.ky), BUDGETS.perCall),
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
      `≤ ${times(BUDGETS.validationOn)}`,
      verdictCell(ratios(wall.sdk, wall.sdkUnvalidated), BUDGETS.validationOn),
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

  rows.push(...pageRows(bundles));

  rows.push(...bulkSectionRows({ bulk, stream }));
  rows.push(...firstCallRows(firstCall));
  rows.push(...importRows(coldStart));

  if (heap.ky !== undefined) {
    const difference = heap.sdk.map((bytes, i) => bytes - heap.ky[i]);
    rows.push([
      '6',
      `Heap after ${heap.calls.toLocaleString('en-US')} calls, after gc()`,
      ranged(heap.sdk, mb),
      anchorsCell(heap, mb),
      `${ranged(difference, signedMb)} vs plain ky`,
      `≤ +${mb(BUDGETS.heapOverKy)}`,
      verdictCell(difference, BUDGETS.heapOverKy),
    ]);
  }
  return rows;
}

/**
 * The note a row gets when it is not ok: its figure against its budget. A size's budget is in KB,
 * so its note gives the size measured, not the ratio to ky beside it.
 */
export function budgetNote(row) {
  const [, figure, measured, , ratio, budget, verdict] = row;
  if (verdict === '' || verdict === 'ok') return undefined;
  return `${figure}: ${verdict.replaceAll('*', '')} (${budget.endsWith('KB') ? measured : ratio}; budget ${budget}).`;
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

export function resultsMarkdown({ rows, results, notes, date, durationSeconds, load, kept = '' }) {
  const { perCall, validation, heap, bulk, stream, coldStartRuns, firstCall } = results;
  const cheap = bulk.cheap ?? [];
  const firstCallRuns = firstCall?.ky?.length ?? 0;
  return `# Benchmark results

Written by \`npm run bench\` (bench/run.mjs); do not edit by hand, but for the notes between the
\`kept\` markers at the end, which a run keeps.

- Date: ${date}
- Machine: ${machineLine()}; load average at the start ${load} (the machine is shared with other work: a load
  above its ${cpus().length} cores means the benchmark's processes waited for a core part of the time)
- Measured: ${results.source === 'dist' ? '`dist/` as built by `npm run build`' : "an esbuild bundle of `src/` shaped like tsup's (dependencies external), with `--src`"}${results.kyVersion ? `; plain ky ${results.kyVersion}` : '; ky unavailable'}; anchors \`@octokit/core\` and \`openai\` with their defaults
- Whole run: ${durationSeconds.toFixed(0)} s

${markdownTable(rows)}

## How each figure is taken

Every timed figure is taken in ${perCall.runs.length} or more fresh processes, the variants interleaved; the table gives the median
over those runs and, in brackets, the lowest and highest. A ratio is taken within each run (the SDK and its
anchor measured in the same process, or in processes run one after the other) and its spread reported the same
way. A budget is judged on the median: **OVER** when the median is past it, *within noise* when the median meets
it but the range crosses it, ok when every run meets it. CPU time is the client process's user + system time
(\`process.cpuUsage()\`), beside the wall time: it does not move with what else the machine runs as much as wall
time does. The budgets are in bench/lib/budgets.mjs, one place for the bench and the tests.

1. **Per call**: a \`node:http\` server in a child process on 127.0.0.1 answers every POST at once. Each variant
   sends the same realistic order (receiver, address, specs, cod, 10 image URLs) to \`/deliveries?apiVersion=1\`:
   the SDK's \`deliveries.create\` (validation on, and \`validate: false\`), a raw \`fetch\` POST
   (\`JSON.stringify\` in, \`response.json()\` out), \`ky.post(url, { json, headers: { authorization } }).json()\`,
   \`@octokit/core\`'s \`octokit.request('POST /deliveries{?apiVersion}', { data })\` and \`openai\`'s
   \`client.post(path, { body })\`, each with its defaults (retries and timeouts on). ${perCall.calls.toLocaleString('en-US')} calls each sequentially and ${perCall.concurrentCalls.toLocaleString('en-US')} at
   concurrency ${perCall.concurrency}, after a warm-up; sequentially ${perCall.sequentialBlock === 1 ? 'one call of each variant in turn' : `in blocks of ${perCall.sequentialBlock} calls`}, at concurrency in blocks of ${perCall.concurrentBlock} calls,
   the variants' order shuffled each round: every variant runs in the same state of the machine, after every
   other variant as often, its caches as cold as a call between other work finds them; ${perCall.runs.length} processes.
2. **The plain check on the send path**: \`deliveries.create\` through the public client with a \`fetch\` that
   answers at once in the same process, validation on and \`validate: false\` in alternating blocks of
   ${validation.blockCalls} calls (${validation.blocks} blocks each, ${validation.runs.length} processes); the figure is the median, over pairs of adjacent blocks, of
   their difference in time per call: what \`create\`'s own check costs, whatever shape its code takes inside.
3. **Pages, as a browser loads them**: each page is built as a storefront's bundler builds it (esbuild
   \`--bundle --minify --splitting\`, platform browser, ESM) against \`dist/\`: a page that constructs the client and
   creates one order, one that looks cities up, one on \`delivery-sdk/functions\` (\`DeliveryCore\` +
   \`createDelivery\`), a webhook route. Three figures each, the files of a figure gzipped together (level 9), with
   their number: **at once**, the page's own output and its static imports; **loaded when its first call has
   answered**, that and every chunk the page really loaded through \`import()\` until then: the built page runs
   in a child Node process with a module-load hook (\`module.register\`) recording every file it loads, its
   \`fetch\` answered in process (a created order, a cities list), the page awaiting its call; **every chunk**, all
   the page can load through static imports and \`import()\`. Beside each, the same files gzipped one by one, as
   a browser fetches them. 1 KB = 1,000 bytes. Deterministic: one build. The same function runs in \`npm test\`
   (test/bench/bundle-size.test.ts), on \`src/\` built like \`dist/\`.
4. **Bulk**: time: \`createBulk\` of ${cheap[0]?.count?.toLocaleString('en-US') ?? 'N'} orders (an array, checked whole before sending), \`streamBulk\` of the same
   orders from an iterator (checked chunk by chunk), plain ky and raw \`fetch\` posting the same chunks (100) at the
   same concurrency (4), validation on; ${cheap[0]?.rounds?.length ?? 0} rounds in each of ${cheap.length} client processes, the variants' order shuffled in
   each round, against a \`node:http\` server that answers each chunk at once (one \`JSON.parse\` to count it). A
   ratio or a cost per order is taken within a round, each process gives the median over its rounds, and the
   table the median (min–max) over processes. The SDK's cost per order is its client CPU time minus plain ky's,
   divided by the orders. For reference, ${bulk.sandbox?.length ?? 0} processes of one round against the SDK's sandbox (which checks and stores
   every order, a fresh one per process). Memory: ${stream.count?.toLocaleString('en-US') ?? 'N'} orders read from a generator, uploaded by \`streamBulk\`
   or by plain ky posting the same chunks at the same concurrency, outcomes dropped, each in a process of its own
   (${stream.runs?.length ?? 0} of each, alternating) against the cheap server; the figure is the process's peak RSS (the kernel's
   high-water mark) minus its RSS before the upload.
5. **Cold start**: to the first answered call: a fresh \`node\` process (bench/lib/first-call.mjs) imports the
   main entry, builds a client and awaits one create of the realistic order answered by the loopback server;
   plain ky the same with \`ky.post(url, { json: order, headers: { authorization: key } }).json()\`; raw \`fetch\`,
   \`@octokit/core\` and \`openai\` as anchors. ${firstCallRuns} processes of each, the order shuffled in each round, after one
   untimed round; timed from before the import to the answer (the budget's figure), the process's CPU time
   over the same span beside it, and from the process's start. Import alone: one \`await import(...)\` of each module timed inside a fresh \`node\` process, ${coldStartRuns} rounds,
   the modules' order rotating per round, after one untimed round that fills the file-system cache.
6. **Heap**: \`heapUsed\` after ${heap.calls.toLocaleString('en-US')} sequential calls and three \`gc()\`s (\`--expose-gc\`), each variant in a fresh
   process with only its own modules loaded; ${heap.runs} rounds, the variants' order rotating.
${notes.length > 0 ? `\n## Notes from this run\n\n${notes.map((note) => `- ${note}`).join('\n')}\n` : ''}
<!-- kept:start -->
${kept.trim()}
<!-- kept:end -->
`;
}
