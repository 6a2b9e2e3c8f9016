import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, packageEntries, ROOT } from './packed-package.js';

// An edge worker (Cloudflare Workers, Vercel Edge) or Deno without its Node compatibility layer
// has no Node built-ins. esbuild's `neutral` platform assumes none either: a built-in the built
// files import, dynamically import or require shows up here as an external import of the bundle.
const BUILTINS = [...new Set(builtinModules.map((name) => name.replace(/^node:/, '')))];
const BUILTIN_SPECIFIERS = [...BUILTINS, ...BUILTINS.map((name) => `node:${name}`), 'node:*'];

/** The Node built-ins a neutral-platform bundle of `contents` still needs. */
async function builtinsNeededBy(contents: string): Promise<string[]> {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, loader: 'js' },
    absWorkingDir: ROOT,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    external: BUILTIN_SPECIFIERS,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const imported = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((entry) => entry.external).map((entry) => entry.path));
  return [...new Set(imported)];
}

const entry = (subpath: string, build: 'esm' | 'node' = 'esm') => {
  const found = packageEntries().find((candidate) => candidate.subpath === subpath);
  if (found === undefined) throw new Error(`package.json exports no ${subpath}`);
  return join(ROOT, found[build]);
};

beforeAll(() => assertBuilt());

describe('edge runtimes: the built entries bundled for a platform without Node built-ins', () => {
  it.each(['.', './functions', './webhooks', './webhooks/redis', './opentelemetry'])('%s imports no node: module and requires no built-in', async (subpath) => {
    expect(await builtinsNeededBy(`export * from ${JSON.stringify(entry(subpath))};`)).toEqual([]);
  });

  // Deno (and so Deno Deploy, Netlify's and Supabase's edge functions) resolves packages with the
  // `node` condition as well as `deno`: the Node build must run where the others run.
  it.each(['.', './functions', './webhooks', './webhooks/redis', './opentelemetry'])(
    '%s, in the Node build (`node` condition), imports no node: module and requires no built-in either',
    async (subpath) => {
      expect(await builtinsNeededBy(`export * from ${JSON.stringify(entry(subpath, 'node'))};`)).toEqual([]);
    },
  );

  it('the check itself sees a node: import, a bare built-in import, a dynamic import and a require of a built-in', async () => {
    const found = await builtinsNeededBy(`import { readFileSync } from 'node:fs';
      import http from 'http';
      const crypto = typeof require === 'function' ? require('crypto') : undefined;
      export const listen = () => import('node:net');
      export const used = [readFileSync, http, crypto];`);
    expect(found.sort()).toEqual(['crypto', 'http', 'node:fs', 'node:net']);
  });
});
