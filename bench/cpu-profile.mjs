/**
 * `node bench/cpu-profile.mjs` (after `npm run build`; `--src` for a bundle of src/): where the SDK's
 * client CPU goes over plain ky's, from V8 CPU profiles (`node --cpu-prof`, sampled every 100 µs).
 * The SDK and plain ky run in alternating blocks in one profiled process against the loopback
 * server: creates one at a time, creates 50 at a time, and bulk uploads (`createBulk` against plain
 * ky posting the same chunks). Each sample counts for the variant whose block it falls in (start-up
 * and warm-up left out); each function's self time is divided by that variant's calls or orders,
 * located in src/ through dist's source maps, and plain ky's time in the same function subtracted.
 * Prints, for each, the five largest costs over plain ky by function and by file, in µs per call
 * or order. The profiler's sampling slows every function alike: read the figures as shares of the
 * whole, the totals beside them. Measures, changes nothing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChild, startServer } from './lib/child.mjs';
import { ensureKy, prepareTargets, ROOT } from './lib/targets.mjs';

const TOP = 5;
const CASES = [
  { name: 'per call, sequential', unit: 'call', input: { what: 'call', count: 500, blocks: 30, concurrency: 1, warmup: 1_000 } },
  { name: 'per call, concurrency 50', unit: 'call', input: { what: 'call', count: 1_000, blocks: 20, concurrency: 50, warmup: 1_000 } },
  { name: 'bulk, per order', unit: 'order', input: { what: 'bulk', count: 10_000, blocks: 5, warmup: 2_000 } },
];

const targets = await prepareTargets(process.argv.includes('--src') ? 'src' : 'dist');
const kyPath = ensureKy();
if (kyPath === undefined) throw new Error('node_modules/ky is not the ky the bench measures');

/** file URL -> SourceMap of that built file (undefined when it has none). */
const maps = new Map();
function sourceMapOf(url) {
  if (!maps.has(url)) {
    let map;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')));
    } catch {
      map = undefined;
    }
    maps.set(url, map);
  }
  return maps.get(url);
}

/** Where a profiled function is: `src/...:line` through a source map, a package's file, a Node internal, or V8's own. */
function locate({ url, lineNumber, columnNumber }) {
  if (url === '') return { file: '(V8)', line: undefined };
  if (!url.startsWith('file:')) return { file: url, line: lineNumber + 1 };
  const entry = sourceMapOf(url)?.findEntry(lineNumber, columnNumber);
  const path = fileURLToPath(url);
  if (entry?.originalSource !== undefined) {
    const original = entry.originalSource.startsWith('file:') ? fileURLToPath(entry.originalSource) : join(path, '..', entry.originalSource);
    return { file: relative(ROOT, original), line: entry.originalLine + 1 };
  }
  return { file: relative(ROOT, path), line: lineNumber + 1 };
}

/**
 * Self µs per unit, of each function (`name file:line`) and of each file, for each variant: every
 * sample is counted for the variant whose window it falls in (samples between windows are dropped).
 */
function selfTimes(profilePath, windows) {
  const profile = JSON.parse(readFileSync(profilePath, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const units = {};
  for (const { variant, units: done } of windows) units[variant] = (units[variant] ?? 0) + done;
  const sorted = [...windows].sort((a, b) => a.start - b.start);
  const result = Object.fromEntries(Object.keys(units).map((variant) => [variant, { byFunction: new Map(), byFile: new Map(), total: 0 }]));
  let at = profile.startTime;
  let w = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    while (w < sorted.length && sorted[w].end < at) w++;
    const window = sorted[w];
    if (window === undefined || at < window.start) continue;
    const { callFrame } = nodes.get(profile.samples[i]);
    if (callFrame.functionName === '(idle)') continue;
    // A sample stands for the time until the next one.
    const micros = (profile.timeDeltas[i + 1] ?? 0) / units[window.variant];
    const { file, line } = locate(callFrame);
    const name = `${callFrame.functionName || '(anonymous)'}${line === undefined ? '' : ` ${file}:${line}`}`;
    const into = result[window.variant];
    into.byFunction.set(name, (into.byFunction.get(name) ?? 0) + micros);
    const group = file === '(V8)' ? callFrame.functionName : file;
    into.byFile.set(group, (into.byFile.get(group) ?? 0) + micros);
    into.total += micros;
  }
  return result;
}

/** The `TOP` largest differences `sdk - ky`, largest first. */
function over(sdk, ky) {
  const keys = new Set([...sdk.keys(), ...ky.keys()]);
  return [...keys]
    .map((key) => [key, (sdk.get(key) ?? 0) - (ky.get(key) ?? 0), sdk.get(key) ?? 0, ky.get(key) ?? 0])
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP);
}

const us = (value) => value.toFixed(1);
const server = await startServer('echo-server.mjs');
const dir = mkdtempSync(join(tmpdir(), 'delivery-sdk-cpu-profile-'));
try {
  console.log(`CPU profiles (V8, sampled every 100 µs) of ${targets.source}/ against plain ky, loopback server; µs of client CPU per call or order.\n`);
  for (const { name, unit, input } of CASES) {
    process.stderr.write(`[cpu-profile] ${name}\n`);
    const file = `${input.what}-${input.concurrency ?? 0}.cpuprofile`;
    const { windows } = await runChild(
      'profile-child.mjs',
      { targets, kyPath, baseUrl: server.info.baseUrl, ...input },
      { execArgv: ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-name', file, '--cpu-prof-interval', '100'] },
    );
    const measured = selfTimes(join(dir, file), windows);
    const { sdk, ky } = measured;
    console.log(`### ${name}: the SDK ${us(sdk.total)} µs a ${unit}, plain ky ${us(ky.total)} µs, ${us(sdk.total - ky.total)} µs over\n`);
    console.log(`| Largest costs over plain ky, by function (self time) | µs a ${unit} over ky | SDK | plain ky |\n| --- | ---: | ---: | ---: |`);
    for (const [key, difference, a, b] of over(sdk.byFunction, ky.byFunction)) console.log(`| \`${key}\` | ${us(difference)} | ${us(a)} | ${us(b)} |`);
    console.log(`\n| Largest costs over plain ky, by file | µs a ${unit} over ky | SDK | plain ky |\n| --- | ---: | ---: | ---: |`);
    for (const [key, difference, a, b] of over(sdk.byFile, ky.byFile)) console.log(`| \`${key}\` | ${us(difference)} | ${us(a)} | ${us(b)} |`);
    console.log('');
  }
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
