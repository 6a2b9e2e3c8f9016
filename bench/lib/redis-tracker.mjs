/**
 * Events per second through the order tracker on Redis (`delivery-sdk/webhooks/redis`), with
 * ioredis and node-redis, sequentially and in blocks of 50 at once, next to the in-memory tracker.
 * Budget: one `track` (a new order each) costs at most 2x a plain `SET key body EX 600` on the
 * same client at the same concurrency: the ratio of the medians is taken in each of 7 process runs
 * (interleaved blocks: this machine is too noisy for absolute figures), reported as median
 * (min–max), judged on the median (within noise when the median meets the budget and the range
 * crosses it).
 *
 * Starts its own redis-server (Debian's package; no persistence) on a free loopback port.
 * `npm run bench` adds its section to bench/RESULTS.md; `node bench/lib/redis-tracker.mjs` runs
 * it alone on dist/ (build first) and prints the section.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChild } from './child.mjs';
import { median, spread, verdictOf } from './stats.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const REDIS_TRACKER = { runs: 7, rounds: 60, concurrency: 50, warmup: 300, budget: 2 };
const CLIENTS = ['ioredis', 'node-redis'];

/** Resolves to `{ markdown, notes }`: a section for RESULTS.md, and what a reader must know. */
export async function measureRedisTracker({ log = () => {} } = {}) {
  const webhooksModule = join(ROOT, 'dist/webhooks/index.js');
  const redisModule = join(ROOT, 'dist/webhooks/redis.js');
  if (!existsSync(redisModule)) throw new Error(`${redisModule} is missing: run \`npm run build\` first.`);
  const binary = (process.env['PATH'] ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'redis-server'))
    .find((file) => spawnSync(file, ['--version']).status === 0);
  if (binary === undefined)
    return {
      markdown: '',
      notes: ['The Redis tracker is not measured: redis-server is not on PATH (Debian/Ubuntu: `apt-get install redis-server`; macOS: `brew install redis`).'],
    };

  const server = await startRedis(binary);
  const results = {};
  try {
    for (const clientName of CLIENTS) {
      const runs = [];
      for (let run = 1; run <= REDIS_TRACKER.runs; run++) {
        log(`redis tracker: ${clientName}, process run ${run} of ${REDIS_TRACKER.runs}`);
        runs.push(await runChild('redis-tracker-child.mjs', { webhooksModule, redisModule, clientName, port: server.port, ...REDIS_TRACKER }));
      }
      const combine = (mode, variant, field) => median(runs.map((result) => result[mode][variant][field]));
      results[clientName] = Object.fromEntries(
        ['sequential', 'concurrent'].map((mode) => [
          mode,
          {
            ...Object.fromEntries(
              ['set', 'track', 'memory'].map((variant) => [
                variant,
                { median: combine(mode, variant, 'median'), perSecond: combine(mode, variant, 'perSecond') },
              ]),
            ),
            ratio: spread(runs.map((result) => result[mode].track.median / result[mode].set.median)),
          },
        ]),
      );
    }
  } finally {
    await server.stop();
  }
  return report(results);
}

function report(results) {
  const number = (value) => Math.round(value).toLocaleString('en-US');
  const rows = [];
  const notes = [];
  for (const [clientName, modes] of Object.entries(results)) {
    for (const [mode, label] of [
      ['sequential', 'sequential'],
      ['concurrent', `blocks of ${REDIS_TRACKER.concurrency} at once`],
    ]) {
      const { set, track, memory, ratio } = modes[mode];
      const verdict = { ok: 'ok', over: '**OVER**', noise: 'within noise' }[verdictOf(ratio, REDIS_TRACKER.budget)];
      rows.push(
        `| ${clientName} | ${label} | ${number(track.perSecond)} | ${number(set.perSecond)} | ${number(memory.perSecond)} | ${track.median.toFixed(3)} / ${set.median.toFixed(3)} ms | ${ratio.median.toFixed(2)}x (${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)}) | ≤ ${REDIS_TRACKER.budget}x | ${verdict} |`,
      );
      if (verdict !== 'ok')
        notes.push(
          `Redis tracker (${clientName}, ${label}): one \`track\` costs ${ratio.median.toFixed(2)}x (${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)}) a plain SET: ${verdict} against the ${REDIS_TRACKER.budget}x budget.`,
        );
    }
  }
  const markdown = [
    '## Order tracker on Redis',
    '',
    `Events per second through \`createOrderTracker({ store: createRedisTrackerStore({ client }) })\`, a new order's event each (the whole script runs), against a local redis-server; a plain \`SET key body EX 600\` of the same body to a new key on the same client as the baseline. Each of ${REDIS_TRACKER.runs} process runs takes ${REDIS_TRACKER.rounds} rounds, the variants' order shuffled in each: ${REDIS_TRACKER.concurrency} calls one after the other (each timed), then a block of ${REDIS_TRACKER.concurrency} calls at once (timed until the last answers). The ratio of the medians (a call's, a block's) is taken in each run, median (min–max) over runs. Budget: one \`track\` at most ${REDIS_TRACKER.budget}x a SET at the same concurrency, judged on the median; *within noise* when the median meets it and the range crosses it.`,
    '',
    '| Client | Mode | track/s | SET/s | in-memory track/s | track / SET, median call or block | Ratio: median (min–max) | Budget | Verdict |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    ...rows,
    '',
  ].join('\n');
  return { markdown, notes };
}

async function startRedis(binary) {
  const port = await new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
  const dir = mkdtempSync(join(tmpdir(), 'delivery-sdk-bench-redis-'));
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'warning'], {
    stdio: 'ignore',
  });
  const stop = () =>
    new Promise((done) => {
      rmSync(dir, { recursive: true, force: true });
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGKILL');
    });
  // Bounded: 100 tries, 100 ms apart.
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) break;
    if (await answersPing(port)) return { port, stop };
    await new Promise((next) => setTimeout(next, 100));
  }
  await stop();
  throw new Error(`redis-server did not start on 127.0.0.1:${port}`);
}

function answersPing(port) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(2_000, () => socket.destroy());
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
    socket.once('data', (chunk) => {
      resolve(chunk.toString().startsWith('+PONG'));
      socket.end();
    });
    socket.write('PING\r\n');
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { markdown, notes } = await measureRedisTracker({ log: (message) => process.stderr.write(`[bench] ${message}\n`) });
  console.log(markdown);
  if (notes.length > 0) console.log(notes.map((note) => `- ${note}`).join('\n'));
}
