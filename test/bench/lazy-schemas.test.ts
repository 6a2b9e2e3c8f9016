import { describe, expect, it, vi } from 'vitest';

// Cold start: importing any entry must not build a schema; they are built on first use.
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

describe('importing the entries', () => {
  it('builds no zod schema in any entry (main, webhooks, webhooks/node, webhooks/redis, testing)', async () => {
    await import('../../src/index.js');
    await import('../../src/webhooks/index.js');
    await import('../../src/webhooks/node.js');
    await import('../../src/webhooks/redis.js');
    await import('../../src/testing/index.js');
    expect(zodCalls).toEqual([]);
  });

  it('would notice a schema built through zod/mini', async () => {
    zodCalls.length = 0;
    const z = await import('zod/mini');
    z.object({ firstLine: z.string() });
    expect(zodCalls).toEqual(expect.arrayContaining(['object', 'string']));
  });
});
