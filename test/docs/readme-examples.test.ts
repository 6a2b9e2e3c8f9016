// The TypeScript examples of README.md and docs/*.md are what users copy first: each ```ts block
// is type-checked here against the sources (examples-check.ts), so a signature change breaks this
// test rather than the reader's build.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { BROKEN, exampleDiagnostics, moduleOf, PAGE_EXAMPLES } from './examples-check.js';
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
