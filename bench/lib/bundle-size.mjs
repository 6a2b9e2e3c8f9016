/**
 * Pages measured as a browser loads them. Each page is a small entry built the way a storefront's
 * bundler builds it (esbuild `--bundle --minify --splitting`, platform browser, ESM) against the
 * package as shipped, and three figures are taken of it, each the gzip (level 9) of its files
 * gzipped together, with the number of files:
 * - at once: the page's own output (the stdin entry) and what it imports statically;
 * - when the first call answers: that, and every chunk the page really loaded through `import()`
 *   until its call had answered: the built page runs in a child Node process (bench/lib/page-run.mjs)
 *   whose module-load hook records every file loaded, its `fetch` answered in process;
 * - every chunk: all the page can ever load, through static imports and `import()` alike.
 * Shared by `npm run bench` (on dist/) and test/bench/bundle-size.test.ts (on src/ built like dist/).
 *
 * Why not bundle src/ directly: with `"sideEffects": false` esbuild drops whole unused source
 * modules, but users get tsup's output, where modules are concatenated per entry and every
 * top-level call stays unless it is provably pure. Measuring src/ directly under-reports.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { BUDGETS, FORBIDDEN_SOURCES, KB } from './budgets.mjs';

/**
 * What builds resolve against, and the metafile's input paths are relative to. Never esbuild's
 * default, the process's working directory when esbuild first loaded: in a test worker that may
 * be a doc block's folder, removed since (test/docs/run-ts.ts).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export { BUDGETS, FORBIDDEN_SOURCES, KB };

/** The entries the benchmarks import, by their file in dist/. */
export const ENTRIES = {
  main: 'index',
  functions: 'functions/index',
  validation: 'validation',
  webhooks: 'webhooks/index',
  webhooksNode: 'webhooks/node',
  testing: 'testing/index',
};

/** Every entry of tsup.config.ts: they decide together how code is split into shared chunks. */
const SHIPPED_ENTRIES = [...Object.values(ENTRIES), 'cli/sandbox', 'cli/main', 'telemetry/index'];

/** The name of the forbidden source `file` is of (FORBIDDEN_SOURCES), if any. */
export const forbiddenSourceOf = (file) => FORBIDDEN_SOURCES.find(({ files }) => files.test(file))?.name;

/**
 * The order the create pages send: one the SDK's plain check passes (so no schema chunk loads for
 * it), with a district the sandbox has (`district-eg-cairo-makram-ebeid`), so that the page's call
 * answers whether the service, the sandbox or the page run's own `fetch` takes it.
 */
export const PAGE_ORDER = {
  type: 10,
  dropOffAddress: { city: 'Cairo', districtId: 'district-eg-cairo-makram-ebeid', firstLine: '12 Makram Ebeid Street' },
  receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
  cod: 250,
};

/** The country the cities page looks up: Egypt's id at the service and in the sandbox. */
const EGYPT = '60e4482c7cb7d4bc4849c4d5';

/**
 * The pages: the module they import, and `call`, the export that is the page's first call (a
 * promise the page run awaits); a page without one sends nothing.
 */
const PAGES = {
  /** A checkout page: construct the client, create one order. */
  main: {
    call: 'created',
    source: (path) => `
      import { DeliveryClient } from ${JSON.stringify(path)};
      const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: 'key' });
      export const created = client.deliveries.create(${JSON.stringify(PAGE_ORDER)});`,
  },
  /** A page that only looks cities up. */
  cities: {
    call: 'cities',
    source: (path) => `
      import { DeliveryClient } from ${JSON.stringify(path)};
      const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2' });
      export const cities = client.lookup.cities({ countryId: ${JSON.stringify(EGYPT)} });`,
  },
  /** The create page over delivery-sdk/functions: a core and the one function it calls. */
  functions: {
    call: 'created',
    source: (path) => `
      import { DeliveryCore, createDelivery } from ${JSON.stringify(path)};
      const core = new DeliveryCore({ baseUrl: 'https://api.example.com/v2', apiKey: 'key' });
      export const created = createDelivery(core, ${JSON.stringify(PAGE_ORDER)});`,
  },
  /** A Fetch-API webhook route. */
  webhooks: {
    source: (path) => `
      import { createWebhookHandler, parseWebhookEvent } from ${JSON.stringify(path)};
      export const handler = createWebhookHandler({ onEvent() {} });
      export const parse = parseWebhookEvent;`,
  },
  /** The validators, which carry zod. */
  validation: {
    source: (path) => `
      import { validateOrder } from ${JSON.stringify(path)};
      export const validate = validateOrder;`,
  },
  /** The sandbox, which must be flagged: the forbidden-code check's own control (FORBIDDEN_SOURCES). Not run. */
  sandbox: {
    run: false,
    source: (path) => `
      import { createSandbox } from ${JSON.stringify(path)};
      export const sandbox = createSandbox();`,
  },
  /** ky alone, for scale: plain ky's create. */
  ky: {
    call: 'created',
    source: (path) => `
      import ky from ${JSON.stringify(path)};
      export const created = ky.post('https://api.example.com/v2/deliveries', { json: ${JSON.stringify(PAGE_ORDER)}, headers: { authorization: 'key' } }).json();`,
  },
};

