import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every module reachable through static imports from `file`, with the bare specifiers it names. */
function staticGraph(file: string, seen = new Map<string, string[]>()): Map<string, string[]> {
  if (seen.has(file)) return seen;
  const source = readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm)].map((m) => m[1] ?? '');
  seen.set(file, specifiers);
  for (const specifier of specifiers) {
    if (specifier.startsWith('.')) staticGraph(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')), seen);
  }
  return seen;
}

/** Every module reachable through any import or export (type-only and dynamic ones too) from `file`, with the specifiers it names. */
function typeGraph(file: string, seen = new Map<string, string[]>()): Map<string, string[]> {
  if (seen.has(file)) return seen;
  const source = readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*)'([^']+)'/g)].map((m) => m[1] ?? '');
  seen.set(file, specifiers);
  for (const specifier of specifiers) {
    if (specifier.startsWith('.')) typeGraph(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')), seen);
  }
  return seen;
}

describe('the delivery-sdk/testing entry', () => {
  it('loads without msw and without Node built-ins (both only behind dynamic imports)', () => {
    const graph = staticGraph(resolve('src/testing/index.ts'));
    const bare = [...graph.values()].flat().filter((s) => !s.startsWith('.'));
    expect(bare.filter((s) => s === 'msw' || s.startsWith('msw/'))).toEqual([]);
    expect(bare.filter((s) => s.startsWith('node:'))).toEqual([]);
    expect([...graph.keys()].some((f) => f.endsWith('testing/msw.ts'))).toBe(false);
    expect([...graph.keys()].some((f) => f.endsWith('testing/sandbox.ts'))).toBe(true);
  });

  it('names msw nowhere, not even in a type import: its declarations type-check without msw installed', () => {
    const graph = typeGraph(resolve('src/testing/index.ts'));
    expect([...graph.values()].flat().filter((s) => s === 'msw' || s.startsWith('msw/'))).toEqual([]);
    expect([...graph.keys()].some((f) => f.endsWith('testing/msw.ts'))).toBe(false);
  });
});

describe('the delivery-sdk/testing/msw entry', () => {
  it('is a leaf: no other module imports it', () => {
    const importers = [...typeGraph(resolve('src/index.ts')), ...typeGraph(resolve('src/testing/index.ts')), ...typeGraph(resolve('src/webhooks/index.ts'))]
      .filter(([, specifiers]) => specifiers.some((s) => s.endsWith('/msw.js')))
      .map(([file]) => file);
    expect(importers).toEqual([]);
    expect(typeGraph(resolve('src/testing/msw.ts')).get(resolve('src/testing/msw.ts'))).toContain('msw');
  });
});
