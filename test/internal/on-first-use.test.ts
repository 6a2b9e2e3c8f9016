// Code loaded on first use (internal/on-first-use.ts): the sending code, the schemas and each
// namespace's operations are loaded this way, once, and a load that failed is tried again.
import { describe, expect, it } from 'vitest';
import { ConnectionError } from '../../src/index.js';
import { onFirstUse } from '../../src/internal/on-first-use.js';

/** An importer whose loads the test settles by hand, counting how often it was asked. */
function controlledImporter<M>() {
  const pending: Array<{ resolve: (module: M) => void; reject: (cause: unknown) => void }> = [];
  const importer = () => new Promise<M>((resolve, reject) => pending.push({ resolve, reject }));
  return { importer, pending };
}

describe('onFirstUse', () => {
  it('runs the importer once for every load asked before it arrives, and holds the module once it has', async () => {
    const { importer, pending } = controlledImporter<{ name: string }>();
    const module = onFirstUse(importer);
    expect(module.ready).toBeUndefined();
    const first = module.load();
    const second = module.load();
    expect(pending).toHaveLength(1);
    pending[0]?.resolve({ name: 'ops' });
    await expect(first).resolves.toEqual({ name: 'ops' });
    await expect(second).resolves.toBe(await first);
    expect(module.ready).toBe(await first);
    await module.load();
    expect(pending).toHaveLength(1);
  });

  it('does not import anything until asked', () => {
    const { importer, pending } = controlledImporter<object>();
    onFirstUse(importer);
    expect(pending).toHaveLength(0);
  });

  it('rejects every load waiting on a failed import with one typed error saying nothing was sent, and tries again on the next', async () => {
    const { importer, pending } = controlledImporter<string>();
    const module = onFirstUse(importer);
    const waiting = [module.load(), module.load()];
    const gone = new TypeError('Failed to fetch dynamically imported module');
    pending[0]?.reject(gone);
    for (const load of waiting) {
      const error = await load.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as ConnectionError).message).toContain('nothing was sent');
      expect((error as ConnectionError).mayExist).toBe(false);
      expect(((error as Error).cause as Error).cause).toBe(gone);
    }
    expect(module.ready).toBeUndefined();
    const retried = module.load();
    expect(pending).toHaveLength(2);
    pending[1]?.resolve('arrived');
    await expect(retried).resolves.toBe('arrived');
    expect(module.ready).toBe('arrived');
  });
});