/**
 * Builds `srcDir` into `outdir` the way tsup ships it (ESM, one file per entry plus shared
 * chunks, zod bundled in, other packages external, source maps) and returns the path of each entry's file.
 */
export async function buildLikeDist(srcDir, outdir) {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(SHIPPED_ENTRIES.filter((file) => existsSync(join(srcDir, `${file}.ts`))).map((file) => [file, join(srcDir, `${file}.ts`)])),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    // Every package but zod, which tsup.config.ts bundles in (`noExternal`).
    plugins: [
      {
        name: 'packages-but-zod',
        setup: (esbuild) =>
          esbuild.onResolve({ filter: /^[^./]/ }, (args) => (/^zod(?:\/|$)/.test(args.path) ? undefined : { path: args.path, external: true })),
      },
    ],
    sourcemap: true,
    absWorkingDir: ROOT,
    // The version tsup.config.ts writes in (src/internal/version.ts).
    define: { __DELIVERY_SDK_VERSION__: JSON.stringify(JSON.parse(readFileSync(join(srcDir, '../package.json'), 'utf8')).version) },
    logLevel: 'error',
  });
  return Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(outdir, `${file}.js`)]));
}

/** The page built as a browser build splits it, into `outdir` (written: the page run loads it from there). */
async function buildPage(kind, path, outdir) {
  const result = await build({
    stdin: { contents: PAGES[kind].source(path), resolveDir: dirname(path), sourcefile: `${kind}-page.js`, loader: 'js' },
    absWorkingDir: ROOT,
    bundle: true,
    splitting: true,
    outdir,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    // Browser entries fail to build on a Node built-in; the sandbox's `listen()` is allowed one.
    external: kind === 'sandbox' ? ['node:*', ...builtinModules] : [],
    logLevel: 'silent',
  });
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.contents);
  }
  // The chunks are ES modules named `.js`, as a browser takes them; Node needs to be told.
  writeFileSync(join(outdir, 'package.json'), '{ "type": "module" }\n');
  return result;
}

const PAGE_RUN = fileURLToPath(new URL('./page-run.mjs', import.meta.url));

/** Runs the built page in a fresh Node process; resolves to the files it loaded until its call answered, in load order. */
function runPage(kind, entry, outdir) {
  const input = JSON.stringify({ entry, outdir, call: PAGES[kind].call });
  return new Promise((done, fail) => {
    execFile(process.execPath, [PAGE_RUN, input], { encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) fail(new Error(`the ${kind} page did not run to its answer: ${stderr.trim() || error.message}`));
      else done(JSON.parse(stdout));
    });
  });
}

/** The original sources of a built file, from its source map; the file itself when it has none. */
function originalSources(file) {
  const map = join(ROOT, `${file}.map`);
  if (!existsSync(map)) return [file];
  return JSON.parse(readFileSync(map, 'utf8')).sources.map((source) => join(dirname(file), source));
}

/**
 * Builds the page `kind` against the module at `path`, runs it until its first call has answered,
 * and returns its three figures (`atOnce`, `firstCall`, `allChunks`: files, bytes, gzip bytes,
 * the minified bytes each input kept, the text), its budgets, the requests its run sent, and the
 * inputs of any chunk it can load that carry code of FORBIDDEN_SOURCES, each as `name: input`
 * (traced through dist's source maps, so code of `testing` moved into a shared chunk is caught too).
 */
