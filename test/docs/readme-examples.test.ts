// The TypeScript examples of README.md and docs/*.md are what users copy first: each ```ts block
// is type-checked here against the sources (examples-check.ts), so a signature change breaks this
// test rather than the reader's build.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { AMBIENT, asModule, typeCheck } from './examples-check.js';
import { examplesOf, PAGES, root } from './pages.js';

const examples = PAGES.flatMap((page) => examplesOf(page));
const fileOf = (example: { page: string; line: number }): string => `${root}test/docs/${example.page.replace(/\W/g, '-')}-line-${example.line}.ts`;
// A known-wrong example, so a checker that reports nothing would be caught.
const BROKEN = { page: 'broken', line: 0, code: "const zones = await client.lookup.zones({ cityId: 'x' });\nzones[0].name;" };
let diagnostics: Map<string, string[]>;

beforeAll(() => {
  const modules = new Map([...examples, BROKEN].map((example) => [fileOf(example), asModule(example.code)]));
  diagnostics = typeCheck(new Map([...modules, [`${root}test/docs/ambient.d.ts`, AMBIENT]]));
}, 120_000);

describe('The examples of README.md and docs/', () => {
  it('are found: Quick start, options, every namespace, the order rules, webhooks and the sandbox', () => {
    const code = examples.map((example) => example.code).join('\n');
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
        examples.some((example) => example.page === page),
        page,
      ).toBe(true);
  });

  it('are really type-checked: a wrong argument and an unchecked index are reported', () => {
    const found = diagnostics.get(fileOf(BROKEN)) ?? [];
    expect(found.join('\n')).toMatch(/not assignable to parameter of type 'string'/);
    expect(found.join('\n')).toMatch(/possibly 'undefined'/);
  });

  it.each(examples.map((example) => [`${example.page}:${example.line}`, example]))('the block at %s compiles against the SDK as it is', (_, example) => {
    expect(diagnostics.get(fileOf(example))).toEqual([]);
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
