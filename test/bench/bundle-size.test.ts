import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGETS, type BundleMeasurement, buildLikeDist, KB, measureBundle } from '../../bench/lib/bundle-size.mjs';

// The measurement `npm run bench` takes on dist/, here on src/ built the way tsup ships it (so
// top-level code that tree-shaking cannot drop counts, as it does for users): esbuild
// --bundle --minify of what a browser page imports, gzip level 9.
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const TMP = fileURLToPath(new URL('../.tmp/', import.meta.url));

let shipped: { main: string; functions: string; validation: string; webhooks: string; testing: string };
let outdir: string;
beforeAll(async () => {
  mkdirSync(TMP, { recursive: true });
  outdir = mkdtempSync(join(TMP, 'bundle-size-'));
  shipped = await buildLikeDist(SRC, outdir);
});
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** Inputs that kept code after tree-shaking and match `pattern`. */
const keptInputs = (bundle: BundleMeasurement, pattern: RegExp): string[] =>
  Object.entries(bundle.bytesByInput)
    .filter(([input, bytes]) => bytes > 0 && pattern.test(input))
    .map(([input]) => input);

const CLASSIC_ZOD = /zod[\\/]v4[\\/](?:classic[\\/]|locales[\\/](?!en\.js))/;

describe('browser bundle of a checkout page (construct the client, call deliveries.create)', () => {
  let bundle: BundleMeasurement;
  beforeAll(async () => {
    bundle = await measureBundle('main', shipped.main);
  });

  it(`loads at most ${BUDGETS.main / KB} KB minified and gzipped at once: each call's code comes on its first use`, () => {
    expect(bundle.gzipBytes).toBeLessThanOrEqual(BUDGETS.main);
    expect(bundle.lazyGzipBytes).toBeGreaterThan(0);
  });

  it(`can load at most ${BUDGETS.allChunks / KB} KB in all, every call of the client included`, () => {
    expect(bundle.allChunksGzipBytes).toBeLessThanOrEqual(BUDGETS.allChunks);
  });

  it('pulls in neither msw nor the sandbox', () => {
    expect(bundle.forbiddenInputs).toEqual([]);
  });

  it('loads ky, the transport, with the first request, not at once', () => {
    expect(keptInputs(bundle, /node_modules[\\/]ky[\\/]/)).toEqual([]);
    expect(Object.keys(bundle.lazyBytesByInput).some((input) => /node_modules[\\/]ky[\\/]/.test(input))).toBe(true);
  });

  it('loads no zod at once: the validators are delivery-sdk/validation, the schemas come through import()', () => {
    // zod's class names (`$constructor('ZodMiniObject', ...)`) survive minification.
    expect(bundle.text).not.toMatch(/ZodMini/);
  });
});

describe('browser bundle of a page that only looks cities up', () => {
  let bundle: BundleMeasurement;
  beforeAll(async () => {
    bundle = await measureBundle('cities', shipped.main);
  });

  it(`loads at most ${BUDGETS.cities / KB} KB minified and gzipped at once`, () => {
    expect(bundle.gzipBytes).toBeLessThanOrEqual(BUDGETS.cities);
  });

  it(`can load at most ${BUDGETS.allChunks / KB} KB in all`, () => {
    expect(bundle.allChunksGzipBytes).toBeLessThanOrEqual(BUDGETS.allChunks);
  });
});

describe('browser bundle of the validators (delivery-sdk/validation)', () => {
  it('carries zod: the control of the checks above, which find none at once in the client pages', async () => {
    const bundle = await measureBundle('validation', shipped.validation);
    expect(bundle.text).toMatch(/ZodMini/);
  });

  it("keeps nothing of zod's classic API or its non-English locales", async () => {
    const bundle = await measureBundle('validation', shipped.validation);
    expect(keptInputs(bundle, CLASSIC_ZOD)).toEqual([]);
  });
});

