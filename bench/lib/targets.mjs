/**
 * What the benchmarks measure: the package as published (`dist/`, built by `npm run build`) or,
 * with `--src`, a bundle of `src/` that mirrors tsup's output (dependencies left external).
 * Also fetches the plain-ky baseline, which is not a dependency of the SDK.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildLikeDist, ENTRIES } from './bundle-size.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const TMP = join(ROOT, 'bench', '.tmp');
export const KY_VERSION = '1.14.3';

/** Paths of the three entries to measure. */
export async function prepareTargets(source) {
  if (source === 'dist') {
    const targets = Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(ROOT, 'dist', `${file}.js`)]));
    for (const file of Object.values(targets)) if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first, or pass --src.`);
    return { source, ...targets };
  }
  return { source, ...(await buildLikeDist(join(ROOT, 'src'), join(TMP, 'build'))) };
}

/**
 * Path of ky's ESM entry, or undefined when it cannot be had. ky was removed from the SDK's
 * dependencies, so the baseline comes from the npm cache (or registry) into bench/.tmp,
 * leaving package.json alone.
 */
export function ensureKy() {
  const dir = join(TMP, 'ky');
  const entry = join(dir, 'distribution', 'index.js');
  const installed = () => existsSync(entry) && JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version === KY_VERSION;
  if (installed()) return entry;
  try {
    mkdirSync(TMP, { recursive: true });
    execFileSync('npm', ['pack', `ky@${KY_VERSION}`, '--pack-destination', TMP, '--silent'], { cwd: TMP, stdio: 'pipe', timeout: 60_000 });
    const unpacked = join(TMP, 'package');
    rmSync(unpacked, { recursive: true, force: true });
    execFileSync('tar', ['-xzf', join(TMP, `ky-${KY_VERSION}.tgz`), '-C', TMP], { stdio: 'pipe' });
    rmSync(dir, { recursive: true, force: true });
    renameSync(unpacked, dir);
  } catch (error) {
    console.warn(`ky ${KY_VERSION} could not be fetched (${error.message.split('\n')[0]}); its baselines are left out.`);
    return undefined;
  }
  return installed() ? entry : undefined;
}

/**
 * The main entry with zod bundled in and tree-shaken, as tsup's `noExternal: ['zod']` would ship
 * it: the cold-start alternative to loading zod's ~100 ESM files from node_modules.
 */
export async function buildZodInlined(mainPath) {
  const { build } = await import('esbuild');
  const outfile = join(TMP, 'zod-inlined', 'index.js');
  await build({ entryPoints: [mainPath], outfile, bundle: true, format: 'esm', platform: 'node', target: 'es2022', external: ['msw'], logLevel: 'error' });
  return outfile;
}
