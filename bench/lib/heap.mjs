/** Heap in use after `calls` calls of one variant, after full GCs (run with --expose-gc). */

import { makeCallers } from './callers.mjs';
import { childMain } from './child.mjs';

function settledHeap() {
  for (let i = 0; i < 3; i++) globalThis.gc();
  return process.memoryUsage().heapUsed;
}

childMain(async ({ targets, kyPath, baseUrl, variant, calls }) => {
  if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
  const { callers } = await makeCallers({ targets, kyPath, baseUrl, only: variant });
  const call = callers[variant];
  if (call === undefined) throw new Error(`no caller for ${variant}`);
  const before = settledHeap();
  for (let i = 0; i < calls; i++) await call();
  // Let undici release sockets and timers of the last responses before measuring.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { heapBefore: before, heapAfter: settledHeap() };
});
