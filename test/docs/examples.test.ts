// The examples users copy, type-checked against the sources (examples-check.ts) in one program: the
// ```ts blocks of README.md and docs/*.md, which users copy first, and the `@example`s of the shipped
// declarations, which an editor shows on hover. An example that no longer compiles (a changed
// signature, a renamed option, a missing required field) fails this test rather than the reader's
// build. The declarations are read from dist/ as packed: run `npm run build` first (`npm test` does).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { BROKEN, BUILT, DECLARATION_EXAMPLES, exampleDiagnostics, examplesIn, moduleOf, PAGE_EXAMPLES, UNIMPORTED } from './examples-check.js';
import { examplesOf } from './pages.js';

let diagnostics: Map<string, string[]>;

beforeAll(() => {
  diagnostics = exampleDiagnostics();
}, 120_000);

describe('The examples of README.md and docs/', () => {
  it('are found: Quick start, options, every namespace, the order rules, webhooks and the sandbox', () => {
    const code = PAGE_EXAMPLES.map((example) => example.code).join('\n');
    for (const call of [
      'client.lookup.',
      'client.users.',
      'client.businesses.',
      'client.deliveries.',
      'client.fulfillment.',
      'validateOrder(',
      'createWebhookHandler(',
      'createSandbox(',
    ])
      expect(code).toContain(call);
    for (const page of ['README.md', 'docs/orders.md', 'docs/sandbox.md', 'docs/webhooks.md'])
      expect(
        PAGE_EXAMPLES.some((example) => example.page === page),
        page,
      ).toBe(true);
  });

  it('are really type-checked: a wrong argument and an unchecked index are reported', () => {
    const found = diagnostics.get(moduleOf(BROKEN)) ?? [];
    expect(found.join('\n')).toMatch(/not assignable to parameter of type 'string'/);
    expect(found.join('\n')).toMatch(/possibly 'undefined'/);
  });

  it('are each a module of its own, as pasted: a name of the package used without its import is reported; the prelude’s variables are not', () => {
    expect(diagnostics.get(moduleOf(UNIMPORTED))).toEqual([expect.stringMatching(/^Cannot find name 'DeliveryType'/)]);
  });

  it.each(PAGE_EXAMPLES.map((example) => [`${example.page}:${example.line}`, example]))('the block at %s compiles against the SDK as it is', (_, example) => {
    expect(diagnostics.get(moduleOf(example))).toEqual([]);
  });
});

describe("README's Set-up test", () => {
  it('is test/docs/readme-setup.test.ts word for word, so the suite runs it as a reader would', () => {
    const file = readFileSync(new URL('readme-setup.test.ts', import.meta.url), 'utf8');
    const code = file.slice(file.indexOf('\nimport ') + 1);
    const setUp = examplesOf('README.md').find((example) => example.code.includes('createSandbox('));
    expect(setUp?.code).toBe(code);
  });
});

describe('The @examples of the shipped declarations (dist/**/*.d.ts)', () => {
  it('are found, after a build: the client, resources, errors, catalogues, webhooks and the sandbox', () => {
    expect(BUILT, 'dist/ is missing: run `npm run build` first').toBe(true);
    const files = new Set(DECLARATION_EXAMPLES.map((example) => example.file));
    for (const file of [
      'dist/client.d.ts',
      'dist/namespaces/deliveries.d.ts',
      'dist/namespaces/lookup.d.ts',
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
