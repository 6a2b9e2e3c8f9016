// `npm run docs` builds the API reference with typedoc (typedoc.json: warnings are errors). This
// runs the same build into a temporary directory, once for the file, and checks what users get
// from it: no warning, every runtime export of every entry documented, examples on the main methods.
// Without typedoc's own type check of the project (--skipErrorChecking): that is `npm run
// typecheck`'s, over the same tsconfig.json, and it was half of typedoc's time.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const typedocBin = join(createRequire(import.meta.url).resolve('typedoc/package.json'), '..', 'bin', 'typedoc');

/** The subset of typedoc's JSON output these checks read. */
interface Comment {
  summary: Array<{ text: string }>;
  blockTags?: Array<{ tag: string; content: Array<{ text: string }> }>;
}
interface Reflection {
  id: number;
  name: string;
  kind: number;
  /** Set on a reference: an entry re-exporting what another entry documents. */
  target?: number;
  comment?: Comment;
  signatures?: Array<{ comment?: Comment }>;
  getSignature?: { comment?: Comment };
  children?: Reflection[];
}

const ENTRIES = {
  'delivery-sdk': () => import('delivery-sdk'),
  'delivery-sdk/functions': () => import('delivery-sdk/functions'),
  'delivery-sdk/validation': () => import('delivery-sdk/validation'),
  'delivery-sdk/webhooks': () => import('delivery-sdk/webhooks'),
  'delivery-sdk/webhooks/node': () => import('delivery-sdk/webhooks/node'),
  'delivery-sdk/webhooks/redis': () => import('delivery-sdk/webhooks/redis'),
  'delivery-sdk/testing': () => import('delivery-sdk/testing'),
  'delivery-sdk/testing/msw': () => import('delivery-sdk/testing/msw'),
  'delivery-sdk/opentelemetry': () => import('delivery-sdk/opentelemetry'),
  'delivery-sdk/mcp': () => import('delivery-sdk/mcp'),
} as const;

let outDir: string;
let run: { code: number; output: string };
let modules: Map<string, Reflection>;
const byId = new Map<number, Reflection>();

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'delivery-sdk-docs-'));
  run = await new Promise((resolve) => {
    execFile(
      process.execPath,
      [typedocBin, '--out', join(outDir, 'html'), '--json', join(outDir, 'api.json'), '--skipErrorChecking'],
      { cwd: root, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`.replace(/\u001b\[[0-9;]*m/g, '');
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, output });
      },
    );
  });
  const project = run.code === 0 ? (JSON.parse(await readFile(join(outDir, 'api.json'), 'utf8')) as Reflection) : { id: 0, name: '', kind: 0 };
  modules = new Map((project.children ?? []).map((module) => [module.name, module]));
  const index = (reflection: Reflection): void => {
    byId.set(reflection.id, reflection);
    reflection.children?.forEach(index);
  };
  index(project);
}, 180_000);

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

/** The user-facing text of a reflection: its own comment, or its first signature's (functions, methods). */
function commentOf(reflection: Reflection): Comment | undefined {
  const target = reflection.target === undefined ? undefined : byId.get(reflection.target);
  if (target !== undefined) return commentOf(target);
  return reflection.comment ?? reflection.signatures?.[0]?.comment ?? reflection.getSignature?.comment;
}

const summaryOf = (reflection: Reflection): string =>
  (commentOf(reflection)?.summary ?? [])
    .map((part) => part.text)
    .join('')
    .trim();

function member(moduleName: string, ...path: string[]): Reflection | undefined {
  let found = modules.get(moduleName);
  for (const name of path) found = found?.children?.find((child) => child.name === name);
  return found;
}

describe('npm run docs (typedoc)', () => {
  it('builds the reference with no warning and no error', async () => {
    const problems = run.output.split('\n').filter((line) => /\[(warning|error)\]/.test(line));
    expect(problems).toEqual([]);
    expect(run.code).toBe(0);
    expect((await stat(join(outDir, 'html', 'index.html'))).isFile()).toBe(true);
  });

  it('keeps the class of every @throws (typedoc drops a JSDoc `{Type}`: the sources name it in code)', () => {
    const throwsTags = [...byId.values()].flatMap((reflection) =>
      [reflection, ...(reflection.signatures ?? [])].flatMap((owner) => (owner.comment?.blockTags ?? []).filter((tag) => tag.tag === '@throws')),
    );
    expect(throwsTags.length).toBeGreaterThan(20);
    const classless = throwsTags.map((tag) => tag.content.map((part) => part.text).join('')).filter((text) => !/`[A-Z][A-Za-z]*Error`/.test(text));
    expect(classless).toEqual([]);
  });

  it('has one module per package entry, named as users import it', () => {
    expect([...modules.keys()].sort()).toEqual(Object.keys(ENTRIES).sort());
  });

  it.each(Object.keys(ENTRIES) as Array<keyof typeof ENTRIES>)('documents every runtime export of %s', async (entry) => {
    const exported = Object.keys(await ENTRIES[entry]()).sort();
    const documented = new Map((modules.get(entry)?.children ?? []).map((child) => [child.name, child]));
    expect(exported.length).toBeGreaterThan(0);
    expect(exported.filter((name) => !documented.has(name))).toEqual([]);
    expect(exported.filter((name) => summaryOf(documented.get(name)!) === '')).toEqual([]);
  });

  it.each([
    ['delivery-sdk', 'DeliveryClient', 'constructor'],
    ['delivery-sdk', 'LookupNamespace', 'cities'],
    ['delivery-sdk', 'LookupNamespace', 'resolveAddress'],
    ['delivery-sdk', 'UsersNamespace', 'registerBusinessAdmin'],
    ['delivery-sdk', 'UsersNamespace', 'verifyPhone'],
    ['delivery-sdk', 'UsersNamespace', 'confirmPhone'],
    ['delivery-sdk', 'UsersNamespace', 'confirmEmail'],
    ['delivery-sdk', 'BusinessesNamespace', 'create'],
    ['delivery-sdk', 'BusinessesNamespace', 'updatePickupLocations'],
    ['delivery-sdk', 'DeliveriesNamespace', 'create'],
    ['delivery-sdk', 'DeliveriesNamespace', 'createBulk'],
    ['delivery-sdk', 'FulfillmentNamespace', 'create'],
    ['delivery-sdk', 'FulfillmentNamespace', 'createReturn'],
    ['delivery-sdk', 'FulfillmentNamespace', 'createBulky'],
    ['delivery-sdk/webhooks', 'parseWebhookEvent'],
    ['delivery-sdk/webhooks', 'createWebhookHandler'],
    ['delivery-sdk/webhooks/node', 'createNodeWebhookHandler'],
    ['delivery-sdk/testing', 'createSandbox'],
    ['delivery-sdk/testing/msw', 'sandboxHandlers'],
    ['delivery-sdk/opentelemetry', 'openTelemetry'],
    ['delivery-sdk/mcp', 'createMcpServer'],
  ])('%s: %s %s has a description and an @example', (entry, ...path) => {
    const reflection = member(entry, ...path);
    expect(reflection, `${path.join('.')} is not in the reference`).toBeDefined();
    expect(summaryOf(reflection!)).not.toBe('');
    expect(commentOf(reflection!)?.blockTags?.map((tag) => tag.tag)).toContain('@example');
  });
});
