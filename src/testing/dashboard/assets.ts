// The dashboard's script and style sheet: built at build time (tsup.config.ts writes them to
// dist/dashboard/) and read from disk next to the built module. Run from the sources (tsx, vitest:
// `npm run sandbox`, `npm run demo`, the tests), where nothing was built, they are built in memory
// on first use with esbuild, a development dependency, from the same entry and with the same options.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The files the dashboard page loads, by the name it loads them under. */
export type AssetName = 'app.js' | 'app.css';
export type DashboardAssets = Readonly<Record<AssetName, Uint8Array>>;

/** The folder of dist/ the built assets go to, beside the built modules. */
export const ASSETS_FOLDER = 'dashboard';

/** The user interface's entry, under src/. */
export const UI_ENTRY = 'testing/dashboard/ui/main.ts';

/**
 * Builds the page's script and its style sheet from `entry` (bundled, minified, for the browsers
 * of the last few years), in memory: nothing is fetched at run time, from anywhere.
 */
export async function buildDashboardAssets(entry: string): Promise<DashboardAssets> {
  const { build } = await import('esbuild');
  // Resolved against the working directory now, while it exists: esbuild takes only an absolute one.
  const absoluteEntry = resolve(entry);
  const result = await build({
    entryPoints: { app: absoluteEntry },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    outdir: 'out',
    // esbuild's default is the working directory of the process when esbuild was first loaded,
    // which may be gone by now (a folder the process has left and removed).
    absWorkingDir: dirname(absoluteEntry),
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const file = (name: AssetName): Uint8Array => {
    const found = result.outputFiles.find((output) => output.path.endsWith(`/${name}`) || output.path.endsWith(`\\${name}`));
    if (found === undefined) throw new Error(`the dashboard's build wrote no ${name}`);
    return found.contents;
  };
  return { 'app.js': file('app.js'), 'app.css': file('app.css') };
}

/**
 * The folder this module is in: built, dist/; from the sources, src/testing/dashboard/. CommonJS
 * has `__dirname` and no `import.meta` (tsup.config.ts defines its `url` as empty there); ES modules the reverse.
 */
const here = (): string => (typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url)));

let loading: Promise<DashboardAssets> | undefined;

/**
 * dist/dashboard/, when built: beside this module in dist/, or one folder up from the Node build's
 * (dist/node/, where `import` in Node, Deno and Bun finds this module: scripts/node-build.mjs).
 */
function builtFolder(): string | undefined {
  const folders = [join(here(), ASSETS_FOLDER), join(here(), '..', ASSETS_FOLDER)];
  return folders.find((folder) => existsSync(join(folder, 'app.js')));
}

/** The assets, read once: from dist/dashboard/ when built, else built from the sources. */
export function dashboardAssets(): Promise<DashboardAssets> {
  loading ??= (async () => {
    const built = builtFolder();
    if (built !== undefined) return { 'app.js': readFileSync(join(built, 'app.js')), 'app.css': readFileSync(join(built, 'app.css')) };
    const entry = join(here(), 'ui', 'main.ts');
    if (!existsSync(entry)) throw new Error(`the sandbox dashboard's files are missing: neither ${join(here(), ASSETS_FOLDER)} nor ${entry} exists`);
    return buildDashboardAssets(entry);
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
