import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { defineConfig } from 'tsup';
import { ASSETS_FOLDER, buildDashboardAssets, UI_ENTRY } from './src/testing/dashboard/assets.js';

/** The package's version, written into the build (src/internal/version.ts; the User-Agent, the telemetry scope, the MCP server's name): no entry reads package.json when it runs. */
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const define = { __DELIVERY_SDK_VERSION__: JSON.stringify(version) };

const entry = {
  index: 'src/index.ts',
  'functions/index': 'src/functions/index.ts',
  validation: 'src/validation.ts',
  'webhooks/index': 'src/webhooks/index.ts',
  'webhooks/node': 'src/webhooks/node.ts',
  'webhooks/redis': 'src/webhooks/redis.ts',
  'testing/index': 'src/testing/index.ts',
  'testing/msw': 'src/testing/msw.ts',
  'telemetry/index': 'src/telemetry/index.ts',
  'mcp/index': 'src/mcp/index.ts',
};

/**
 * The commands (`delivery-sdk`, `delivery-sdk-sandbox`): Node only, ESM only (a `bin` is run, never
 * required). Built beside the entries above so that they share their chunks, not a copy of the
 * SDK; the CSV library they read files with stays an import of theirs, reaching no other entry.
 */
const commands = {
  'cli/main': 'src/cli/main.ts',
  'cli/sandbox': 'src/cli/sandbox.ts',
};

/**
 * tsup's CommonJS splitting maps each file back to the intermediate file it converted too, and
 * names the map's `file`, by absolute path: the path of the machine that packed it, shipped to every user. Made relative.
 * Only the `.cjs.map` files, which this build wrote: the ESM build runs beside it and may still be writing its own.
 */
async function portableSourceMaps(): Promise<void> {
  for (const name of await readdir('dist', { recursive: true })) {
    if (!name.endsWith('.cjs.map')) continue;
    const file = join('dist', name);
    const map = JSON.parse(await readFile(file, 'utf8')) as { sources: string[]; file?: string };
    if (!map.sources.some(isAbsolute) && !(map.file !== undefined && isAbsolute(map.file))) continue;
    const portable = (path: string): string => (isAbsolute(path) ? relative(dirname(file), path).replaceAll('\\', '/') : path);
    map.sources = map.sources.map(portable);
    if (map.file !== undefined) map.file = portable(map.file);
    await writeFile(file, JSON.stringify(map));
  }
}

/**
 * The sandbox dashboard's script and style sheet (preact and htm bundled in), beside the built
 * modules in dist/dashboard/, where the sandbox server reads them; no entry imports them.
 */
async function dashboardAssets(): Promise<void> {
  const assets = await buildDashboardAssets(join('src', UI_ENTRY));
  await mkdir(join('dist', ASSETS_FOLDER), { recursive: true });
  for (const [name, contents] of Object.entries(assets)) await writeFile(join('dist', ASSETS_FOLDER, name), contents);
}

// No `dts`: tsc writes the declarations, one per source file under its own name (tsconfig.build.json).
export default defineConfig([
  {
    entry: { ...entry, ...commands },
    format: ['esm'],
    sourcemap: true,
    clean: true,
    target: 'es2022',
    splitting: true,
    treeshake: true,
    // zod is internal (no zod type is public): bundled and tree-shaken, an entry loads a few files
    // instead of zod's ~100 (cold start, docs/performance.md). ky stays a dependency.
    noExternal: ['zod'],
    // Imported only where the dashboard's files were not built (run from the sources): never from dist/.
    external: ['esbuild'],
    define,
    onSuccess: dashboardAssets,
  },
  {
    entry,
    format: ['cjs'],
    sourcemap: true,
    target: 'es2022',
    // Logs and metrics key on `constructor.name`: esbuild renames the classes it rewrites for
    // CommonJS (`_class12`) unless told to keep names. The ESM build keeps them as written.
    keepNames: true,
    // Shared chunks, as in the ESM build: without them each CommonJS entry carries its own copy of
    // the error classes and `instanceof DeliveryError` fails across `require('delivery-sdk')` and
    // `require('delivery-sdk/webhooks')`.
    splitting: true,
    // ky 1.x is ESM-only: bundled into the CommonJS build so that `require('delivery-sdk')` works
    // on every supported Node, including those that cannot `require()` an ES module. zod as above.
    noExternal: ['ky', 'zod'],
    external: ['esbuild'],
    // CommonJS has no `import.meta` (a syntax error there): the one module that reads it, to find the
    // dashboard's files, reads `__dirname` first (src/testing/dashboard/assets.ts).
    define: { ...define, 'import.meta.url': '""' },
    onSuccess: portableSourceMaps,
  },
]);
