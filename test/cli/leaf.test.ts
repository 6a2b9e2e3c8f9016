import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/processes.js';

// The `delivery-sdk` command is a leaf: what it depends on (the CSV library) reaches no entry of
// the package, so no page and no serverless function of a user ever loads it. Read off the
// built files (`npm run build` first), static and dynamic imports alike.
const DIST = join(ROOT, 'dist');
const CLI_DEPENDENCIES = ['papaparse'];
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

/** Every file an entry can load, itself included, and every bare specifier any of them names. */
function closure(entry: string): { files: Set<string>; specifiers: Set<string> } {
  const files = new Set<string>();
  const specifiers = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const [, specifier] of code.matchAll(IMPORT)) {
      if (specifier === undefined) continue;
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier));
      else specifiers.add(specifier);
    }
  };
  visit(entry);
  return { files, specifiers };
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { import?: { default: string }; require?: { default: string } }>;
  dependencies: Record<string, string>;
  bin: Record<string, string>;
};
const entryFiles = Object.values(manifest.exports).flatMap((target) =>
  typeof target === 'string' ? [] : [target.import?.default, target.require?.default].filter((file): file is string => file !== undefined),
);

describe.skipIf(!existsSync(join(DIST, 'cli', 'main.js')))('the delivery-sdk command is a leaf of the package', () => {
  it('no entry of the exports map loads a file of dist/cli or papaparse, by import() either', () => {
    expect(entryFiles.length).toBeGreaterThan(10);
    for (const entry of entryFiles) {
      const { files, specifiers } = closure(join(ROOT, entry));
      expect([...files].map((file) => relative(DIST, file)).filter((file) => file.startsWith('cli'))).toEqual([]);
      expect([...specifiers].filter((specifier) => CLI_DEPENDENCIES.some((name) => specifier === name || specifier.startsWith(`${name}/`)))).toEqual([]);
    }
  });

  it('the main entry loads no Node built-in', () => {
    for (const entry of [manifest.exports['.']].flatMap((target) => (typeof target === 'object' ? [target.import?.default, target.require?.default] : []))) {
      const { specifiers } = closure(join(ROOT, entry as string));
      // tsup writes `node:fs` as `fs`: either spelling is a built-in.
      expect([...specifiers].filter((specifier) => builtinModules.includes(specifier.replace(/^node:/, '')))).toEqual([]);
    }
  });

  it('the command does load them: the check above reads real imports', () => {
    const { specifiers } = closure(join(ROOT, manifest.bin['delivery-sdk'] as string));
    expect([...specifiers]).toEqual(expect.arrayContaining(['papaparse', 'fs']));
    for (const name of CLI_DEPENDENCIES) expect(Object.keys(manifest.dependencies)).toContain(name);
  });
});
