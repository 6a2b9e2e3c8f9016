/**
 * What the benchmarks measure: the package as published (`dist/`, built by `npm run build`) or,
 * with `--src`, a bundle of `src/` that mirrors tsup's output (dependencies left external) and its
 * Node build. A process imports what Node's `import` resolves to, the Node build (dist/node/, the
 * `node` condition); the pages are built from the ESM build, as a browser's bundler resolves them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildForNode, nodeEntries } from '../../scripts/node-build.mjs';
import { buildLikeDist, ENTRIES } from './bundle-size.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const TMP = join(ROOT, 'bench', '.tmp');
export const KY_VERSION = '1.14.3';

const inDir = (dir) => Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(dir, `${file}.js`)]));

/**
 * Paths of the entries to measure: the Node build's for a process (`main`, `functions`, ...), the
 * ESM build's for the pages (`pages`); and `specifiers`, what a fresh process imports for the cold
 * start: dist/ by the package's name, as its users import it (the package refers to itself, so
 * Node resolves its exports, `node` condition included), a build of src/ by its files' URLs.
 */
export async function prepareTargets(source) {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  if (source === 'dist') {
    const dist = join(ROOT, 'dist');
    const targets = { ...inDir(join(dist, 'node')), pages: inDir(dist) };
    for (const file of [...Object.values(targets.pages), targets.main])
      if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first, or pass --src.`);
    const named = (file) => (file === 'index' ? manifest.name : `${manifest.name}/${file.replace(/\/index$/, '')}`);
    return { source, ...targets, specifiers: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, named(file)])) };
  }
  const dir = join(TMP, 'build');
  const pages = await buildLikeDist(join(ROOT, 'src'), dir);
  // The entries of the Node build this build of src/ has (it leaves out those the bench never loads).
  await buildForNode({ dir, entries: nodeEntries(manifest).filter((name) => existsSync(join(dir, `${name}.js`))) });
  const nodeBuild = inDir(join(dir, 'node'));
  return { source, ...nodeBuild, pages, specifiers: Object.fromEntries(Object.entries(nodeBuild).map(([name, file]) => [name, pathToFileURL(file).href])) };
}

/** Path of ky's ESM entry (a dependency of the SDK), or undefined when the installed ky is not the version measured. */
export function ensureKy() {
  const dir = join(ROOT, 'node_modules', 'ky');
  const entry = join(dir, 'distribution', 'index.js');
  return existsSync(entry) && JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version === KY_VERSION ? entry : undefined;
}