export async function measureBundle(kind, path) {
  const outdir = mkdtempSync(join(tmpdir(), `delivery-sdk-page-${kind}-`));
  try {
    const result = await buildPage(kind, path, outdir);
    // Metafile paths are relative to the working directory; output files' paths are absolute.
    const outputs = new Map(Object.entries(result.metafile.outputs).map(([output, meta]) => [resolve(output), meta]));
    const page = [...outputs].filter(([, meta]) => meta.entryPoint?.endsWith(`${kind}-page.js`) || meta.entryPoint === '<stdin>');
    if (page.length !== 1) throw new Error(`the ${kind} page: ${page.length} outputs are the stdin entry`);
    const entry = page[0][0];
    /** `from` and every output it reaches through imports of `kinds`. */
    const reach = (from, kinds) => {
      const seen = new Set();
      const visit = (output) => {
        if (seen.has(output)) return;
        seen.add(output);
        for (const { path: imported, kind: how } of outputs.get(output).imports)
          if (kinds.includes(how) && outputs.has(resolve(imported))) visit(resolve(imported));
      };
      visit(from);
      return seen;
    };
    const atOnce = reach(entry, ['import-statement']);
    const every = reach(entry, ['import-statement', 'dynamic-import']);
    const run = PAGES[kind].run === false ? { loaded: [...atOnce], requests: [] } : await runPage(kind, entry, outdir);
    const loaded = new Set(run.loaded);
    const missing = [...atOnce].filter((output) => !loaded.has(output));
    const unknown = [...loaded].filter((output) => !every.has(output));
    if (missing.length > 0 || unknown.length > 0)
      throw new Error(
        `the ${kind} page's run does not match its build: not loaded ${missing.join(', ') || 'none'}; not in the build ${unknown.join(', ') || 'none'}`,
      );

    // A figure's files in the build's own order, so that the same files always gzip the same way.
    const files = result.outputFiles.filter((file) => outputs.has(file.path) && !file.path.endsWith('.map'));
    const figure = (set) => {
      const chosen = files.filter((file) => set.has(file.path));
      const code = Buffer.concat(chosen.map((file) => Buffer.from(file.contents)));
      const bytesByInput = {};
      for (const file of chosen)
        for (const [input, { bytesInOutput }] of Object.entries(outputs.get(file.path).inputs))
          bytesByInput[input] = (bytesByInput[input] ?? 0) + bytesInOutput;
      return {
        files: chosen.map((file) => relative(outdir, file.path)),
        bytes: code.length,
        gzipBytes: gzipSync(code, { level: 9 }).length,
        /** The same files each gzipped on its own, summed: what a browser fetching each chunk gets. */
        eachGzipBytes: chosen.reduce((sum, file) => sum + gzipSync(file.contents, { level: 9 }).length, 0),
        bytesByInput,
        text: new TextDecoder().decode(code),
      };
    };
    const allChunks = figure(every);
    const kept = Object.keys(allChunks.bytesByInput).filter((input) => allChunks.bytesByInput[input] > 0);
    const forbiddenInputs = kept.flatMap((input) => {
      const own = forbiddenSourceOf(input);
      if (own !== undefined) return [`${own}: ${input}`];
      return originalSources(input).flatMap((source) => {
        const name = forbiddenSourceOf(source);
        return name === undefined ? [] : [`${name}: ${input} (from ${source})`];
      });
    });
    return {
      kind,
      atOnce: figure(atOnce),
      firstCall: figure(loaded),
      allChunks,
      /** What the page's run sent, `METHOD /path` each; empty for a page without a call. */
      requests: run.requests,
      budget: BUDGETS.pages[kind] ?? {},
      forbiddenInputs,
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** Minified bytes per file, with node_modules files summed per package; largest first. */
export function bytesBySource(bytesByInput) {
  const totals = new Map();
  for (const [input, bytes] of Object.entries(bytesByInput)) {
    const source = input.match(/node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/)?.[1] ?? input;
    totals.set(source, (totals.get(source) ?? 0) + bytes);
  }
  return [...totals].filter(([, bytes]) => bytes > 0).sort((a, b) => b[1] - a[1]);
}
