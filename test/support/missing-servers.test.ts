// Without redis-server (or Chromium), a run skips the tests that need it and says so in one line at
// its end, with how to install it; under CI=true the same tests fail instead. Checked by running
// vitest on one of those files with REDIS_SERVER_BIN (CHROMIUM_BIN) naming a binary that does not exist.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VITEST = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

function vitestWithout(file: string, missing: Record<string, string>, ci: boolean): Promise<{ code: number; output: string }> {
  // This run's own vitest settings (worker ids, the JSON report's path) stay out of the nested run.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'CI'));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [VITEST, 'run', file, '--color=false'],
      { cwd: ROOT, env: { ...env, ...missing, NO_COLOR: '1', ...(ci ? { CI: 'true' } : {}) }, timeout: 50_000 },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, output: `${stdout}${stderr}`.replace(/\u001b\[[0-9;]*m/g, '') }),
    );
  });
}

describe('a machine without redis-server', () => {
  it('skips the Redis tracker tests and says in one line which, and how to install it; under CI=true they fail', async () => {
    const run = (ci: boolean) => vitestWithout('test/webhooks/redis/version.test.ts', { REDIS_SERVER_BIN: '/nonexistent/redis-server' }, ci);
    const [local, ci] = await Promise.all([run(false), run(true)]);
    expect(local.code, local.output).toBe(0);
    const lines = local.output.split('\n').filter((line) => line.includes('redis-server'));
    expect(lines).toEqual([
      expect.stringMatching(
        /^redis-server not found: skipped [1-9]\d* Redis tracker tests \(test\/webhooks\/redis\/version\.test\.ts\); install redis-server \(Debian\/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis\) to run them\.$/,
      ),
    ]);
    expect(ci.code).not.toBe(0);
    expect(ci.output).toContain('CI=true forbids skipping them');
  });
});

describe('a machine without Chromium', () => {
  it('skips the dashboard browser tests and says in one line which, and how to install it; under CI=true they fail', async () => {
    const run = (ci: boolean) => vitestWithout('test/sandbox/dashboard-browser.test.ts', { CHROMIUM_BIN: '/nonexistent/chromium' }, ci);
    const [local, ci] = await Promise.all([run(false), run(true)]);
    expect(local.code, local.output).toBe(0);
    expect(local.output.split('\n').filter((line) => line.includes('/nonexistent/chromium'))).toEqual([
      expect.stringMatching(
        /^\/nonexistent\/chromium not found: skipped [1-9]\d* browser tests \(test\/sandbox\/dashboard-browser\.test\.ts\); install Debian's chromium \(sudo apt-get install chromium\) to run them\.$/,
      ),
    ]);
    expect(ci.code).not.toBe(0);
    expect(ci.output).toContain('/nonexistent/chromium is missing');
  });
});
