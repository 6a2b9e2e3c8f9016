/**
 * What the benchmarks measure: the package as published (`dist/`, built by `npm run build`) or,
 * with `--src`, a bundle of `src/` that mirrors tsup's output (dependencies left external).
 */
import { existsSync, readFileSync } from 'node:fs';
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

/** Path of ky's ESM entry (a dependency of the SDK), or undefined when the installed ky is not the version measured. */
export function ensureKy() {
  const dir = join(ROOT, 'node_modules', 'ky');
  const entry = join(dir, 'distribution', 'index.js');
  return existsSync(entry) && JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version === KY_VERSION ? entry : undefined;
}
