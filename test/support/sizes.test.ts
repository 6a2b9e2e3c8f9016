// `npm run test:full` and `npm run fuzz:wire` (`vitest run --mode full`) run the heavy runs at full
// size in every project: vitest evaluates the config again for each project with the mode `test`,
// which once made them run at the quick size unnoticed. Checked by running this file's probe in a
// nested vitest with `--mode full`.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FULL } from './sizes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VITEST = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
const PROBE = process.env['SIZE_PROBE'];

describe('the size of the heavy runs', () => {
  it.runIf(PROBE !== undefined)('probe: FULL is what the nested run expects', () => {
    expect(FULL).toBe(PROBE === 'full');
  });

  it.skipIf(PROBE !== undefined)('is full under `vitest run --mode full`, in the project this file runs in', async () => {
    // This run's own vitest settings (worker ids, the JSON report's path) stay out of the nested run.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        process.execPath,
        [VITEST, 'run', '--mode', 'full', 'test/support/sizes.test.ts', '--color=false'],
        { cwd: ROOT, env: { ...env, SIZE_PROBE: 'full', NO_COLOR: '1' }, timeout: 50_000 },
        (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, output: `${stdout}${stderr}` }),
      );
    });
    expect(code, output).toBe(0);
    expect(output).toMatch(/Tests\s+1 passed \| 1 skipped/);
  });
});
