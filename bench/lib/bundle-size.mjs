/**
 * Browser bundle sizes, measured the way a storefront would pull the SDK in: esbuild
 * `--bundle --minify` of a small entry, gzip -9. Shared by `npm run bench` (on dist/) and
 * test/bench/bundle-size.test.ts (on src/), so both check the same thing.
 */
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** 1 KB = 1,000 bytes throughout: the stricter reading of the budgets. */
export const KB = 1000;

export const BUDGETS = { main: 20 * KB, webhooks: 8 * KB };

/** Inputs that must never reach a browser bundle: msw and its bundled helpers, and the sandbox. */
const FORBIDDEN_INPUT = /(?:^|[\\/])(?:node_modules[\\/](?:msw|@mswjs|@bundled-es-modules)[\\/]|(?:src|dist)[\\/]testing[\\/])/;

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
  /** A Fetch-API webhook route. */
  webhooks: (path) => `
    import { createWebhookHandler, parseWebhookEvent } from ${JSON.stringify(path)};
    export const handler = createWebhookHandler({ onEvent() {} });
    export const parse = parseWebhookEvent;`,
  /** ky alone, for scale. */
  ky: (path) => `
    import ky from ${JSON.stringify(path)};
    export const created = ky.post('https://api.example.com/v2/deliveries', { json: {} }).json();`,
};

function bundle(kind, path) {
  return build({
    stdin: { contents: entries[kind](path), resolveDir: dirname(path), sourcefile: `${kind}-entry.js`, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
}

/**
 * Bundles one entry kind (`main`, `webhooks` or `ky`) against the module at `path` (src/*.ts or
 * dist/*.js) and returns its sizes, the inputs that went in (the forbidden ones apart), and the
 * minified bytes each input kept after tree-shaking.
 */
export async function measureBundle(kind, path) {
  const result = await bundle(kind, path);
  const code = result.outputFiles[0].contents;
  const inputs = Object.keys(result.metafile.inputs);
  const bytesByInput = {};
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) bytesByInput[input] = (bytesByInput[input] ?? 0) + bytesInOutput;
  }
  return {
    kind,
    bytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    budget: BUDGETS[kind],
    inputs,
    forbiddenInputs: inputs.filter((input) => FORBIDDEN_INPUT.test(input)),
    bytesByInput,
    text: new TextDecoder().decode(code),
  };
}

/** Minified bytes per source file, with node_modules files summed per package; largest first. */
export function bytesBySource(bytesByInput) {
  const totals = new Map();
  for (const [input, bytes] of Object.entries(bytesByInput)) {
    const source = input.match(/node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/)?.[1] ?? input;
    totals.set(source, (totals.get(source) ?? 0) + bytes);
  }
  return [...totals].filter(([, bytes]) => bytes > 0).sort((a, b) => b[1] - a[1]);
}
