/**
 * `delivery-sdk orders import` against what a program of its own would do, both against the cheap
 * server (bench/lib/cli-server.mjs), each a fresh process timed from its start to its exit:
 * - time: the command importing a CSV of 10,000 realistic orders (the results file written, the
 *   tracking numbers read) against `streamBulk` of the same orders in memory followed by
 *   `resolveTrackingNumbers` (bench/lib/cli-baseline.mjs); the two alternate, RUNS runs each, and
 *   the ratio is taken within each run. Budget: 1.15x.
 *   Beside the wall time, each process's CPU time (user and system), which moves less with what
 *   else the machine runs.
 * - memory: the command's peak RSS importing 50,000 rows and 100,000 rows: flat when the second
 *   half of the larger file adds nothing (V8's heap reaches its working size early in a run).
 * Prints its section and writes it into bench/RESULTS.md and docs/performance.md, between its
 * markers. `npm run bench` runs it after bench/run.mjs; `node bench/cli-import.mjs` alone (after
 * `npm run build`).
 */
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib/child.mjs';
import { writeImportFile } from './lib/cli-orders.mjs';
import { rotate, spread, verdictOf } from './lib/stats.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = join(ROOT, 'dist/cli/main.js');
const MAIN = join(ROOT, 'dist/index.js');
const RUNS = Number(process.env['BENCH_RUNS'] ?? 7);
const MEMORY_RUNS = Number(process.env['BENCH_CLI_MEMORY_RUNS'] ?? 3);
const COUNT = Number(process.env['BENCH_CLI_ROWS'] ?? 10_000);
const LARGE = Number(process.env['BENCH_CLI_LARGE_ROWS'] ?? 100_000);
const HALF = LARGE / 2;
const BUDGET = 1.15;
const log = (message) => process.stderr.write(`[bench cli] ${message}\n`);

/** Runs `script` with `args` in a fresh process; resolves with its wall time, what it sent over IPC, and its exit code. */
function timed(script, args, env = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = fork(script, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    let message;
    child.on('message', (value) => {
      message = value;
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ seconds: (performance.now() - started) / 1000, message, code }));
  });
}

