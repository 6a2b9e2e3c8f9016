#!/usr/bin/env node
/**
 * Gives every declaration file tsc wrote into dist/ (tsconfig.build.json) a CommonJS twin:
 * `client.d.ts` -> `client.d.cts`, its relative imports pointed at the twins (`./x.js` ->
 * `./x.cjs`, which TypeScript resolves to `./x.d.cts`). The package is `"type": "module"`, so a
 * `.d.ts` describes ESM; `require` users get declarations that describe CommonJS, with the same
 * names and the same files as the sources.
 *
 * Run by `npm run build`, after tsup and tsc.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const RELATIVE_JS = /((?:\bfrom\s+|\bimport\s*\(\s*)['"])(\.{1,2}\/[^'"]*)\.js(['"])/g;

let written = 0;
for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.d.ts')) continue;
  const source = readFileSync(join(dist, file), 'utf8');
  writeFileSync(join(dist, file.replace(/\.d\.ts$/, '.d.cts')), source.replace(RELATIVE_JS, '$1$2.cjs$3'));
  written++;
}
if (written === 0) throw new Error('dist/ has no declarations: run tsc -p tsconfig.build.json first');
