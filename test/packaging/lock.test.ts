import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PACKAGING_TIMEOUT_MS, ROOT } from './packed-package.js';

/** `npm ci --dry-run`: npm's own check that the lock matches package.json, installing nothing. */
function npmCiDryRun(): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: ROOT, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, output: `${stdout}${stderr}` });
    });
  });
}

describe('package-lock.json', () => {
  it('is accepted by `npm ci` (after `npm install` changes it, run `node scripts/complete-lock.mjs`)', async () => {
    const { code, output } = await npmCiDryRun();
    const missing = output.split('\n').filter((line) => /Missing: |EUSAGE|Invalid: /.test(line));
    expect(missing).toEqual([]);
    expect(code).toBe(0);
  }, PACKAGING_TIMEOUT_MS);
});
