// The examples are what users copy: they may use the package only by its public names.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../support/processes.js';

const PUBLIC = ['delivery-sdk', 'delivery-sdk/validation', 'delivery-sdk/webhooks', 'delivery-sdk/webhooks/node', 'delivery-sdk/testing'];
const EXAMPLES = join(ROOT, 'examples');
const files = readdirSync(EXAMPLES, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => join(EXAMPLES, file));

/** Every module specifier a file names: static imports and exports, and dynamic imports. */
function specifiers(source: string): string[] {
  const found = [...source.matchAll(/^\s*(?:import|export)\s[^;]*?\bfrom\s+'([^']+)'/gm), ...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)];
  return found.map((match) => match[1] ?? '');
}

/** The specifiers of `source` (a file in `dir`) that are neither public names, nor node: built-ins, nor files of examples/. */
function outsideThePublicApi(source: string, dir: string): string[] {
  return specifiers(source).filter((specifier) => {
    if (specifier.startsWith('.')) return !resolve(dir, specifier).startsWith(`${EXAMPLES}/`);
    return !PUBLIC.includes(specifier) && !specifier.startsWith('node:');
  });
}

describe('the examples', () => {
  it('are found', () => {
    expect(files.map((file) => relative(EXAMPLES, file)).sort()).toEqual(
      expect.arrayContaining(['ci-bulk-upload.ts', 'demo.ts', 'fulfillment.ts', 'merchant-backend.ts', 'storefront-checkout.ts']),
    );
  });

  it.each(files.map((file) => [relative(ROOT, file), file]))('%s imports the package by its public names only, and Node built-ins by node:', (_name, file) => {
    expect(outsideThePublicApi(readFileSync(file, 'utf8'), dirname(file))).toEqual([]);
  });

  it('the check sees a path into src/, a bare built-in and a dynamic import, and lets the rest pass', () => {
    const source = [
      "import { DeliveryClient } from 'delivery-sdk';",
      "import type { Sandbox } from 'delivery-sdk/testing';",
      "import { x } from '../src/index.js';",
      "import fs from 'fs';",
      "import { readFile } from 'node:fs/promises';",
      "import { printer } from './support/merchant.js';",
      "const m = await import('../src/testing/index.js');",
    ].join('\n');
    expect(outsideThePublicApi(source, EXAMPLES)).toEqual(['../src/index.js', 'fs', '../src/testing/index.js']);
  });
});
