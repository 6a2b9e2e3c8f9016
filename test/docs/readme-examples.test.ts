// README's TypeScript examples of the client (Quick start to Order rules) are what users copy
// first: each is type-checked here against the sources, with the project's strict options, so
// a signature change breaks this test rather than the reader's build. Variables an example
// takes as given (`client`, `receiver`, `orders`, ...) are declared with the SDK's own types.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../src/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

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
  lookUpBeforeResending: 'declare function lookUpBeforeResending(order: SDK.OrderInput | undefined): Promise<void>;',
  onRequest: "declare const onRequest: NonNullable<SDK.ClientHooks['onRequest']>;",
  onResponse: "declare const onResponse: NonNullable<SDK.ClientHooks['onResponse']>;",
  onRetry: "declare const onRetry: NonNullable<SDK.ClientHooks['onRetry']>;",
  onError: "declare const onError: NonNullable<SDK.ClientHooks['onError']>;",
};

interface Example {
  line: number;
  code: string;
}

/** The ```ts blocks between two headings, with the README line each starts on. */
function examplesBetween(from: string, to: string): Example[] {
  const start = readme.indexOf(from);
  const end = readme.indexOf(to, start);
  const out: Example[] = [];
  for (const match of readme.slice(start, end).matchAll(/```ts\n([\s\S]*?)```/g)) {
    out.push({ line: readme.slice(0, start + (match.index ?? 0)).split('\n').length, code: match[1] ?? '' });
  }
  return out;
}

const word = (name: string): RegExp => new RegExp(`(?<![\\w.$])${name}(?![\\w$])`);

/** The example as a module: the public names it uses imported (unless it imports them), the given variables declared. */
function asModule(code: string): string {
  const declares = (name: string): boolean => new RegExp(`(?:const|let|function)\\s+${name}\\b|import[^;]*\\b${name}\\b[^;]*from`).test(code);
  const used = Object.keys(sdk).filter((name) => word(name).test(code) && !declares(name));
  const given = Object.entries(GIVEN).filter(([name]) => word(name).test(code) && !declares(name));
  return [
    "import type * as SDK from 'delivery-sdk';",
    used.length > 0 ? `import { ${used.join(', ')} } from 'delivery-sdk';` : '',
    ...given.map(([, declaration]) => declaration),
    'export {};',
    code,
  ].join('\n');
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

const examples = examplesBetween('## Quick start', '## Retries and timeouts');
const fileOf = (line: number): string => `${root}test/docs/readme-line-${line}.ts`;
// A known-wrong example, so a checker that reports nothing would be caught.
const BROKEN = { line: 0, code: "const zones = await client.lookup.zones({ cityId: 'x' });\nzones[0].name;" };
let diagnostics: Map<string, string[]>;

beforeAll(() => {
  diagnostics = typeCheck(new Map([...examples, BROKEN].map((example) => [fileOf(example.line), asModule(example.code)])));
}, 60_000);

describe("README's examples of the client", () => {
  it('are found: Quick start, options, every namespace, the order rules', () => {
    const code = examples.map((example) => example.code).join('\n');
    for (const call of ['client.lookup.', 'client.users.', 'client.businesses.', 'client.deliveries.', 'client.fulfillment.', 'validateOrder(']) expect(code).toContain(call);
  });

  it('are really type-checked: a wrong argument and an unchecked index are reported', () => {
    const found = diagnostics.get(fileOf(BROKEN.line)) ?? [];
    expect(found.join('\n')).toMatch(/not assignable to parameter of type 'string'/);
    expect(found.join('\n')).toMatch(/possibly 'undefined'/);
  });

  it.each(examples.map((example) => [example.line, example]))('the block at README line %i compiles against the SDK as it is', (_, example) => {
    expect(diagnostics.get(fileOf(example.line))).toEqual([]);
  });
});
