// The Node build (dist/node/, scripts/node-build.mjs): what `import` gives in Node, Deno and Bun
// through package.json's `node` condition. The same code as the ESM build in fewer files: a fresh
// process that creates one order loads two files of the SDK (and ky), where the ESM build loads 34.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_ORDER } from '../../bench/lib/bundle-size.mjs';
import { FIRST_CALL } from '../../scripts/node-build.mjs';
import { assertBuilt, packageEntries, ROOT } from './packed-package.js';

const PAGE_RUN = fileURLToPath(new URL('../../bench/lib/page-run.mjs', import.meta.url));
const NODE_BUILD = join(ROOT, 'dist/node');
const main = packageEntries().find((entry) => entry.subpath === '.');

/** The original sources of a file of the Node build, relative to the repository, from its source map. */
const sourcesOf = (file: string): string[] =>
  (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources.map((source) =>
    resolve(dirname(file), source).slice(ROOT.length).replaceAll('\\', '/'),
  );

let dir: string;
/** The Node build's files a fresh process loaded until its first create had answered, in load order. */
let loaded: string[];
let requests: string[];

beforeAll(async () => {
  assertBuilt();
  mkdirSync(join(ROOT, 'test/.tmp'), { recursive: true });
  dir = mkdtempSync(join(ROOT, 'test/.tmp/node-build-'));
  // A process that imports the main entry's Node build, builds a client and creates one order (answered in process).
  const script = join(dir, 'first-create.mjs');
  writeFileSync(
    script,
    `import { DeliveryClient } from ${JSON.stringify(join(ROOT, main?.node ?? ''))};
     const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: 'key' });
     export const created = client.deliveries.create(${JSON.stringify(PAGE_ORDER)});`,
  );
  // A server's process, without a document: the first request loads the User-Agent there.
  const input = JSON.stringify({ entry: script, outdir: NODE_BUILD, call: 'created', inDocument: false });
  const run = await new Promise<{ loaded: string[]; requests: string[] }>((done, fail) => {
    execFile(process.execPath, [PAGE_RUN, input], { encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) fail(new Error(`the first create did not answer: ${stderr.trim() || error.message}`));
      else done(JSON.parse(stdout) as { loaded: string[]; requests: string[] });
    });
  });
  ({ loaded, requests } = run);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the Node build, in a fresh process that creates one order', () => {
  it('is what the main entry gives under the node condition, beside the files of the ESM build', () => {
    expect(main?.node).toBe(`dist/node/${main?.esm.replace(/^dist\//, '')}`);
  });

  it('answers the create', () => {
    expect(requests).toEqual(['POST /v2/deliveries']);
  });

  it('loads two files of the SDK, the entry and its code with the first create’s, the code that sends and the User-Agent, and ky with the first request', () => {
    expect(loaded.map((file) => basename(file).replace(/-[\w-]{8}\.js$/, '-<hash>.js'))).toEqual(['index.js', 'sdk-<hash>.js']);
    const [, merged = ''] = loaded;
    expect(sourcesOf(merged)).toEqual(expect.arrayContaining([...FIRST_CALL, 'src/client.ts']));
  });

  it('leaves the schemas (zod), the error mapping and the other operations to their first use, as the ESM build does', () => {
    const early = loaded.flatMap(sourcesOf);
    expect(
      early.filter((source) =>
        /node_modules\/zod\/|src\/schemas\/(?:order|on-demand)\.ts|src\/internal\/error-mapping\.ts|functions\/deliveries\/bulk\//.test(source),
      ),
    ).toEqual([]);
  });
});

/** A built file and every file it imports statically (`import … from './x.js'`, `import './x.js'`, `export … from`), and the packages they import. */
function loadedAtOnce(file: string, files = new Set<string>(), packages = new Set<string>()): { files: Set<string>; packages: Set<string> } {
  if (files.has(file)) return { files, packages };
  files.add(file);
  for (const [, specifier = ''] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^;'"]*?['"]([^'"]+)['"]/gm)) {
    if (specifier.startsWith('.')) loadedAtOnce(resolve(dirname(file), specifier), files, packages);
    else packages.add(specifier);
  }
  return { files, packages };
}

describe('each entry of the Node build, imported', () => {
  it.each(packageEntries().map((entry) => [entry.specifier, entry] as const))('%s loads no ky before its first request', (_, entry) => {
    expect([...loadedAtOnce(join(ROOT, entry.node)).packages].filter((name) => name === 'ky')).toEqual([]);
  });

  it('the check itself finds ky in a file that imports it', () => {
    const file = join(ROOT, 'test/.tmp', `imports-ky-${process.pid}.mjs`);
    writeFileSync(file, "import { isKyError } from 'ky';\nexport const check = isKyError;\n");
    try {
      expect([...loadedAtOnce(file).packages]).toEqual(['ky']);
    } finally {
      rmSync(file, { force: true });
    }
  });
});

describe('the sandbox from the Node build (delivery-sdk/testing)', () => {
  it("serves its dashboard's script, which the build keeps in dist/dashboard/, one folder above the Node build's files", async () => {
    const testing = packageEntries().find((entry) => entry.subpath === './testing');
    const { createSandbox } = (await import(pathToFileURL(join(ROOT, testing?.node ?? '')).href)) as typeof import('../../src/testing/index.js');
    const sandbox = createSandbox();
    const { dashboardUrl } = await sandbox.listen({ port: 0 });
    try {
      const login = await fetch(dashboardUrl, { redirect: 'manual' });
      const cookie = login.headers.get('set-cookie')?.split(';')[0] ?? '';
      const script = await fetch(new URL('app.js', new URL(dashboardUrl)), { headers: { cookie } });
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect((await script.text()).length).toBeGreaterThan(0);
    } finally {
      await sandbox.close();
    }
  });
});
