/**
 * One process run of the per-call benchmark: every variant makes `calls` sequential calls and
 * `concurrentCalls` calls at `concurrency`, interleaved in blocks (sequentially, one call each) whose variant
 * order is shuffled every round, so drift (JIT, GC, thermal, the server's own warm-up) and what ran
 * just before a call fall on every variant alike. Beside each call's
 * wall time, the client process's CPU time per call (user + system, `process.cpuUsage()` around
 * each block): what the variant costs the caller's machine, whatever the server and scheduler do.
 */

import { makeCallers, runConcurrent } from './callers.mjs';
import { childMain } from './child.mjs';
import { median, quantile, shuffled } from './stats.mjs';

const cpuMs = (usage) => (usage.user + usage.system) / 1000;

childMain(async ({ targets, kyPath, baseUrl, calls, concurrentCalls, concurrency, sequentialBlock, concurrentBlock, warmup }) => {
  const { callers, notes } = await makeCallers({ targets, kyPath, baseUrl });
  const names = Object.keys(callers);

  for (const name of names) {
    for (let i = 0; i < warmup; i++) await callers[name]();
    await runConcurrent(callers[name], concurrentBlock, concurrency, []);
  }

  const sequential = Object.fromEntries(names.map((name) => [name, { durations: [], cpu: 0 }]));
  for (let block = 0; block < calls / sequentialBlock; block++) {
    for (const name of shuffled(names)) {
      const call = callers[name];
      const { durations } = sequential[name];
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < sequentialBlock; i++) {
        const t0 = performance.now();
        await call();
        durations.push(performance.now() - t0);
      }
      sequential[name].cpu += cpuMs(process.cpuUsage(cpu0));
    }
  }

  const concurrent = Object.fromEntries(names.map((name) => [name, { durations: [], cpu: 0 }]));
  for (let block = 0; block < concurrentCalls / concurrentBlock; block++) {
    for (const name of shuffled(names)) {
      const cpu0 = process.cpuUsage();
      await runConcurrent(callers[name], concurrentBlock, concurrency, concurrent[name].durations);
      concurrent[name].cpu += cpuMs(process.cpuUsage(cpu0));
    }
  }

  const summary = ({ durations, cpu }) => ({ median: median(durations), p99: quantile(durations, 0.99), cpu: cpu / durations.length });
  return {
    notes,
    sequential: Object.fromEntries(names.map((name) => [name, summary(sequential[name])])),
    concurrent: Object.fromEntries(names.map((name) => [name, summary(concurrent[name])])),
  };
});
