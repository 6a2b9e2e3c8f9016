// Test files share their worker's modules (vitest.config.ts), but for those that mock modules or
// reset the registry: found by what they contain, they run in a process of their own. A call the
// scan cannot see throws in the shared project (test/support/shared-modules.ts).
import { describe, expect, it, vi } from 'vitest';
import { FRESH_MODULES, REGISTRY_CALLS } from '../../vitest.config.js';

describe('test files that load modules afresh', () => {
  it('are found by the calls they make', () => {
    expect(FRESH_MODULES).toContain('test/namespaces/on-demand.test.ts');
    expect(FRESH_MODULES.every((file) => file.endsWith('.test.ts'))).toBe(true);
    // Written in two pieces: the whole call in this file's text would put the file itself among them.
    expect(REGISTRY_CALLS.test(`vi.doMock${'('}`)).toBe(true);
    expect(REGISTRY_CALLS.test('a vi.mocked(value)')).toBe(false);
  });

  it('are the only ones that may mock: here, in the shared project, a mock throws before it can leak', () => {
    const mocking = [vi.doMock, vi.resetModules, vi.doUnmock].map((call) => {
      try {
        (call as (path: string) => void)('../../src/index.js');
        return 'made';
      } catch (error) {
        return (error as Error).message;
      }
    });
    expect(mocking).toEqual([
      expect.stringContaining("doMock() in a test file that shares its worker's modules"),
      expect.stringContaining('resetModules() in a test file'),
      expect.stringContaining('doUnmock() in a test file'),
    ]);
  });
});
