/**
 * Browser bundle sizes, measured the way a storefront pulls the SDK in: esbuild
 * `--bundle --minify` of a small entry against the package as shipped, gzip -9. Shared by
 * `npm run bench` (on dist/) and test/bench/bundle-size.test.ts (on src/ built like dist/).
 *
 * Why not bundle src/ directly: with `"sideEffects": false` esbuild drops whole unused source
 * modules, but users get tsup's output, where modules are concatenated per entry and every
 * top-level call stays unless it is provably pure. Measuring src/ directly under-reports.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** 1 KB = 1,000 bytes throughout: the stricter reading of the budgets. */
export const KB = 1000;

/**
 * What a page loads at once (`main`, `cities`, `functions`, `webhooks`), and every chunk a client
 * page can load (`allChunks`): issue 31's budgets.
 */
export const BUDGETS = { main: 20 * KB, cities: 20 * KB, allChunks: 50 * KB, functions: 16 * KB, webhooks: 5 * KB };

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
const SHIPPED_ENTRIES = [...Object.values(ENTRIES), 'cli/sandbox', 'cli/main'];

/** Code that must never reach a browser bundle: msw and its bundled helpers, and the sandbox. */
const FORBIDDEN_SOURCE = /(?:^|[\\/])(?:node_modules[\\/](?:msw|@mswjs|@bundled-es-modules)[\\/]|(?:src|dist)[\\/]testing[\\/])/;

const entries = {
  /** A checkout page: construct the client, create one order. */
  main: (path) => `
    import { DeliveryClient } from ${JSON.stringify(path)};
    const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: 'key' });
    export const created = client.deliveries.create({
      type: 10,
      dropOffAddress: { city: 'Cairo', districtId: 'aiJudRHeOt', firstLine: '12 Talaat Harb Street' },
      receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
      cod: 250,
    });`,
  /** The validators, which carry zod. */
  validation: (path) => `
    import { validateOrder } from ${JSON.stringify(path)};
    export const validate = validateOrder;`,
  /** A page that only looks cities up. */
  cities: (path) => `
    import { DeliveryClient } from ${JSON.stringify(path)};
    const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2' });
    export const cities = client.lookup.cities({ countryId: '60e4482c7cb7d4bc4849c4d5' });`,
  /** The same page over delivery-sdk/functions: a core and the one function it calls. */
  functions: (path) => `
    import { DeliveryCore, createDelivery } from ${JSON.stringify(path)};
    const core = new DeliveryCore({ baseUrl: 'https://api.example.com/v2', apiKey: 'key' });
    export const created = createDelivery(core, {
      type: 10,
      dropOffAddress: { city: 'Cairo', districtId: 'aiJudRHeOt', firstLine: '12 Talaat Harb Street' },
      receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
      cod: 250,
    });`,
  /** A Fetch-API webhook route. */
  webhooks: (path) => `
    import { createWebhookHandler, parseWebhookEvent } from ${JSON.stringify(path)};
    export const handler = createWebhookHandler({ onEvent() {} });
    export const parse = parseWebhookEvent;`,
  /** The sandbox, which must be flagged: the check's own control. */
  sandbox: (path) => `
    import { createSandbox } from ${JSON.stringify(path)};
    export const sandbox = createSandbox();`,
  /** ky alone, for scale. */
  ky: (path) => `
    import ky from ${JSON.stringify(path)};
    export const created = ky.post('https://api.example.com/v2/deliveries', { json: {} }).json();`,
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
    logLevel: 'error',
  });
  return Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(outdir, `${file}.js`)]));
}

function bundle(kind, path) {
  return build({
    stdin: { contents: entries[kind](path), resolveDir: dirname(path), sourcefile: `${kind}-entry.js`, loader: 'js' },
    bundle: true,
    // As a browser build splits: what the page loads at once is the entry and its static imports;
    // code behind `import()` (zod's messages, for input the plain check refused) is a chunk of its own.
    splitting: true,
    outdir: join(dirname(path), `.measure-${kind}`),
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    // Browser entries fail to build on a Node built-in; the sandbox's `listen()` is allowed one.
    external: kind === 'sandbox' ? ['node:*'] : [],
    logLevel: 'silent',
  });
}

