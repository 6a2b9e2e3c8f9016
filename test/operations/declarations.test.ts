// Each operation is declared once, beside its code (src/functions/): the namespaces, the
// functions entry, the client's namespace properties and docs/endpoints.md are written from the
// declarations by scripts/operations.ts, and every route they declare must be one the sandbox
// answers, so a test suite run against it covers every method.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { readOperations, renderAll, staleFiles } from '../../scripts/operations.js';
import * as functions from '../../src/functions/index.js';
import { NAMESPACES } from '../../src/functions/namespaces.js';
import { createSandbox } from '../../src/testing/index.js';

const operations = readOperations();

describe('the operations, declared once', () => {
  it('render exactly the generated files (run `npm run generate` after changing a declaration)', () => {
    expect(staleFiles(renderAll(operations))).toEqual([]);
  });

  it('are every function of delivery-sdk/functions that takes a core, and each namespace has some', () => {
    const declared = operations.map((operation) => operation.fn).sort();
    const exported = Object.entries(functions)
      .filter(([name, value]) => typeof value === 'function' && name !== 'DeliveryCore')
      .map(([name]) => name)
      .sort();
    expect(declared).toEqual(exported);
    for (const namespace of Object.keys(NAMESPACES))
      expect(
        operations.some((operation) => operation.namespace === namespace),
        namespace,
      ).toBe(true);
  });

  it('name each method once, and a helper calls only declared operations or routes', () => {
    const names = operations.map((operation) => `${operation.namespace}.${operation.method}`);
    expect(new Set(names).size).toBe(names.length);
    for (const operation of operations) {
      if (operation.kind === 'endpoint') expect(operation.route, operation.fn).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \//);
      for (const called of operation.calls)
        expect(names.includes(called) || /^(GET|POST|PUT|PATCH|DELETE) \//.test(called), `${operation.fn} calls ${called}`).toBe(true);
    }
  });

  it('list every route they send in docs/endpoints.md, one row per method', () => {
    const page = readFileSync(new URL('../../docs/endpoints.md', import.meta.url), 'utf8');
    for (const operation of operations) {
      const row = page.split('\n').find((line) => line.startsWith(`| \`${operation.namespace}.${operation.method}(`));
      expect(row, `${operation.namespace}.${operation.method}`).toBeDefined();
      expect(row).toContain(`\`${operation.fn}\``);
      if (operation.route !== undefined) expect(row).toContain(operation.route);
    }
  });

  it('send only routes the sandbox answers', async () => {
    const sandbox = createSandbox();
    const routes = new Set(operations.flatMap((operation) => [operation.route ?? [], operation.calls.filter((called) => called.includes(' /'))].flat()));
    expect(routes.size).toBeGreaterThan(30);
    for (const route of routes) {
      const [method, target] = route.split(' ') as [string, string];
      const url = `${sandbox.baseUrl}${target.replace(/\{\w+\}/g, 'x1')}`;
      const body = method === 'GET' || method === 'DELETE' ? null : '{}';
      const response = await sandbox.fetch(new Request(url, { method, body, headers: { authorization: sandbox.apiKey, 'content-type': 'application/json' } }));
      const answer = await response.text();
      // The sandbox's router answers a route it does not know with `Not Found: <method> <path>`.
      expect(answer, route).not.toContain(`Not Found: ${method} `);
    }
  });
});

describe("the namespaces' hover, as an editor shows it", () => {
  // A program over the SDK's sources, and one file that uses the client the way a merchant does.
  const file = `${process.cwd()}/test/.tmp/hover-probe.ts`;
  const probe = [
    "import { DeliveryClient } from '../../src/index.js';",
    "import { createDelivery } from '../../src/functions/index.js';",
    'declare const client: DeliveryClient;',
    ...Object.keys(NAMESPACES).map((namespace) => `client.${namespace};`),
    'client.deliveries.create;',
    'createDelivery;',
  ].join('\n');
  const service = ts.createLanguageService({
    getScriptFileNames: () => [file],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => ts.ScriptSnapshot.fromString(name === file ? probe : (ts.sys.readFile(name) ?? '')),
    getCurrentDirectory: () => process.cwd(),
    getCompilationSettings: () => ({
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      target: ts.ScriptTarget.ES2022,
    }),
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: (name) => name === file || ts.sys.fileExists(name),
    readFile: (name) => (name === file ? probe : ts.sys.readFile(name)),
  });
  const hoverOf = (expression: string): string => {
    const at = probe.lastIndexOf(`${expression};`) + expression.length - 1;
    const info = service.getQuickInfoAtPosition(file, at);
    return [ts.displayPartsToString(info?.documentation), ...(info?.tags ?? []).map((tag) => `@${tag.name} ${ts.displayPartsToString(tag.text)}`)].join('\n');
  };

  it.each(Object.keys(NAMESPACES))('client.%s names every method it has', (namespace) => {
    const hover = hoverOf(`client.${namespace}`);
    expect(hover).toContain(NAMESPACES[namespace as keyof typeof NAMESPACES]);
    for (const operation of operations.filter((candidate) => candidate.namespace === namespace)) expect(hover).toContain(`\`${operation.method}\``);
  });

  it('shows an operation documented once on both the method and its function: the same words and example', () => {
    const method = hoverOf('client.deliveries.create');
    const fn = hoverOf('createDelivery');
    expect(method).toContain('@example');
    expect(method).toContain('client.deliveries.create({');
    expect(fn).toContain(method.split('\n')[0] as string);
    expect(fn).toContain('client.deliveries.create({');
  });
});
