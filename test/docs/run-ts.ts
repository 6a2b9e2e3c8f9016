// Runs a TypeScript block of the docs as written, after the examples' prelude: types stripped
// (TypeScript's transpiler), `import`s served from the sources, the block in a function of its own
// that sees only the variables the prelude makes (never the prelude's imports: a block that uses a
// name without importing it fails, as it would pasted), in a folder of its own
// (a block may write labels.pdf), with console output kept aside. A block written as a test file
// (`it`, `beforeEach`, ... from vitest) has its tests run, hooks included, one after another. What
// the block and the prelude leave open (a sandbox, an msw server, a Fastify app) is closed after it.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import * as vitest from 'vitest';
import { type Block, setsUpMsw, where } from './blocks.js';
import { givenNames } from './examples-check.js';
import { topLevelNames } from './names.js';

/** What a block may import, from the sources (as vitest.config.ts's aliases do) or this repository's node_modules. */
const MODULES: Record<string, () => Promise<unknown>> = {
  'delivery-sdk': () => import('../../src/index.js'),
  'delivery-sdk/functions': () => import('../../src/functions/index.js'),
  'delivery-sdk/validation': () => import('../../src/validation.js'),
  'delivery-sdk/webhooks': () => import('../../src/webhooks/index.js'),
  'delivery-sdk/webhooks/node': () => import('../../src/webhooks/node.js'),
  'delivery-sdk/webhooks/redis': () => import('../../src/webhooks/redis.js'),
  'delivery-sdk/testing': () => import('../../src/testing/index.js'),
  'delivery-sdk/testing/msw': () => import('../../src/testing/msw.js'),
  'delivery-sdk/opentelemetry': () => import('../../src/telemetry/index.js'),
  'delivery-sdk/mcp': () => import('../../src/mcp/index.js'),
  '@modelcontextprotocol/sdk/client/index.js': () => import('@modelcontextprotocol/sdk/client/index.js'),
  '@modelcontextprotocol/sdk/inMemory.js': () => import('@modelcontextprotocol/sdk/inMemory.js'),
  'msw/node': () => import('msw/node'),
  msw: () => import('msw'),
  fastify: () => import('fastify'),
  'node:fs/promises': () => import('node:fs/promises'),
  'node:http': () => import('node:http'),
  'playwright-core': () => import('playwright-core'),
};

/** A block's statements as JavaScript for an async function body: types gone, each `import` an `await` of the module. */
function javascriptOf(code: string): string {
  const source = code
    .split('\n')
    .map((line) => line.replace(/^export (?!\{)/, ''))
    .join('\n');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
  });
  const file = ts.createSourceFile('block.js', outputText, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  let out = '';
  let at = 0;
  for (const statement of file.statements) {
    const replacement = ts.isImportDeclaration(statement)
      ? importAsAwait(statement)
      : ts.isExportDeclaration(statement) &&
          statement.exportClause !== undefined &&
          ts.isNamedExports(statement.exportClause) &&
          statement.exportClause.elements.length === 0
        ? '' // `export {};`
        : undefined;
    if (replacement === undefined) continue;
    out += outputText.slice(at, statement.getStart()) + replacement;
    at = statement.getEnd();
  }
  return out + outputText.slice(at);
}

function importAsAwait(statement: ts.ImportDeclaration): string {
  const from = JSON.stringify((statement.moduleSpecifier as ts.StringLiteral).text);
  const clause = statement.importClause;
  if (clause === undefined) return `await __import(${from});`;
  const names: string[] = [];
  if (clause.name !== undefined) names.push(`default: ${clause.name.text}`);
  const bindings = clause.namedBindings;
  if (bindings !== undefined && ts.isNamespaceImport(bindings)) return `const ${bindings.name.text} = await __import(${from});`;
  for (const element of bindings?.elements ?? [])
    names.push(element.propertyName === undefined ? element.name.text : `${element.propertyName.text}: ${element.name.text}`);
  return `const { ${names.join(', ')} } = await __import(${from});`;
}

type Hook = () => unknown;

