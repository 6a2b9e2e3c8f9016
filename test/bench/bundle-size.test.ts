import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUDGETS,
  type BundleMeasurement,
  buildLikeDist,
  FORBIDDEN_SOURCES,
  forbiddenSourceOf,
  KB,
  measureBundle,
  PAGE_ORDER,
  type PageFigure,
} from '../../bench/lib/bundle-size.mjs';
import { sandboxWithAccount } from '../support/sandbox.js';

// The measurement `npm run bench` takes on dist/ (the same function), here on src/ built the way
// tsup ships it (so top-level code that tree-shaking cannot drop counts, as it does for users):
// each page built as a browser build splits it, run in a child Node process until its first call
// has answered (its `fetch` answered in process), gzip level 9. No browser needed.
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

/** Inputs of `figure` that kept code after tree-shaking and match `pattern`. */
const keptInputs = (figure: PageFigure, pattern: RegExp): string[] =>
  Object.entries(figure.bytesByInput)
    .filter(([input, bytes]) => bytes > 0 && pattern.test(input))
    .map(([input]) => input);

const KY = /node_modules[\\/]ky[\\/]/;
const CLASSIC_ZOD = /zod[\\/]v4[\\/](?:classic[\\/]|locales[\\/](?!en\.js))/;
// zod's class names (`$constructor('ZodMiniObject', ...)`) survive minification.
const ZOD_MINI = /ZodMini/;
const kb = (bytes: number | undefined) => `${(bytes ?? Number.NaN) / KB} KB`;
const forbidden = FORBIDDEN_SOURCES.map(({ name }) => name).join(', ');

/** What holds of every page: the figures nest, and the page's own output is among what loads at once. */
function itNests(page: () => BundleMeasurement) {
  it("measures the page's own output and what it imports: at once within the first call's files, those within every chunk", () => {
    const { atOnce, firstCall, allChunks } = page();
    expect(atOnce.files).toContain('stdin.js');
    expect(firstCall.files).toEqual(expect.arrayContaining(atOnce.files));
    expect(allChunks.files).toEqual(expect.arrayContaining(firstCall.files));
  });
}

describe('a checkout page: construct the client, create one order', () => {
  let page: BundleMeasurement;
  beforeAll(async () => {
    page = await measureBundle('main', shipped.main);
  });
  const budget = BUDGETS.pages.main;

  itNests(() => page);

  it('runs to its answer: one create sent', () => {
    expect(page.requests).toEqual(['POST /v2/deliveries']);
  });

  it(`loads at most ${kb(budget.atOnce)} at once, without ky or zod: each call's code comes on its first use`, () => {
    expect(page.atOnce.gzipBytes).toBeLessThanOrEqual(budget.atOnce ?? 0);
    expect(keptInputs(page.atOnce, KY)).toEqual([]);
    expect(page.atOnce.text).not.toMatch(ZOD_MINI);
  });

  it(`has loaded at most ${kb(budget.firstCall)} when its create has answered: ky with the first request, no zod for an order the plain check passed`, () => {
    expect(page.firstCall.gzipBytes).toBeLessThanOrEqual(budget.firstCall ?? 0);
    expect(page.firstCall.files.length).toBeGreaterThan(page.atOnce.files.length);
    expect(keptInputs(page.firstCall, KY)).not.toEqual([]);
    expect(page.firstCall.text).not.toMatch(ZOD_MINI);
  });

  it(`can load at most ${kb(budget.allChunks)} in all, every call of the client and the schemas included`, () => {
    expect(page.allChunks.gzipBytes).toBeLessThanOrEqual(budget.allChunks ?? 0);
    expect(page.allChunks.text).toMatch(ZOD_MINI);
  });

  it(`carries no code of ${forbidden}, in any chunk it can load`, () => {
    expect(page.forbiddenInputs).toEqual([]);
  });

  it('loads nothing of delivery-sdk/opentelemetry or @opentelemetry/api, in any chunk: telemetry is a leaf entry', () => {
    expect(keptInputs(page.allChunks, /@opentelemetry|[\\/]telemetry[\\/]index\.js$/)).toEqual([]);
    // A name only the OpenTelemetry implementation writes.
    expect(page.allChunks.text).not.toContain('delivery.orders.created');
  });
});

describe('a page that only looks cities up', () => {
  let page: BundleMeasurement;
  beforeAll(async () => {
    page = await measureBundle('cities', shipped.main);
  });
  const budget = BUDGETS.pages.cities;

  itNests(() => page);

  it('runs to its answer: one cities list asked for', () => {
    expect(page.requests).toEqual(['GET /v2/cities']);
  });

  it(`loads at most ${kb(budget.atOnce)} at once, ${kb(budget.firstCall)} when the list has answered, ${kb(budget.allChunks)} in all`, () => {
    expect(page.atOnce.gzipBytes).toBeLessThanOrEqual(budget.atOnce ?? 0);
    expect(page.firstCall.gzipBytes).toBeLessThanOrEqual(budget.firstCall ?? 0);
    expect(page.allChunks.gzipBytes).toBeLessThanOrEqual(budget.allChunks ?? 0);
  });

  it('loads no zod for a list it only reads', () => {
    expect(page.firstCall.text).not.toMatch(ZOD_MINI);
  });

  it(`carries no code of ${forbidden}, in any chunk it can load`, () => {
    expect(page.forbiddenInputs).toEqual([]);
  });
});

