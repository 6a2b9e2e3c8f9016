// Type-checking the TypeScript examples users copy (README.md, docs/*.md, the `@example`s of the
// shipped declarations) against the sources, with the project's strict options, all in one program
// (exampleDiagnostics), by examples.test.ts. A block of a page is a module of its own, as it would be
// pasted: it imports every name of a package it uses (a missing import fails), and takes as given
// only the variables the examples' prelude makes (`client`, `receiver`, `orders`, ...), typed as the
// prelude makes them. A hover snippet is a piece of a program: the names it uses are supplied.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import * as functions from '../../src/functions/index.js';
import * as sdk from '../../src/index.js';
import * as telemetry from '../../src/telemetry/index.js';
import * as testing from '../../src/testing/index.js';
import * as validation from '../../src/validation.js';
import * as webhooks from '../../src/webhooks/index.js';
import { isPrelude, setsUpMsw } from './blocks.js';
import { freeNames, topLevelNames } from './names.js';
import { type Example, examplesOf, PAGES, root } from './pages.js';

/** What a hover snippet may use without declaring it, and its type. */
export const GIVEN: Record<string, string> = {
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
  pickup: 'declare const pickup: SDK.PickupInput;',
  core: "declare const core: import('delivery-sdk/functions').DeliveryCore;",
  onRequest: "declare const onRequest: NonNullable<SDK.ClientHooks['onRequest']>;",
  onResponse: "declare const onResponse: NonNullable<SDK.ClientHooks['onResponse']>;",
  onRetry: "declare const onRetry: NonNullable<SDK.ClientHooks['onRetry']>;",
  onError: "declare const onError: NonNullable<SDK.ClientHooks['onError']>;",
  sandbox: "declare const sandbox: import('delivery-sdk/testing').Sandbox;",
  it: "declare const it: typeof import('vitest').it;",
  expect: "declare const expect: typeof import('vitest').expect;",
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

/** Packages an example may import that the project does not install: only what the examples use of them (as their own types declare it). */
export const AMBIENT = `declare module 'express' {
  interface App { post(path: string, ...handlers: unknown[]): void; use(...handlers: unknown[]): void; listen(port: number): void }
  function express(): App;
  namespace express { function json(): unknown }
  export default express;
}
declare module '@opentelemetry/sdk-node' {
  export const NodeSDK: new (configuration?: {
    serviceName?: string;
    traceExporter?: import('@opentelemetry/sdk-trace-base').SpanExporter;
    metricReaders?: import('@opentelemetry/sdk-metrics').IMetricReader[];
  }) => { start(): void; shutdown(): Promise<void> };
}
declare module '@opentelemetry/exporter-metrics-otlp-http' {
  export const OTLPMetricExporter: new (config?: { url?: string; headers?: Record<string, string> }) => import('@opentelemetry/sdk-metrics').PushMetricExporter;
}`;

const word = (name: string): RegExp => new RegExp(`(?<![\\w.$])${name}(?![\\w$])`);

/** The entries an example may use names of without importing them, in the order they are looked up. */
const ENTRIES: [string, Record<string, unknown>][] = [
  ['delivery-sdk', sdk],
  ['delivery-sdk/functions', functions],
  ['delivery-sdk/validation', validation],
  ['delivery-sdk/webhooks', webhooks],
  ['delivery-sdk/testing', testing],
  ['delivery-sdk/opentelemetry', telemetry],
];

/** Whether `code` declares `name` itself, at its top level: a variable (destructured too), a function, a class or an import. */
const declares = (code: string, name: string): boolean => topLevelNames(code, { types: true }).includes(name);

/**
 * The import lines of the public names `code` uses without importing them (`DeliveryType`,
 * `isDeliveryError`, ...), each from the first entry that exports it: a block on a page leaves
 * them out, as the page's prose names where they come from.
 */
export function importsFor(code: string): string[] {
  const taken = new Set<string>();
  return ENTRIES.flatMap(([entry, exports]) => {
    const used = Object.keys(exports).filter((name) => !taken.has(name) && word(name).test(code) && !declares(code, name));
    for (const name of used) taken.add(name);
    return used.length > 0 ? [`import { ${used.join(', ')} } from '${entry}';`] : [];
  });
}

/**
 * The example as a module: the public names it uses imported (unless it imports them), the given
 * variables declared (`given` adds to or overrides {@link GIVEN}). `wrapped`: its statements in an
 * async function, as a hover snippet is a piece of one (it may `return`, or shadow a given name).
 */
export function asModule(code: string, { given: extra = {}, wrapped = false }: { given?: Record<string, string>; wrapped?: boolean } = {}): string {
  const given = Object.entries({ ...GIVEN, ...extra }).filter(([name]) => word(name).test(code) && !declares(code, name));
  const lines = code.split('\n');
  const own = lines.filter((line) => /^import\s/.test(line));
  const statements = lines.filter((line) => !/^import\s/.test(line)).map((line) => line.replace(/^export /, ''));
  const body = wrapped ? ['export async function example() {', ...statements, '}'] : [code];
  return [
    "import type * as SDK from 'delivery-sdk';",
    ...(wrapped ? own : []),
    ...importsFor(code),
    ...given.map(([, declaration]) => declaration),
    'export {};',
    ...body,
  ].join('\n');
}

/** Type-checks in-memory modules against the sources with tsconfig.json; the diagnostics of each. */
export function typeCheck(modules: Map<string, string>): Map<string, string[]> {
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

/** What hover snippets take as given besides README's: the event, error or order at hand, and the app's own functions. */
export const HOVER_GIVEN: Record<string, string> = {
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

interface DeclarationExample {
  file: string;
  line: number;
  code: string;
}

function declarationFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return declarationFiles(path);
    return entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every `@example` of the TSDoc comments of a declaration file: its fenced code, or its text when unfenced. */
export function examplesIn(file: string, text: string): DeclarationExample[] {
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

const DIST = join(root, 'dist');

/** Whether dist/ holds a build: the declarations' examples are read from it. */
export const BUILT = existsSync(join(DIST, 'index.d.ts'));

/** Every ```ts block of README.md and docs/. */
export const PAGE_EXAMPLES: Example[] = PAGES.flatMap((page) => examplesOf(page));

/** The examples' prelude (docs/sandbox.md), which makes what the other blocks take as given. */
export const PRELUDE: Example | undefined = PAGE_EXAMPLES.find((example) => isPrelude({ ...example, lang: 'ts' }));

/** The names the prelude makes (its imports are its own, never a block's). */
export const PRELUDE_NAMES: readonly string[] = PRELUDE === undefined ? [] : topLevelNames(PRELUDE.code, { imports: false });

/** The prelude's names `code` uses without declaring them: what it takes as given (none for a block that sets msw up itself). */
export function givenNames(code: string): string[] {
  if (setsUpMsw({ page: '', line: 0, lang: 'ts', code })) return [];
  const own = new Set(topLevelNames(code, { types: true }));
  return freeNames(code).filter((name) => PRELUDE_NAMES.includes(name) && !own.has(name));
}

/**
 * A block of a page as the module it would be pasted into: its own imports, the prelude's names it
 * takes imported from the prelude's module, nothing else. The prelude exports what it makes.
 */
function pageModule(example: Example): string {
  if (example === PRELUDE) return `${example.code}\nexport { ${PRELUDE_NAMES.join(', ')} };`;
  const given = PRELUDE === undefined ? [] : givenNames(example.code);
  const from = `./${moduleOf(PRELUDE ?? example)
    .split('/')
    .at(-1)
    ?.replace(/\.ts$/, '.js')}`;
  return [...(given.length === 0 ? [] : [`import { ${given.join(', ')} } from '${from}';`]), 'export {};', example.code].join('\n');
}
/** A known-wrong example, so a checker that reports nothing would be caught. */
export const BROKEN: Example = { page: 'broken', line: 0, code: "const zones = await client.lookup.zones({ cityId: 'x' });\nzones[0].name;" };
/** A known-wrong block of a page: a name of the package used without its import, as pasted it does not compile. */
export const UNIMPORTED: Example = { page: 'unimported', line: 0, code: 'const type = DeliveryType.Deliver;\nconsole.log(type, client.baseUrl);' };
/** Every `@example` of the built declarations (dist/**\/*.d.ts). */
export const DECLARATION_EXAMPLES: DeclarationExample[] = BUILT ? declarationFiles(DIST).flatMap((file) => examplesIn(file, readFileSync(file, 'utf8'))) : [];

/** The module file an example is checked as. */
export const moduleOf = (example: Example | DeclarationExample): string =>
  `${root}test/docs/${('page' in example ? example.page : example.file).replace(/\W/g, '-')}-line-${example.line}.ts`;

/** The diagnostics of every example (by {@link moduleOf}), README's, docs/' and the declarations', from one program. */
export function exampleDiagnostics(): Map<string, string[]> {
  return typeCheck(
    new Map([
      ...[...PAGE_EXAMPLES, BROKEN, UNIMPORTED].map((example) => [moduleOf(example), pageModule(example)] as const),
      ...DECLARATION_EXAMPLES.map((example) => [moduleOf(example), asModule(example.code, { given: HOVER_GIVEN, wrapped: true })] as const),
      [`${root}test/docs/ambient.d.ts`, AMBIENT],
    ]),
  );
}
