#!/usr/bin/env node
/**
 * Gives every declaration file tsc wrote into dist/ (tsconfig.build.json) a CommonJS twin:
 * `client.d.ts` -> `client.d.cts`, its relative imports pointed at the twins (`./x.js` ->
 * `./x.cjs`, which TypeScript resolves to `./x.d.cts`). The package is `"type": "module"`, so a
 * `.d.ts` describes ESM; `require` users get declarations that describe CommonJS, with the same
 * names and the same files as the sources.
 *
 * A type import of an ESM-only package (ky) gets `with { 'resolution-mode': 'import' }` in the
 * twin: from a CommonJS declaration file TypeScript refuses it otherwise (TS1541).
 *
 * Run by `npm run build`, after tsup and tsc.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../', import.meta.url);
const dist = new URL('dist/', root).pathname;
const RELATIVE_JS = /((?:\bfrom\s+|\bimport\s*\(\s*)['"])(\.{1,2}\/[^'"]*)\.js(['"])/g;
const TYPE_IMPORT = /^(import type [^;]*? from ['"])([^'".][^'"]*)(['"]);$/gm;

/** Whether a package can only be imported, never required: an ES module with no `require` export. */
function esmOnly(name) {
  if (name.startsWith('node:')) return false;
  const manifest = JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, root), 'utf8'));
  return manifest.type === 'module' && !JSON.stringify(manifest.exports ?? {}).includes('"require"');
}
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

let written = 0;
for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.d.ts')) continue;
  const source = readFileSync(join(dist, file), 'utf8');
  const twin = source
    .replace(RELATIVE_JS, '$1$2.cjs$3')
    .replace(TYPE_IMPORT, (line, head, specifier, quote) =>
      esmOnly(packageOf(specifier)) ? `${head}${specifier}${quote} with { 'resolution-mode': 'import' };` : line,
    );
  writeFileSync(join(dist, file.replace(/\.d\.ts$/, '.d.cts')), twin);
  written++;
}
if (written === 0) throw new Error('dist/ has no declarations: run tsc -p tsconfig.build.json first');
