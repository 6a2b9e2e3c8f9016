import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const jsonReport = process.env.VITEST_JSON_REPORT;

/**
 * The package's public names (`delivery-sdk`, `delivery-sdk/testing`, ...) resolved to its sources,
 * from tsconfig.json's `paths`, which tsc and tsx read too: the examples run as written, in tests
 * as with `npm run demo`, without a build. Exact names only. The packaging and runtime tests load
 * the built tarball in projects and processes of their own, which this never reaches.
 */
const { compilerOptions } = JSON.parse(readFileSync(new URL('tsconfig.json', import.meta.url), 'utf8')) as {
  compilerOptions: { paths: Record<string, [string]> };
};
const SOURCE_ALIASES = Object.entries(compilerOptions.paths).map(([name, [file]]) => ({
  find: new RegExp(`^${name}$`), // no character of these names is special in a RegExp
  replacement: fileURLToPath(new URL(file, import.meta.url)),
}));

/** The package's version, as the build writes it in (tsup.config.ts, src/internal/version.ts). */
const { version } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')) as { version: string };

/** The calls that change a worker's module registry: a file that makes one cannot share it. */
export const REGISTRY_CALLS = /\bvi\.(mock|doMock|unmock|doUnmock|resetModules|importActual|importMock)\(/;

/**
 * Test files that mock modules or reset the module registry to load the SDK afresh, found by what
 * they contain: each runs in a process of its own. Every other file shares its worker's modules
 * with the files before it, where test/support/shared-modules.ts makes those calls throw: a mock
 * hidden from this scan (in a helper, say) fails its file instead of leaking into the next.
 */
export const FRESH_MODULES = readdirSync(new URL('test/', import.meta.url), { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `test/${name.split('\\').join('/')}`)
  .filter((file) => REGISTRY_CALLS.test(readFileSync(new URL(file, import.meta.url), 'utf8')))
  .sort();

/**
 * `vitest run --mode full` (npm run test:full, npm run fuzz:wire): the heavy runs at full size
 * (test/support/sizes.ts). Read from the command line as well as from `mode`: vitest evaluates this
 * config again for each project below with the mode `test`, and the projects' `env` would say
 * `quick` whatever the command asked.
 */
const argv = process.argv;
const fullSize = argv.includes('--mode=full') || argv.some((arg, i) => arg === '--mode' && argv[i + 1] === 'full');

export default defineConfig(({ mode }) => ({
  resolve: {
    alias: SOURCE_ALIASES,
  },
  define: { __DELIVERY_SDK_VERSION__: JSON.stringify(version) },
  test: {
    // vitest's default on 2 cores is one worker: most long tests wait on child processes, servers
    // and Redis, so a second one keeps both cores busy.
    maxWorkers: 2,
    // Many tests start processes (tsx, npm, tsc, typedoc): seconds alone, several times that on a
    // loaded 2-core machine, where 20 s timeouts failed them by chance. A hung test is still caught.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One line at the end when redis-server is missing and the Redis tracker tests were skipped.
    reporters: ['default', './test/support/missing-servers.ts', ...(jsonReport ? ['json'] : [])],
    ...(jsonReport ? { outputFile: { json: jsonReport } } : {}),
    env: { DELIVERY_SDK_TEST_SIZE: mode === 'full' || fullSize ? 'full' : 'quick' },
    projects: [
      // A fresh module graph per file (vitest's default) was two fifths of the suite's CPU time:
      // each of the 130 files loaded the SDK, zod, msw and fast-check again. The SDK keeps no state
      // in its modules that one file could leave to the next (clients, sandboxes and trackers are
      // objects a test makes), and a file that patches a global restores it.
      {
        extends: true,
        test: {
          name: 'shared',
          isolate: false,
          include: ['test/**/*.test.ts'],
          exclude: FRESH_MODULES,
          setupFiles: ['./test/support/shared-modules.ts'],
          typecheck: {
            // The *.test-d.ts files, for `npx vitest run`. `npm test` type-checks them already (its
            // `npm run typecheck` covers test/, with this tsconfig.json), so its vitest run does not
            // run tsc over them a second time (about 10 s of CPU).
            enabled: process.env['npm_lifecycle_event'] !== 'test',
            include: ['test/**/*.test-d.ts'],
            tsconfig: './tsconfig.json',
          },
        },
      },
      { extends: true, test: { name: 'fresh', include: FRESH_MODULES } },
    ],
  },
}));
