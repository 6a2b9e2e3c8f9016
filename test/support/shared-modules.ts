// Set up for every test file of the `shared` project (vitest.config.ts), whose files share their
// worker's modules: a module mock or a registry reset there would reach the files that run after
// it. Files that make those calls are found by what they contain and run in the `fresh` project;
// a call that scan cannot see (made by a helper, say) throws here instead of leaking.
import { vi } from 'vitest';

for (const name of ['mock', 'doMock', 'unmock', 'doUnmock', 'resetModules'] as const) {
  vi[name] = (() => {
    throw new Error(
      `vi.${name}() in a test file that shares its worker's modules: the mock would reach the next files. Call it in the test file itself, which then runs in a process of its own (vitest.config.ts, FRESH_MODULES).`,
    );
  }) as never;
}
