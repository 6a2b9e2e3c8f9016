// A retried call whose answer stalls mid-body ends when its deadline or the caller's signal
// fires, even while garbage collection runs: in Node 20 a Request that is cloned for a retry
// follows its signal only through a WeakRef, which collection may clear. The calls run in a
// child process started with --expose-gc, which collects every 50 ms.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('../support/scripts/stalled-body.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// The child's own watchdogs decide "hung" (20 s from the moment each call must react); this outer
// limit only stops a child that never gets there, and leaves a loaded machine the time to start
// tsx and run the 503s before the stalls.
const CHILD_LIMIT_MS = 150_000;

function runChild(): Promise<{ deadline: string; aborted: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD], { cwd: ROOT, timeout: CHILD_LIMIT_MS }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { deadline: string; aborted: string });
    });
  });
}

describe('a retried call whose body stalls, under garbage collection', () => {
  it(
    'rejects with TimeoutError at its deadline, and with RequestAbortedError when the caller aborts',
    async () => {
      const { deadline, aborted } = await runChild();
      expect(deadline).toBe('TimeoutError');
      expect(aborted).toBe('RequestAbortedError');
    },
    CHILD_LIMIT_MS + 10_000,
  );
});