async function importRun(file, server, extraEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'delivery-sdk-bench-cli-'));
  try {
    const results = join(dir, 'results.csv');
    const rssFile = join(dir, 'rss');
    const env = { DELIVERY_BASE_URL: server.baseUrl, DELIVERY_API_KEY: server.apiKey, DELIVERY_BENCH_RSS_FILE: rssFile, ...extraEnv };
    const { seconds, code } = await timed(join(ROOT, 'bench/lib/cli-rss.mjs'), [BIN, 'orders', 'import', file, '--results', results, '--quiet'], env);
    const lines = readFileSync(results, 'utf8').trimEnd().split('\n');
    const withTrackingNumber = lines.slice(1).filter((line) => line.split(',')[5] !== '').length;
    if (code !== 0 || lines.length - 1 !== withTrackingNumber)
      throw new Error(`the import exited ${code}, ${withTrackingNumber} of ${lines.length - 1} rows with a tracking number`);
    return { seconds, ...JSON.parse(readFileSync(rssFile, 'utf8')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const range = ({ min, median, max }, format) => `${format(median)} (${format(min)} to ${format(max)})`;

export async function measureCliImport() {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first.`);
  const dir = mkdtempSync(join(tmpdir(), 'delivery-sdk-bench-cli-'));
  const server = await startServer('cli-server.mjs');
  try {
    const small = join(dir, `orders-${COUNT}.csv`);
    const half = join(dir, `orders-${HALF}.csv`);
    const large = join(dir, `orders-${LARGE}.csv`);
    await writeImportFile(small, COUNT);
    await writeImportFile(half, HALF);
    await writeImportFile(large, LARGE);
    const runs = [];
    for (let run = 0; run < RUNS; run++) {
      log(`time: ${COUNT.toLocaleString('en-US')} rows, run ${run + 1} of ${RUNS}`);
      const result = {};
      for (const variant of rotate(['cli', 'baseline'], run)) {
        if (variant === 'cli') result.cli = await importRun(small, server.info);
        else {
          const { seconds, message, code } = await timed(join(ROOT, 'bench/lib/cli-baseline.mjs'), [
            JSON.stringify({ main: MAIN, ...server.info, count: COUNT }),
          ]);
          if (code !== 0 || message?.withTrackingNumber !== COUNT) throw new Error(`the baseline exited ${code}: ${JSON.stringify(message)}`);
          result.baseline = { seconds, cpuSeconds: message.cpuSeconds };
        }
      }
      runs.push(result);
    }
    const memory = [];
    for (let run = 0; run < MEMORY_RUNS; run++) {
      log(`memory: ${HALF.toLocaleString('en-US')} and ${LARGE.toLocaleString('en-US')} rows, run ${run + 1} of ${MEMORY_RUNS}`);
      memory.push({ half: (await importRun(half, server.info)).peakRss, large: (await importRun(large, server.info)).peakRss });
    }
    return report(runs, memory);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(runs, memory) {
  const cli = spread(runs.map((run) => run.cli.seconds));
  const baseline = spread(runs.map((run) => run.baseline.seconds));
  const ratio = spread(runs.map((run) => run.cli.seconds / run.baseline.seconds));
  const cpuRatio = spread(runs.map((run) => run.cli.cpuSeconds / run.baseline.cpuSeconds));
  const verdicts = { ok: 'ok', over: '**OVER**', noise: '*within noise*' };
  const half = spread(memory.map((run) => run.half));
  const large = spread(memory.map((run) => run.large));
  const growth = spread(memory.map((run) => run.large / run.half));
  const seconds = (value) => `${value.toFixed(2)} s`;
  const times = (value) => `${value.toFixed(2)}x`;
  const markdown = [
    '## The command line: `delivery-sdk orders import`',
    '',
    `${new Date().toISOString().slice(0, 10)}, load average at the start ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' / ')}; each figure over ${runs.length} process runs (memory: ${memory.length}), median (lowest to highest).`,
    '',
    '| figure | measured | budget | verdict |',
    '|---|---|---|---|',
    `| \`orders import\` of ${COUNT.toLocaleString('en-US')} rows, process start to exit | ${range(cli, seconds)} | | |`,
    `| \`streamBulk\` + \`resolveTrackingNumbers\` of the same orders in memory, process start to exit | ${range(baseline, seconds)} | | |`,
    `| ratio, within each run | ${range(ratio, times)} | <= ${BUDGET}x | ${verdicts[verdictOf(ratio, BUDGET)]} |`,
    `| CPU time (user and system), ratio within each run | ${range(cpuRatio, times)} | <= ${BUDGET}x | ${verdicts[verdictOf(cpuRatio, BUDGET)]} |`,
    `| peak RSS of the command, ${HALF.toLocaleString('en-US')} rows | ${range(half, mb)} | | |`,
    `| peak RSS of the command, ${LARGE.toLocaleString('en-US')} rows | ${range(large, mb)} | | |`,
    `| ${LARGE.toLocaleString('en-US')} rows over ${HALF.toLocaleString('en-US')} | ${range(growth, times)} | flat (<= 1.10x) | ${verdicts[verdictOf(growth, 1.1)]} |`,
  ].join('\n');
  return { markdown, runs, memory };
}

/** Writes `section` between the markers in `file` (appended with them when they are missing). */
function writeSection(file, section) {
  const [start, end] = ['<!-- cli-import:start -->', '<!-- cli-import:end -->'];
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const block = `${start}\n${section}\n${end}`;
  const pattern = new RegExp(`${start}[\\s\\S]*?${end}`);
  writeFileSync(file, pattern.test(text) ? text.replace(pattern, () => block) : `${text.trimEnd()}\n\n${block}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { markdown } = await measureCliImport();
  writeSection(join(ROOT, 'bench/RESULTS.md'), markdown);
  writeSection(join(ROOT, 'docs/performance.md'), markdown.replace(/^## /, '### '));
  console.log(markdown);
}
