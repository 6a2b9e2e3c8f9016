// The TypeScript examples of README.md and docs/*.md are what users copy first: each ```ts block
// is type-checked here against the sources, with the project's strict options, so a signature
// change breaks this test rather than the reader's build. Variables an example takes as given
// (`client`, `receiver`, `orders`, ...) are declared with the SDK's own types.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../src/index.js';
import * as webhooks from '../../src/webhooks/index.js';
import * as testing from '../../src/testing/index.js';
import { examplesOf, PAGES, root } from './pages.js';

/** What an example may use without declaring it, and its type. */
const GIVEN: Record<string, string> = {
  client: 'declare const client: SDK.DeliveryClient;',
  districtId: 'declare const districtId: string;',
  dropOffAddress: 'declare const dropOffAddress: SDK.OrderAddress;',
  pickupAddress: 'declare const pickupAddress: SDK.PickupAddress;',
  customerAddress: 'declare const customerAddress: SDK.PickupAddress;',
  receiver: 'declare const receiver: SDK.Contact;',
  orders: 'declare const orders: SDK.OrderInput[];',
  bulky: 'declare const bulky: SDK.FulfillmentSendOrder[];',
  tokenFromTheLink: 'declare const tokenFromTheLink: string;',
  save: 'declare function save(created: readonly SDK.BulkCreatedDelivery[]): Promise<void>;',
  locationId: 'declare const locationId: string;',
  pickupId: 'declare const pickupId: string;',
  onRequest: "declare const onRequest: NonNullable<SDK.ClientHooks['onRequest']>;",
  onResponse: "declare const onResponse: NonNullable<SDK.ClientHooks['onResponse']>;",
  onRetry: "declare const onRetry: NonNullable<SDK.ClientHooks['onRetry']>;",
  onError: "declare const onError: NonNullable<SDK.ClientHooks['onError']>;",
  sandbox: "declare const sandbox: import('delivery-sdk/testing').Sandbox;",
  trackingNumber: 'declare const trackingNumber: string;',
  url: 'declare const url: string;',
  onEvent: "declare const onEvent: (event: import('delivery-sdk/webhooks').WebhookEvent) => void;",
  log: 'declare const log: Pick<Console, "info" | "warn">;',
  shopOrders: [
    'declare const shopOrders: {',
    '  markPaid(reference: string | undefined, cod: number): Promise<void>;',
    '  flag(reference: string | undefined, reason: string): Promise<void>;',
    '  setState(trackingNumber: string, state: number, type: string | undefined): Promise<void>;',
    '};',
  ].join('\n'),
};

/** Packages an example may import that the project does not install: only what the examples use of them. */
const AMBIENT = `declare module 'express' {
  interface App { post(path: string, ...handlers: unknown[]): void; listen(port: number): void }
  export default function express(): App;
}`;

const word = (name: string): RegExp => new RegExp(`(?<![\\w.$])${name}(?![\\w$])`);

/** The entries an example may use names of without importing them, in the order they are looked up. */
const ENTRIES: [string, Record<string, unknown>][] = [
  ['delivery-sdk', sdk],
  ['delivery-sdk/webhooks', webhooks],
  ['delivery-sdk/testing', testing],
];

/** The example as a module: the public names it uses imported (unless it imports them), the given variables declared. */
function asModule(code: string): string {
  const declares = (name: string): boolean => new RegExp(`(?:const|let|function)\\s+${name}\\b|import[^;]*\\b${name}\\b[^;]*from`).test(code);
  const taken = new Set<string>();
  const imports = ENTRIES.map(([entry, exports]) => {
    const used = Object.keys(exports).filter((name) => !taken.has(name) && word(name).test(code) && !declares(name));
    for (const name of used) taken.add(name);
    return used.length > 0 ? `import { ${used.join(', ')} } from '${entry}';` : '';
  });
  const given = Object.entries(GIVEN).filter(([name]) => word(name).test(code) && !declares(name));
  return ["import type * as SDK from 'delivery-sdk';", ...imports, ...given.map(([, declaration]) => declaration), 'export {};', code].join('\n');
}

/** Type-checks in-memory modules against the sources with tsconfig.json; the diagnostics of each. */
function typeCheck(modules: Map<string, string>): Map<string, string[]> {
  const { config } = ts.readConfigFile(`${root}tsconfig.json`, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  const host = ts.createCompilerHost({ ...options, noEmit: true });
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => modules.has(file) || fileExists.call(host, file);
  host.readFile = (file) => modules.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = modules.get(file);
    return text === undefined ? getSourceFile.call(host, file, language, ...rest) : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram({ rootNames: [...modules.keys()], options: { ...options, noEmit: true }, host });
  const out = new Map<string, string[]>();
  for (const file of modules.keys()) {
    const source = program.getSourceFile(file);
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    out.set(
      file,
      diagnostics.map((diagnostic) => {
        const { line } = diagnostic.start === undefined || source === undefined ? { line: -1 } : source.getLineAndCharacterOfPosition(diagnostic.start);
        const text = source?.text.split('\n')[line]?.trim() ?? '';
        return `${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')} in: ${text}`;
      }),
    );
  }
  return out;
}

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
    for (const call of ['client.lookup.', 'client.users.', 'client.businesses.', 'client.deliveries.', 'client.fulfillment.', 'validateOrder(', 'createWebhookHandler(', 'createSandbox(']) expect(code).toContain(call);
    for (const page of ['README.md', 'docs/orders.md', 'docs/sandbox.md', 'docs/webhooks.md']) expect(examples.some((example) => example.page === page), page).toBe(true);
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