describe('browser bundle of the same page over delivery-sdk/functions (DeliveryCore + createDelivery)', () => {
  let bundle: BundleMeasurement;
  beforeAll(async () => {
    bundle = await measureBundle('functions', shipped.functions);
  });

  it(`loads at most ${BUDGETS.functions / KB} KB minified and gzipped at once`, () => {
    expect(bundle.gzipBytes).toBeLessThanOrEqual(BUDGETS.functions);
  });

  it('loads zod only on demand: the plain check decides for a valid order, the schemas come through import()', () => {
    // zod's class names (`$constructor('ZodMiniObject', ...)`) survive minification: none is loaded at once.
    expect(bundle.text).not.toMatch(/ZodMini/);
    expect(bundle.lazyGzipBytes).toBeGreaterThan(0);
  });

  it('pulls in neither msw nor the sandbox, and loads ky with the first request', () => {
    expect(bundle.forbiddenInputs).toEqual([]);
    expect(keptInputs(bundle, /node_modules[\\/]ky[\\/]/)).toEqual([]);
    expect(Object.keys(bundle.lazyBytesByInput).some((input) => /node_modules[\\/]ky[\\/]/.test(input))).toBe(true);
  });
});

describe('browser bundle of a webhook route (parseWebhookEvent + createWebhookHandler)', () => {
  let bundle: BundleMeasurement;
  beforeAll(async () => {
    bundle = await measureBundle('webhooks', shipped.webhooks);
  });

  it(`stays within ${BUDGETS.webhooks / KB} KB minified and gzipped`, () => {
    expect(bundle.gzipBytes).toBeLessThanOrEqual(BUDGETS.webhooks);
  });

  it('carries no ky: a webhook route sends nothing', () => {
    expect(keptInputs(bundle, /node_modules[\\/]ky[\\/]/)).toEqual([]);
  });

  it('pulls in neither msw nor the sandbox', () => {
    expect(bundle.forbiddenInputs).toEqual([]);
  });

  it("keeps nothing of zod's classic API or its non-English locales", () => {
    expect(keptInputs(bundle, CLASSIC_ZOD)).toEqual([]);
  });
});

describe('the msw and sandbox check itself', () => {
  it('flags a bundle that pulls in the sandbox, traced through the source maps of the built files', async () => {
    const bundle = await measureBundle('sandbox', shipped.testing);
    expect(bundle.forbiddenInputs.some((input) => /src[\\/]testing[\\/]/.test(input))).toBe(true);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : /\.[cm]?tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

/** Every import or re-export of a zod module in `source`: its specifier, whether it is type-only, whether it names `z`. */
function zodImports(source: string): Array<{ specifier: string; typeOnly: boolean; namesZ: boolean }> {
  const found = [];
  const statement = /\b(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](zod(?:\/[^'"]*)?)['"]|\bimport\s*(?:\(\s*)?['"](zod(?:\/[^'"]*)?)['"]/g;
  for (const match of source.matchAll(statement)) {
    const clause = match[3] ?? '';
    found.push({
      specifier: match[4] ?? match[5] ?? '',
      typeOnly: match[2] !== undefined,
      namesZ: /\{[^}]*(?:^|[\s,{])z(?:\s*[,}]|\s+as\b)/.test(clause),
    });
  }
  return found;
}

describe('zod imports in src/', () => {
  const files = sourceFiles(SRC).map((file) => ({ file: relative(SRC, file), imports: zodImports(readFileSync(file, 'utf8')) }));

  it("never use `import { z } from 'zod'` (it makes bundlers keep every locale)", () => {
    const offenders = files.filter(({ imports }) => imports.some((found) => found.namesZ)).map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  it("load zod at run time only as 'zod/mini'", () => {
    const offenders = files.flatMap(({ file, imports }) =>
      imports.filter((found) => !found.typeOnly && found.specifier !== 'zod/mini').map((found) => `${file}: ${found.specifier}`),
    );
    expect(offenders).toEqual([]);
  });

  it('recognises the forbidden patterns it looks for', () => {
    expect(zodImports("import { z } from 'zod';")).toEqual([{ specifier: 'zod', typeOnly: false, namesZ: true }]);
    expect(zodImports("import {\n  string,\n  z,\n} from 'zod/mini';")[0]?.namesZ).toBe(true);
    expect(zodImports("import * as z from 'zod/mini';")).toEqual([{ specifier: 'zod/mini', typeOnly: false, namesZ: false }]);
    expect(zodImports("import type { ZodMiniType } from 'zod/mini';")).toEqual([{ specifier: 'zod/mini', typeOnly: true, namesZ: false }]);
    expect(zodImports("const zod = await import('zod');")).toEqual([{ specifier: 'zod', typeOnly: false, namesZ: false }]);
    expect(zodImports("export * from 'zod/v4';")[0]?.specifier).toBe('zod/v4');
  });
});
