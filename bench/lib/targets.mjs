/**
 * What the benchmarks measure: the package as published (`dist/`, built by `npm run build`) or,
 * with `--src`, a bundle of `src/` that mirrors tsup's output (dependencies left external).
 * Also fetches the plain-ky baseline, which is not a dependency of the SDK.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const TMP = join(ROOT, 'bench', '.tmp');
export const KY_VERSION = '1.14.3';

const ENTRIES = { main: 'index', webhooks: 'webhooks/index', testing: 'testing/index' };

/** Paths of the three entries to measure. */
export async function prepareTargets(source) {
  if (source === 'dist') {
    const targets = Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(ROOT, 'dist', `${file}.js`)]));
    for (const file of Object.values(targets)) if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first, or pass --src.`);
    return { source, ...targets };
  }
  const { build } = await import('esbuild');
  const outdir = join(TMP, 'build');
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([, file]) => [file, join(ROOT, 'src', `${file}.ts`)])),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    packages: 'external',
    logLevel: 'error',
  });
  return { source, ...Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(outdir, `${file}.js`)])) };
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
