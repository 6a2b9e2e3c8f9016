import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const ENTRY = fileURLToPath(new URL('../../src/webhooks/index.ts', import.meta.url));

/** A webhook route as a browser, an edge worker or Deno would bundle it. */
async function bundleRoute(): Promise<{ text: string; gzipBytes: number; inputs: string[] }> {
  const result = await build({
    stdin: {
      contents: `import { parseWebhookEvent, createWebhookHandler } from ${JSON.stringify(ENTRY)};
        export const parse = parseWebhookEvent;
        export const handler = createWebhookHandler({ on: { 45() {} } });`,
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      loader: 'ts',
    },
    absWorkingDir: fileURLToPath(new URL('.', import.meta.url)),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { text: new TextDecoder().decode(code), gzipBytes: gzipSync(code, { level: 9 }).length, inputs: Object.keys(result.metafile.inputs) };
}

describe('delivery-sdk/webhooks runs in browsers, edge workers, Deno and Bun', () => {
  let route: Awaited<ReturnType<typeof bundleRoute>>;
  beforeAll(async () => {
    route = await bundleRoute();
  });

  it('bundles without Node built-ins, zod or the Node adapter', () => {
    expect(route.inputs.filter((input) => /^node:|[\\/]zod[\\/]|webhooks[\\/]node\.ts$/.test(input))).toEqual([]);
    expect(route.text).not.toMatch(/\bBuffer\b|\bprocess\.|require\(/);
  });

  it('parseWebhookEvent + createWebhookHandler stay under 8 KB gzipped', () => {
    expect(route.gzipBytes).toBeLessThan(8000);
  });
});
