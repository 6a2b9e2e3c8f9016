/**
 * Cold start, in fresh Node processes, after one untimed round that fills the file-system cache:
 * - `measureColdStart`: the time one `await import(...)` takes, for each module in `modules`
 *   ({ label: specifier }), `runs` times each, interleaved;
 * - `measureFirstCall`: a process that imports a module, builds a client and awaits one create
 *   answered by the loopback server at `baseUrl` (bench/lib/first-call.mjs), for each variant,
 *   `runs` times each, interleaved.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median, rotate, shuffled } from './stats.mjs';

function importTime(specifier, cwd) {
  const script = `const t0 = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t0));`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd, encoding: 'utf8' }));
}

export function measureColdStart(modules, { runs, cwd }) {
  const labels = Object.keys(modules);
  for (const label of labels) importTime(modules[label], cwd);
  const times = Object.fromEntries(labels.map((label) => [label, []]));
  for (let run = 0; run < runs; run++) for (const label of rotate(labels, run)) times[label].push(importTime(modules[label], cwd));
  // The median of each, and every run's time: a ratio is taken run by run (the same run of both), for its spread.
  return { medians: Object.fromEntries(labels.map((label) => [label, median(times[label])])), runs: times };
}

export const FIRST_CALL_SCRIPT = fileURLToPath(new URL('./first-call.mjs', import.meta.url));

function firstCall(variant, module, baseUrl, cwd) {
  return JSON.parse(execFileSync(process.execPath, [FIRST_CALL_SCRIPT, JSON.stringify({ variant, module, baseUrl })], { cwd, encoding: 'utf8' }));
}

/**
 * `variants` ({ name: module URL, or undefined for raw fetch }) in `runs` rounds, the order shuffled
 * in each; resolves to `{ name: [{ importMs, firstCallMs, sinceStartMs }, ...] }`, one per round.
 */
export function measureFirstCall(variants, { runs, baseUrl, cwd }) {
  const names = Object.keys(variants);
  for (const name of names) firstCall(name, variants[name], baseUrl, cwd);
  const results = Object.fromEntries(names.map((name) => [name, []]));
  for (let run = 0; run < runs; run++) for (const name of shuffled(names)) results[name].push(firstCall(name, variants[name], baseUrl, cwd));
  return results;
}
