#!/usr/bin/env node
/**
 * The Node build, dist/node/: the ESM build regrouped into few files for a process that loads them
 * from disk, which package.json's `node` condition gives to `import` in Node, Deno and Bun.
 *
 * The ESM build splits its code into many small chunks: right for a browser page, which a bundler
 * rebuilds and which fetches only what its calls need. A Node process pays a module load for each
 * file instead (resolving, reading, compiling, linking): a create's first answer loaded 34 files
 * of the SDK besides ky's 15 (issue 52). Here rollup rebuilds dist/'s ESM files with the same
 * entries, and puts into one file what the main entry loads and what the first create runs after
 * it (FIRST_CALL): its own code and the code that sends. The code is dist/'s, moved and not
 * rewritten: no Node built-in, nothing the other builds lack, so a runtime that takes the `node`
 * condition without being Node (Deno's edge platforms) runs it as it runs the others. ky stays an
 * import of its own, loaded by the first request, as in every build (the code that sends takes it
 * from that load: it imports none of ky's values); what the other calls, the schemas and the error
 * mapping need still loads on first use, in chunks rollup makes from the rest.
 *
 * Run by `npm run build` after tsup; bench/lib/targets.mjs runs it on its build of src/.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rollup } from 'rollup';

/**
 * What the first create runs beyond the main entry, by source file: found in dist/ through its
 * source maps (a build fails when one is not there), and merged into the main entry's file with
 * every file of the ESM build it imports. The User-Agent is among them: outside a page (the only
 * place this build is for) the first request loads it, and on its own it was two more files (its
 * module and the version's) loaded one after the other.
 */
export const FIRST_CALL = ['src/functions/deliveries/create.ts', 'src/internal/attempts.ts', 'src/internal/user-agent.ts'];

/** The name of the file the main entry's code and FIRST_CALL go into (`sdk-<hash>.js`). */
const MERGED = 'sdk';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Whether a built file's code is import and export-from statements alone. */
const onlyReexports = (code) =>
  (code ?? '')
    .split('\n')
    .every(
      (line) => line.trim() === '' || line.startsWith('//') || /^(?:import\s+['"][^'"]+['"]|(?:export|import)\b[^;]*\bfrom\s+['"][^'"]+['"]);?\s*$/.test(line),
    );

/** The original sources of a built file, absolute, from its source map (none without one). */
function sourcesOf(file) {
  const map = `${file}.map`;
  if (!existsSync(map)) return [];
  return JSON.parse(readFileSync(map, 'utf8')).sources.map((source) => resolve(dirname(file), source));
}

/**
 * Builds `dir`/node/ from the ESM files of `dir`: `entries` are their names without `.js`
 * (`index`, `functions/index`), each written under the same name; `mainEntry` is the one whose
 * first create is merged. Source maps chain back to src/.
 */
export async function buildForNode({ dir, entries, mainEntry = 'index', sourceRoot = ROOT }) {
  const outdir = join(dir, 'node');
  rmSync(outdir, { recursive: true, force: true });
  let merged;
  /** The ESM files of `dir` that go into the main entry's file of the Node build. */
  const mergedFiles = (info) => {
    const main = join(dir, `${mainEntry}.js`);
    /** `from` and every file it imports statically; with `lazy`, the targets of its `import()`s too, into `targets`. */
    const closure = (from, { lazy = false, targets = new Set() } = {}) => {
      const seen = new Set();
      const visit = (id) => {
        if (seen.has(id) || info(id).isExternal) return;
        seen.add(id);
        for (const imported of info(id).importedIds) visit(imported);
        if (lazy)
          for (const imported of info(id).dynamicallyImportedIds) {
            targets.add(imported);
            visit(imported);
          }
      };
      for (const id of from) visit(id);
      return seen;
    };
    const lazyTargets = new Set();
    const reached = [...closure([main], { lazy: true, targets: lazyTargets })];
    const holders = FIRST_CALL.flatMap((source) => {
      const holding = reached.filter((id) => sourcesOf(id).includes(resolve(sourceRoot, source)));
      if (holding.length === 0) throw new Error(`scripts/node-build.mjs: no file the main entry loads holds ${source} (FIRST_CALL)`);
      return holding;
    });
    const group = closure([main, ...holders]);
    // An `import()` target with no code of its own (it only re-exports merged code, as esbuild writes
    // an operation's chunk) goes too: else loading the create would load a file of two lines.
    for (const id of lazyTargets)
      if (
        onlyReexports(info(id).code) &&
        info(id)
          .importedIds.filter((imported) => !info(imported).isExternal)
          .every((imported) => group.has(imported))
      )
        group.add(id);
    group.delete(main);
    return group;
  };

  const bundle = await rollup({
    input: Object.fromEntries(entries.map((name) => [name, join(dir, `${name}.js`)])),
    // Packages stay imports (ky, zod's absence aside, and the optional peers); only dist/'s own files are regrouped.
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    plugins: [
      {
        name: 'built-files-with-their-maps',
        load(id) {
          // Every line that names a map goes (tsup's files name theirs twice): rollup writes its own.
          const code = readFileSync(id, 'utf8').replace(/^\/\/# sourceMappingURL=\S+$/gm, '');
          return { code, map: existsSync(`${id}.map`) ? readFileSync(`${id}.map`, 'utf8') : null };
        },
      },
    ],
    onwarn(warning, warn) {
      // dist/'s files carry esbuild's `/* @__PURE__ */` marks where rollup keeps its own; nothing to act on.
      if (warning.code !== 'INVALID_ANNOTATION') warn(warning);
    },
  });
  try {
    await bundle.write({
      dir: outdir,
      format: 'es',
      sourcemap: true,
      entryFileNames: '[name].js',
      // A chunk is named after the first file in it, whose name carries esbuild's hash already: one hash is enough.
      chunkFileNames: ({ name }) => `${name.replace(/-[A-Z0-9]{8}$/, '')}-[hash].js`,
      manualChunks(id, { getModuleInfo }) {
        merged ??= mergedFiles(getModuleInfo);
        return merged.has(id) ? MERGED : undefined;
      },
    });
  } finally {
    await bundle.close();
  }
  return outdir;
}

/** The entries of the Node build: the ESM files of every subpath of package.json's exports that names a `node` file, by name under dist/. */
export function nodeEntries(manifest) {
  return Object.values(manifest.exports).flatMap((targets) => {
    const esm = typeof targets === 'object' ? targets.import : undefined;
    if (esm?.node === undefined) return [];
    const name = relative('dist', esm.default).replace(/\.js$/, '');
    if (esm.node !== `./${join('dist', 'node', `${name}.js`)}`)
      throw new Error(`package.json: ${esm.node} should be ./dist/node/${name}.js, beside ${esm.default}`);
    return [name];
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  await buildForNode({ dir: join(ROOT, 'dist'), entries: nodeEntries(manifest) });
}