describe('the create page over delivery-sdk/functions (DeliveryCore + createDelivery)', () => {
  let page: BundleMeasurement;
  beforeAll(async () => {
    page = await measureBundle('functions', shipped.functions);
  });
  const budget = BUDGETS.pages.functions;

  itNests(() => page);

  it(`loads at most ${kb(budget.atOnce)} at once and ${kb(budget.firstCall)} when its create has answered`, () => {
    expect(page.requests).toEqual(['POST /v2/deliveries']);
    expect(page.atOnce.gzipBytes).toBeLessThanOrEqual(budget.atOnce ?? 0);
    expect(page.firstCall.gzipBytes).toBeLessThanOrEqual(budget.firstCall ?? 0);
  });

  it('loads ky with the first request and zod only on demand: the plain check decides for a valid order', () => {
    expect(keptInputs(page.atOnce, KY)).toEqual([]);
    expect(keptInputs(page.firstCall, KY)).not.toEqual([]);
    expect(page.firstCall.text).not.toMatch(ZOD_MINI);
    expect(page.allChunks.text).toMatch(ZOD_MINI);
  });

  it(`carries no code of ${forbidden}, in any chunk it can load`, () => {
    expect(page.forbiddenInputs).toEqual([]);
  });
});

describe('the order the create pages send', () => {
  it('is one the sandbox takes: the pages run against it as against the service', async () => {
    const { client } = await sandboxWithAccount();
    await expect(client.deliveries.create(PAGE_ORDER)).resolves.toMatchObject({
      trackingNumber: expect.any(String),
    });
  });
});

describe('the validators (delivery-sdk/validation)', () => {
  let page: BundleMeasurement;
  beforeAll(async () => {
    page = await measureBundle('validation', shipped.validation);
  });

  it('carry zod at once: the control of the checks above, which find none in the client pages', () => {
    expect(page.atOnce.text).toMatch(ZOD_MINI);
  });

  it("keep nothing of zod's classic API or its non-English locales", () => {
    expect(keptInputs(page.allChunks, CLASSIC_ZOD)).toEqual([]);
  });

  it(`carry no code of ${forbidden}`, () => {
    expect(page.forbiddenInputs).toEqual([]);
  });
});

describe('a webhook route (parseWebhookEvent + createWebhookHandler)', () => {
  let page: BundleMeasurement;
  beforeAll(async () => {
    page = await measureBundle('webhooks', shipped.webhooks);
  });

  it(`stays within ${kb(BUDGETS.pages.webhooks.atOnce)}, in one file; a handler's telemetry code loads apart, with its first request`, () => {
    expect(page.atOnce.gzipBytes).toBeLessThanOrEqual(BUDGETS.pages.webhooks.atOnce ?? 0);
    expect(page.atOnce.files).toEqual(['stdin.js']);
    expect(page.firstCall.files).toEqual(['stdin.js']);
    expect(page.allChunks.files.filter((file) => file !== 'stdin.js')).toEqual([expect.stringMatching(/^tracing-[\w-]+\.js$/)]);
  });

  it(`carries no ky (a webhook route sends nothing), no code of ${forbidden}`, () => {
    expect(keptInputs(page.allChunks, KY)).toEqual([]);
    expect(page.forbiddenInputs).toEqual([]);
  });

  it("keeps nothing of zod's classic API or its non-English locales", () => {
    expect(keptInputs(page.allChunks, CLASSIC_ZOD)).toEqual([]);
  });
});

describe('the check for code no page may carry', () => {
  it('flags a bundle that pulls in the sandbox, traced through the source maps of the built files', async () => {
    const page = await measureBundle('sandbox', shipped.testing);
    expect(page.forbiddenInputs.some((input) => /^the sandbox: .*src[\\/]testing[\\/]/.test(input))).toBe(true);
  });

  it.each([
    ['msw', 'node_modules/msw/lib/core/index.mjs'],
    ['msw', 'node_modules/@mswjs/interceptors/lib/browser/index.mjs'],
    ['the sandbox', '../src/testing/server.ts'],
    ['the sandbox dashboard', 'node_modules/preact/dist/preact.module.js'],
    ['the sandbox dashboard', 'node_modules/htm/preact/index.module.js'],
    ['the sandbox dashboard', '../src/testing/dashboard/ui/main.ts'],
    ['the sandbox dashboard', 'dist/dashboard/app.js'],
    ['the MCP server', '../src/mcp/server.ts'],
    ['the MCP server', 'node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.js'],
  ])('names %s for %s', (name, file) => {
    expect(forbiddenSourceOf(file)).toBe(name);
    expect(forbiddenSourceOf(file.replaceAll('/', '\\'))).toBe(name);
  });

  it.each(['../src/internal/attempts.ts', 'node_modules/ky/distribution/index.js', 'node_modules/zod/v4/mini/schemas.js', '../src/functions/testing-order.ts'])(
    'lets the SDK and its dependencies through: %s',
    (file) => {
      expect(forbiddenSourceOf(file)).toBeUndefined();
    },
  );
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
