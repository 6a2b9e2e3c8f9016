/**
 * Cold start: the time one `await import(...)` takes in a fresh Node process, for each module
 * in `modules` ({ label: specifier }), `runs` times each, interleaved, after one untimed round
 * that fills the file-system cache.
 */
import { execFileSync } from 'node:child_process';
import { median, rotate } from './stats.mjs';

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