/** The original sources of a built file, from its source map; the file itself when it has none. */
function originalSources(file) {
  const map = `${file}.map`;
  if (!existsSync(map)) return [file];
  return JSON.parse(readFileSync(map, 'utf8')).sources.map((source) => join(dirname(file), source));
}

/**
 * Bundles one entry kind (`main`, `webhooks` or `ky`) against the module at `path` and returns
 * its sizes, the minified bytes each input kept after tree-shaking, and the kept inputs that
 * carry msw or sandbox code (traced through dist's source maps, so code of `testing` moved into
 * a shared chunk is caught too).
 */
export async function measureBundle(kind, path) {
  const result = await bundle(kind, path);
  const { outputs } = result.metafile;
  // The page's own output (the stdin entry): with splitting, a lazily loaded chunk has an entry point too.
  const entry = Object.keys(outputs).find((output) => outputs[output].entryPoint?.endsWith(`${kind}-entry.js`));
  // The outputs the page loads at once: the entry and, transitively, what it imports statically.
  const loaded = new Set();
  const visit = (output) => {
    if (loaded.has(output)) return;
    loaded.add(output);
    for (const { path: imported, kind: how } of outputs[output].imports) if (how === 'import-statement' && outputs[imported] !== undefined) visit(imported);
  };
  visit(entry);
  const contentsOf = (names) =>
    Buffer.concat(result.outputFiles.filter((file) => names.some((name) => file.path.endsWith(name))).map((file) => Buffer.from(file.contents)));
  const lazyOutputs = Object.keys(outputs).filter((output) => !loaded.has(output) && !output.endsWith('.map'));
  const code = contentsOf([...loaded]);
  const bytesByInput = {};
  for (const output of loaded) {
    for (const [input, { bytesInOutput }] of Object.entries(outputs[output].inputs)) bytesByInput[input] = (bytesByInput[input] ?? 0) + bytesInOutput;
  }
  const kept = Object.keys(bytesByInput).filter((input) => bytesByInput[input] > 0);
  const forbiddenInputs = kept.flatMap((input) => {
    if (FORBIDDEN_SOURCE.test(input)) return [input];
    const sources = originalSources(input).filter((source) => FORBIDDEN_SOURCE.test(source));
    return sources.length === 0 ? [] : [`${input} (from ${sources.join(', ')})`];
  });
  const lazy = contentsOf(lazyOutputs);
  const lazyBytesByInput = {};
  for (const output of lazyOutputs) {
    for (const [input, { bytesInOutput }] of Object.entries(outputs[output].inputs)) lazyBytesByInput[input] = (lazyBytesByInput[input] ?? 0) + bytesInOutput;
  }
  return {
    kind,
    bytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    /** What loads only through `import()`, on demand (0 when nothing does). */
    lazyGzipBytes: lazy.length === 0 ? 0 : gzipSync(lazy, { level: 9 }).length,
    /**
     * Every chunk the page can load, at once and on demand, gzipped together as "at once" is (a
     * browser fetching each chunk on its own gets a few bytes more per chunk: bench reports both).
     */
    allChunksGzipBytes: gzipSync(Buffer.concat([code, lazy]), { level: 9 }).length,
    /** The same chunks each gzipped on its own, as a browser fetches them. */
    eachChunkGzipBytes: [...loaded, ...lazyOutputs].reduce((sum, output) => sum + gzipSync(contentsOf([output]), { level: 9 }).length, 0),
    budget: BUDGETS[kind],
    bytesByInput,
    /** The same, for what loads only through `import()`. */
    lazyBytesByInput,
    forbiddenInputs,
    text: new TextDecoder().decode(code),
  };
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
