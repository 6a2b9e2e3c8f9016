// The `@example`s of the shipped declarations are what an editor shows on hover: each is
// type-checked here, as README's and docs/'s examples are, so one that no longer compiles (a
// renamed option, a missing required field) fails this test rather than the reader's build.
// It reads dist/ as packed: run `npm run build` first (`npm test` does).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AMBIENT, asModule, typeCheck } from './examples-check.js';
import { root } from './pages.js';

interface DeclarationExample {
  file: string;
  line: number;
  code: string;
}

const DIST = join(root, 'dist');

/** What hover snippets take as given besides README's: the event, error or order at hand, and the app's own functions. */
const GIVEN: Record<string, string> = {
  event: "declare const event: import('delivery-sdk/webhooks').WebhookEvent;",
  err: 'declare const err: unknown;',
  order: 'declare const order: SDK.OrderInput;',
  sendOrder: 'declare const sendOrder: SDK.FulfillmentSendOrder;',
  returnOrder: 'declare const returnOrder: SDK.FulfillmentReturnOrder;',
  original: 'declare const original: SDK.FulfillmentSendOrder;',
  business: 'declare const business: SDK.Business;',
  cairoId: 'declare const cairoId: string;',
  codeFromSms: 'declare const codeFromSms: string;',
  tokenFromEmailLink: 'declare const tokenFromEmailLink: string;',
  previous: 'declare const previous: number | undefined;',
  request: 'declare const request: Request;',
  body: 'declare const body: unknown;',
  warn: 'declare function warn(...args: unknown[]): Promise<void>;',
  notify: 'declare function notify(...args: unknown[]): Promise<void>;',
  notifyCustomer: "declare function notifyCustomer(event: import('delivery-sdk/webhooks').WebhookEvent): void;",
  markPaid: 'declare function markPaid(...args: unknown[]): Promise<void>;',
  recordPayment: 'declare function recordPayment(...args: unknown[]): Promise<void>;',
  lowerTheCod: 'declare function lowerTheCod(issues: readonly SDK.ValidationIssue[]): void;',
  FulfillmentSendOrder: 'type FulfillmentSendOrder = SDK.FulfillmentSendOrder;',
  // A list of orders to upload, and the app's own store of them: snippets use the name for both.
  orders: [
    'declare const orders: SDK.OrderInput[] & {',
    '  markDelivered(reference: string | undefined, cod: number | undefined): Promise<void>;',
    '  flag(reference: string | undefined, reason: string): Promise<void>;',
    '  update(trackingNumber: string, state: number): Promise<void>;',
    '  setState(trackingNumber: string, state: number): Promise<void>;',
    '};',
  ].join('\n'),
};

function declarationFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return declarationFiles(path);
    return entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every `@example` of the TSDoc comments of a declaration file: its fenced code, or its text when unfenced. */
function examplesIn(file: string, text: string): DeclarationExample[] {
  const out: DeclarationExample[] = [];
  for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const lines = comment[0].split('\n').map((line) => line.replace(/^\s*\/?\*+\/?\s?/, '').replace(/\s*\*\/$/, ''));
    const firstLine = text.slice(0, comment.index).split('\n').length;
    lines.forEach((line, i) => {
      if (!line.trimStart().startsWith('@example')) return;
      const body: string[] = [];
      for (const next of lines.slice(i + 1)) {
        if (next.trimStart().startsWith('@')) break;
        body.push(next);
      }
      const joined = body.join('\n');
      const fenced = /```(?:ts|typescript)?\n([\s\S]*?)```/.exec(joined);
      out.push({ file: relative(root, file), line: firstLine + i, code: fenced?.[1] ?? joined });
    });
  }
  return out;
}

const built = existsSync(join(DIST, 'index.d.ts'));
const examples = built ? declarationFiles(DIST).flatMap((file) => examplesIn(file, readFileSync(file, 'utf8'))) : [];
const fileOf = (example: { file: string; line: number }): string => `${root}test/docs/${example.file.replace(/\W/g, '-')}-line-${example.line}.ts`;
let diagnostics: Map<string, string[]>;

beforeAll(() => {
  const modules = new Map(examples.map((example) => [fileOf(example), asModule(example.code, { given: GIVEN, wrapped: true })]));
  diagnostics = typeCheck(new Map([...modules, [`${root}test/docs/ambient.d.ts`, AMBIENT]]));
}, 120_000);

describe('The @examples of the shipped declarations (dist/**/*.d.ts)', () => {
  it('are found, after a build: the client, resources, errors, catalogues, webhooks and the sandbox', () => {
    expect(built, 'dist/ is missing: run `npm run build` first').toBe(true);
    const files = new Set(examples.map((example) => example.file));
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

  it.each(examples.map((example) => [`${example.file}:${example.line}`, example]))('the example at %s compiles against the SDK as it is', (_, example) => {
    expect(diagnostics.get(fileOf(example))).toEqual([]);
  });
});
