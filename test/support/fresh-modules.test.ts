// Test files share their worker's modules (vitest.config.ts), but for those that mock modules or
// reset the registry: listed in FRESH_MODULES, they run in a process of their own. A file that
// mocks a module without being listed would hand its mock, or a second copy of the SDK whose error
// classes fail `instanceof`, to the files that run after it in the same worker.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FRESH_MODULES } from '../../vitest.config.js';
import { ROOT } from './processes.js';

const testFiles = readdirSync(join(ROOT, 'test'), { recursive: true })
  .map((name) => `test/${String(name)}`)
  .filter((file) => file.endsWith('.test.ts'));
const REGISTRY_CALLS = /\bvi\.(mock|doMock|unmock|doUnmock|resetModules|importActual|importMock)\(/;

describe('test files that load modules afresh', () => {
  it('are every file that mocks a module or resets the registry, and only those', () => {
    const touching = testFiles.filter((file) => REGISTRY_CALLS.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(touching.length).toBeGreaterThan(0);
    expect([...FRESH_MODULES].sort()).toEqual(touching.sort());
  });
});
