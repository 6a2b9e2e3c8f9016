import { describe, expect, it, vi } from 'vitest';

// Cold start: importing an entry must not build any schema; they are built on first use.
// Every function zod/mini exports is wrapped so that any call during import is recorded.
const zodCalls = vi.hoisted(() => [] as string[]);

vi.mock('zod/mini', async (importOriginal) => {
  const real = await importOriginal<Record<string, unknown>>();
  return Object.fromEntries(
    Object.entries(real).map(([name, value]) => [
      name,
      typeof value === 'function'
        ? new Proxy(value, {
            apply(target, self, args) {
              zodCalls.push(name);
              return Reflect.apply(target, self, args);
            },
          })
        : value,
    ]),
  );
});

describe('importing the browser entries', () => {
  it('builds no zod schema in the main entry or the webhooks entry', async () => {
    await import('../../src/index.js');
    await import('../../src/webhooks/index.js');
    expect(zodCalls).toEqual([]);
  });

  it('would notice a schema built through zod/mini', async () => {
    zodCalls.length = 0;
    const z = await import('zod/mini');
    z.object({ firstLine: z.string() });
    expect(zodCalls).toEqual(expect.arrayContaining(['object', 'string']));
  });
});
