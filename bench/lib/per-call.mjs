/**
 * One process run of the per-call benchmark: every variant makes `calls` sequential calls and
 * `calls` calls at `concurrency`, interleaved in blocks whose variant order rotates, so drift
 * (JIT, GC, thermal, the server's own warm-up) falls on every variant alike.
 */

import { makeCallers, runConcurrent } from './callers.mjs';
import { childMain } from './child.mjs';
import { median, quantile, rotate } from './stats.mjs';

/** Median and p99 wall time of one call, and the process's CPU time per call while the variant ran. */
const summary = (durations, cpuMs) => ({ median: median(durations), p99: quantile(durations, 0.99), cpu: cpuMs / durations.length });
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

childMain(async ({ targets, kyPath, baseUrl, calls, concurrency, sequentialBlock, concurrentBlock, warmup }) => {
  const { callers, notes } = await makeCallers({ targets, kyPath, baseUrl });
  const names = Object.keys(callers);

  for (const name of names) {
    for (let i = 0; i < warmup; i++) await callers[name]();
    await runConcurrent(callers[name], concurrentBlock, concurrency, []);
  }

  const sequential = Object.fromEntries(names.map((name) => [name, []]));
  const sequentialCpu = Object.fromEntries(names.map((name) => [name, 0]));
  for (let block = 0; block < calls / sequentialBlock; block++) {
    for (const name of rotate(names, block)) {
      const call = callers[name];
      const durations = sequential[name];
      const cpu0 = cpuNow();
      for (let i = 0; i < sequentialBlock; i++) {
        const t0 = performance.now();
        await call();
        durations.push(performance.now() - t0);
      }
      sequentialCpu[name] += cpuNow() - cpu0;
    }
  }

  const concurrent = Object.fromEntries(names.map((name) => [name, []]));
  const concurrentCpu = Object.fromEntries(names.map((name) => [name, 0]));
  for (let block = 0; block < calls / concurrentBlock; block++) {
    for (const name of rotate(names, block)) {
      const cpu0 = cpuNow();
      await runConcurrent(callers[name], concurrentBlock, concurrency, concurrent[name]);
      concurrentCpu[name] += cpuNow() - cpu0;
    }
  }

  return {
    notes,
    sequential: Object.fromEntries(names.map((name) => [name, summary(sequential[name], sequentialCpu[name])])),
    concurrent: Object.fromEntries(names.map((name) => [name, summary(concurrent[name], concurrentCpu[name])])),
  };
});
