import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGING_TIMEOUT_MS, ROOT } from './packed-package.js';

/** Runs npm with `args` in `cwd`, installing nothing and running no script; resolves with its exit code and output. */
function npm(args: readonly string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('npm', [...args, '--ignore-scripts', '--no-audit', '--no-fund'], { cwd, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, output: `${stdout}${stderr}` });
    });
  });
}

describe('package-lock.json', () => {
  it(
    'is accepted by `npm ci` (after `npm install` changes it, run `node scripts/add-missing-platform-packages.mjs`)',
    async () => {
      // `npm ci --dry-run`: npm's own check that the lock matches package.json.
      const { code, output } = await npm(['ci', '--dry-run'], ROOT);
      const missing = output.split('\n').filter((line) => /Missing: |EUSAGE|Invalid: /.test(line));
      expect(missing).toEqual([]);
      expect(code).toBe(0);
    },
    PACKAGING_TIMEOUT_MS,
  );

  it(
    'is what `npm install` writes: the first command of a fresh clone leaves the tree clean',
    async () => {
      // A copy of package.json and the lock, so the check never touches this checkout; the lock
      // alone (--package-lock-only), from npm's cache (--offline): seconds, and no network.
      const scratch = mkdtempSync(join(tmpdir(), 'delivery-sdk-lock-'));
      try {
        for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(ROOT, file), join(scratch, file));
        const { code, output } = await npm(['install', '--package-lock-only', '--offline'], scratch);
        expect(code, output).toBe(0);
        expect(readFileSync(join(scratch, 'package-lock.json'), 'utf8')).toBe(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    },
    PACKAGING_TIMEOUT_MS,
  );
});
