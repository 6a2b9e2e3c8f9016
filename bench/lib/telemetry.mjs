/**
 * What `telemetry` costs per call (issue 43): a create against the cheap echo server without the
 * option, with `openTelemetry()` and no OpenTelemetry SDK registered, and, for scale, with an SDK
 * recording every span and metric. Budget: the API alone at most 3% over no telemetry. The ratio of
 * median latencies (and of CPU time per call) is taken in each of 7 process runs (interleaved
 * blocks), reported as median (min–max), with a verdict only when every run is on one side of the
 * budget. Without the option, the per-call figure of the main table holds (its own budget).
 *
 * `npm run bench` adds its section to bench/RESULTS.md; `node bench/lib/telemetry.mjs` runs it
 * alone on dist/ (build first) and prints the section.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChild, startServer } from './child.mjs';
import { median, spread, verdictOf } from './stats.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const TELEMETRY = { runs: Number(process.env['BENCH_RUNS'] ?? 7), calls: 2_000, block: 5, warmup: 300, budget: 1.03 };

/** Resolves to `{ markdown, notes }`: a section for RESULTS.md, and what a reader must know. */
export async function measureTelemetry({ log = () => {} } = {}) {
  const mainModule = join(ROOT, 'dist/index.js');
  const telemetryModule = join(ROOT, 'dist/telemetry/index.js');
  for (const file of [mainModule, telemetryModule]) if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first.`);
  const server = await startServer('echo-server.mjs');
  const runs = [];
  try {
    for (let run = 1; run <= TELEMETRY.runs; run++) {
      log(`telemetry: process run ${run} of ${TELEMETRY.runs}`);
      runs.push(await runChild('telemetry-child.mjs', { mainModule, telemetryModule, ...server.info, ...TELEMETRY }));
    }
  } finally {
    await server.stop();
  }
  return report(runs);
}

function report(runs) {
  const ms = (variant) => median(runs.map((run) => run[variant].median));
  const cpu = (variant) => median(runs.map((run) => run[variant].cpu));
  const ratio = (variant, field) => spread(runs.map((run) => run[variant][field] / run.off[field]));
  const range = ({ min, median: mid, max }) => `${mid.toFixed(3)}x (${min.toFixed(3)}–${max.toFixed(3)})`;
  const notes = [];
  const rows = [
    ['no `telemetry`', 'off'],
    ['no `telemetry`, a second client (the noise floor)', 'control'],
    ['`openTelemetry()`, no SDK registered', 'api'],
    ['`openTelemetry()` over an SDK recording every span and metric', 'sdk'],
  ].map(([label, variant]) => {
    if (variant === 'off') return `| ${label} | ${ms('off').toFixed(3)} ms | ${cpu('off').toFixed(3)} ms | 1 | 1 | (the per-call row above) | |`;
    const wall = ratio(variant, 'median');
    const own = ratio(variant, 'cpu');
    if (variant === 'control')
      return `| ${label} | ${ms(variant).toFixed(3)} ms | ${cpu(variant).toFixed(3)} ms | ${range(wall)} | ${range(own)} | control | |`;
    if (variant === 'sdk') return `| ${label} | ${ms(variant).toFixed(3)} ms | ${cpu(variant).toFixed(3)} ms | ${range(wall)} | ${range(own)} | for scale | |`;
    const verdict = { ok: 'ok', over: '**OVER**', noise: 'within noise' }[verdictOf(wall, TELEMETRY.budget)];
    if (verdict !== 'ok')
      notes.push(`Telemetry: \`openTelemetry()\` with no SDK costs ${range(wall)} a call without it: ${verdict} against the ${TELEMETRY.budget}x budget.`);
    return `| ${label} | ${ms(variant).toFixed(3)} ms | ${cpu(variant).toFixed(3)} ms | ${range(wall)} | ${range(own)} | ≤ ${TELEMETRY.budget}x | ${verdict} |`;
  });
  const seam = median(runs.map((run) => run.seamMicros));
  const markdown = [
    '## Telemetry per call',
    '',
    `\`client.deliveries.create\` against the cheap server, ${TELEMETRY.calls.toLocaleString('en-US')} sequential calls per variant in each of ${runs.length} process runs, in blocks of ${TELEMETRY.block} whose order is shuffled every round; the ratios to no telemetry are taken in each run, median (min–max) over runs. Budget: \`openTelemetry()\` with the OpenTelemetry API installed but no SDK registered at most ${Math.round((TELEMETRY.budget - 1) * 100)}% over no telemetry; a verdict only when every run is on one side of it.`,
    '',
    '| Variant | Median per call | CPU per call | Wall: ratio, median (min–max) | CPU: ratio | Budget | Verdict |',
    '| --- | ---: | ---: | ---: | ---: | --- | --- |',
    ...rows,
    '',
    `The telemetry's own work for such a call with no SDK registered (a create answered at its first attempt: the call, and its attempt when the call is not left alone, timed alone over 200,000 repetitions): ${seam.toFixed(2)} µs, ${((seam / 1000 / ms('off')) * 100).toFixed(2)}% of the median call without it.`,
    '',
  ].join('\n');
  return { markdown, notes };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { markdown, notes } = await measureTelemetry({ log: (message) => process.stderr.write(`[bench] ${message}\n`) });
  console.log(markdown);
  if (notes.length > 0) console.log(notes.map((note) => `- ${note}`).join('\n'));
}