/** `vitest` as a block sees it: `it` and the hooks are collected, then run by `run()`; `expect` and `vi` are vitest's. */
function testFile() {
  const tests: Array<{ name: string; fn: Hook }> = [];
  const hooks = { beforeAll: [] as Hook[], afterAll: [] as Hook[], beforeEach: [] as Hook[], afterEach: [] as Hook[] };
  const it = (name: string, fn: Hook): void => {
    tests.push({ name, fn });
  };
  const module = {
    expect: vitest.expect,
    vi: vitest.vi,
    it,
    test: it,
    describe: (_name: string, fn: () => void) => fn(),
    beforeAll: (fn: Hook) => hooks.beforeAll.push(fn),
    afterAll: (fn: Hook) => hooks.afterAll.push(fn),
    beforeEach: (fn: Hook) => hooks.beforeEach.push(fn),
    afterEach: (fn: Hook) => hooks.afterEach.push(fn),
  };
  const run = async (): Promise<string[]> => {
    try {
      for (const hook of hooks.beforeAll) await hook();
      for (const test of tests) {
        try {
          for (const hook of hooks.beforeEach) await hook();
          await test.fn();
        } catch (error) {
          throw new Error(`its test '${test.name}' failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        } finally {
          for (const hook of hooks.afterEach) await hook();
        }
      }
    } finally {
      for (const hook of hooks.afterAll) await hook();
    }
    return tests.map((test) => test.name);
  };
  return { module, run };
}

/** Closes what a block left open: anything with `close()` (a sandbox, a server, an app) or `disconnect()`. */
async function closeAll(values: readonly unknown[]): Promise<void> {
  const failures: unknown[] = [];
  for (const value of [...values].reverse()) {
    if (typeof value !== 'object' || value === null) continue;
    const thing = value as { close?: unknown; disconnect?: unknown };
    try {
      if (typeof thing.close === 'function') await thing.close();
      else if (typeof thing.disconnect === 'function') await thing.disconnect();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, 'closing what the block left open failed');
}

export interface TsRun {
  /** What the block printed (console.log, info, warn, error, debug), one entry per call. */
  printed: string[];
  /** The files it wrote in its folder. */
  files: string[];
  /** The tests it declared, run in order. */
  tests: string[];
  /** Its top-level names, with their values at its end. */
  values: Record<string, unknown>;
  /** The prelude's, which it ran after. */
  given: Record<string, unknown>;
}

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...names: string[]) => (...values: unknown[]) => Promise<void>;
const CONSOLE = ['log', 'info', 'warn', 'error', 'debug'] as const;

/** Runs `block` as written, after `prelude` (unless the block sets msw up itself), and closes what both left open. */
export async function runTs(block: Block, prelude: Block): Promise<TsRun> {
  const withPrelude = !setsUpMsw(block) && block !== prelude;
  const blockNames = topLevelNames(block.code);
  // The prelude's own variables, never its imports: what the block takes as given is passed to it by name.
  const preludeNames = withPrelude ? topLevelNames(prelude.code, { imports: false }) : [];
  const given = withPrelude ? givenNames(block.code) : [];
  const preludeBody = `${javascriptOf(prelude.code)}\n__prelude({ ${preludeNames.join(', ')} });`;
  const blockBody = `${javascriptOf(block.code)}\n__block({ ${blockNames.join(', ')} });`;
  const file = testFile();
  const imports = (name: string): Promise<unknown> =>
    name === 'vitest'
      ? Promise.resolve(file.module)
      : (MODULES[name]?.() ?? Promise.reject(new Error(`${where(block)} imports '${name}', which the docs' tests do not serve`)));
  const printed: string[] = [];
  const spies = CONSOLE.map((method) =>
    vitest.vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' '))),
  );
  const env = { ...process.env };
  const cwd = process.cwd();
  const folder = mkdtempSync(join(tmpdir(), 'delivery-sdk-doc-block-'));
  let preludeValues: Record<string, unknown> = {};
  let values: Record<string, unknown> = {};
  try {
    process.chdir(folder);
    try {
      if (withPrelude)
        await new AsyncFunction('__import', '__prelude', preludeBody)(imports, (made: Record<string, unknown>) => {
          preludeValues = made;
        });
      await new AsyncFunction('__import', '__block', ...given, blockBody)(
        imports,
        (own: Record<string, unknown>) => {
          values = own;
        },
        ...given.map((name) => preludeValues[name]),
      );
      const tests = await file.run();
      return { printed, files: readdirSync(folder).sort(), tests, values, given: preludeValues };
    } finally {
      await closeAll([...Object.values(preludeValues), ...Object.values(values)]);
    }
  } catch (error) {
    throw new Error(`${where(block)} failed: ${error instanceof Error ? error.message : String(error)}\nIt printed:\n${printed.join('\n')}`, { cause: error });
  } finally {
    process.chdir(cwd);
    for (const spy of spies) spy.mockRestore();
    for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
    Object.assign(process.env, env);
    rmSync(folder, { recursive: true, force: true });
  }
}
