#!/usr/bin/env node
/**
 * The Node build, dist/node/: the ESM build regrouped into few files for a process that loads them
 * from disk, which package.json's `node` condition gives to `import` in Node, Deno and Bun.
 *
 * The ESM build splits its code into many small chunks: right for a browser page, which a bundler
 * rebuilds and which fetches only what its calls need. A Node process pays a module load for each
 * file instead (resolving, reading, compiling, linking): a create's first answer loaded 34 files
 * of the SDK besides ky's 15 (issue 52). Here rollup rebuilds dist/'s ESM files with the same
 * entries, and puts into one file what the main entry loads and what the first create loads
 * after it (FIRST_CALL). The code is dist/'s, moved and not rewritten: no Node built-in, nothing
 * the other builds lack, so a runtime that takes the `node` condition without being Node (Deno's
 * edge platforms) runs it as it runs the others. ky stays an import of its own, loaded by the
 * first request, as in every build; what the other calls and the schemas need still loads on
 * first use, in chunks rollup makes from the rest.
 *
 * Run by `npm run build` after tsup; bench/lib/targets.mjs runs it on its build of src/.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rollup } from 'rollup';

/**
 * What the first create runs beyond the main entry, by source file (found in dist/ through its
 * source maps; a build fails when one is not there), in the Node build's file it goes into with
 * every file of the ESM build it imports: `sdk` loads with the main entry (the create's own code),
 * `send` with the first request, beside ky (the code that sends, which every call needs).
 */
export const FIRST_CALL = {
  sdk: ['src/functions/deliveries/create.ts'],
  send: ['src/internal/attempts.ts'],
};

const ROOT = fileURLToPath(new URL('../', import.meta.url));

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
  let groups;
  /** Each ESM file of `dir` that goes into a file of FIRST_CALL, by the name of that file. */
  const groupsOf = (info) => {
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
    // What some entry loads at once: it never waits for the first request (and ky) in a file of its own.
    const atOnce = closure(entries.map((name) => join(dir, `${name}.js`)));
    const found = new Map();
    for (const [name, sources] of Object.entries({ sdk: [], ...FIRST_CALL })) {
      const holders = sources.map((source) => {
        const holding = reached.filter((id) => sourcesOf(id).includes(resolve(sourceRoot, source)));
        if (holding.length === 0) throw new Error(`scripts/node-build.mjs: no file the main entry loads holds ${source} (FIRST_CALL.${name})`);
        return holding;
      });
      for (const id of closure([...(name === 'sdk' ? [main] : []), ...holders.flat()]))
        if (!found.has(id)) found.set(id, name !== 'sdk' && atOnce.has(id) ? 'sdk' : name);
    }
    // An `import()` target left with nothing of its own (a file that only re-exports merged code) goes where its code went.
    for (const id of lazyTargets) {
      const into = new Set(
        info(id)
          .importedIds.filter((imported) => !info(imported).isExternal)
          .map((imported) => found.get(imported)),
      );
      if (!found.has(id) && into.size === 1 && !into.has(undefined)) found.set(id, [...into][0]);
    }
    found.delete(main);
    return found;
  };

  const bundle = await rollup({
    input: Object.fromEntries(entries.map((name) => [name, join(dir, `${name}.js`)])),
    // Packages stay imports (ky, zod's absence aside, and the optional peers); only dist/'s own files are regrouped.
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    plugins: [
      {
        name: 'built-files-with-their-maps',
        load(id) {
          const code = readFileSync(id, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
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
        groups ??= groupsOf(getModuleInfo);
        return groups.get(id);
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
