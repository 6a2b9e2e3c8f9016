// The `@example`s of the shipped declarations are what an editor shows on hover: each is
// type-checked here, as README's and docs/'s examples are, so one that no longer compiles (a
// renamed option, a missing required field) fails this test rather than the reader's build.
// It reads dist/ as packed: run `npm run build` first (`npm test` does).
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILT, DECLARATION_EXAMPLES, exampleDiagnostics, examplesIn, moduleOf } from './examples-check.js';

let diagnostics: Map<string, string[]>;

beforeAll(() => {
  diagnostics = exampleDiagnostics();
}, 120_000);

describe('The @examples of the shipped declarations (dist/**/*.d.ts)', () => {
  it('are found, after a build: the client, resources, errors, catalogues, webhooks and the sandbox', () => {
    expect(BUILT, 'dist/ is missing: run `npm run build` first').toBe(true);
    const files = new Set(DECLARATION_EXAMPLES.map((example) => example.file));
    for (const file of [
      'dist/client.d.ts',
      'dist/resources/deliveries.d.ts',
      'dist/resources/lookup.d.ts',
      'dist/errors/index.d.ts',
      'dist/catalogue/states.d.ts',
      'dist/webhooks/handler.d.ts',
      'dist/testing/sandbox.d.ts',
    ]) {
      expect(files, file).toContain(file);
    }
  });

  it('are read from the comments as an editor shows them (fenced code, the comment stars stripped)', () => {
    const [example] = examplesIn('x.d.ts', '/**\n * Does it.\n *\n * @example\n * ```ts\n * const a = 1;\n * ```\n * @throws nothing\n */');
    expect(example).toEqual({ file: 'x.d.ts', line: 4, code: 'const a = 1;\n' });
  });

  it.each(DECLARATION_EXAMPLES.map((example) => [`${example.file}:${example.line}`, example]))(
    'the example at %s compiles against the SDK as it is',
    (_, example) => {
      expect(diagnostics.get(moduleOf(example))).toEqual([]);
    },
  );
});
