import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_USAGE, MCP_USAGE, MSW_USAGE, RESOLUTIONS, SANDBOX_USAGE, STRICT_OPTIONS } from './consumer/typed-usage.js';
import { BINARIES, type ConsumerProject, createConsumerProject, PACKAGE_NAME, PACKAGING_TIMEOUT_MS, packageEntries, ROOT, run } from './packed-package.js';

interface ProbeReport {
  entries: Record<string, { esmFile: string; cjsFile: string; esmExports: string[]; cjsExports: string[] }>;
  /** Entries that did not load, with the error's message. */
  failed: Record<string, string>;
  sharedExportsDiffer: string[];
  classesChecked: number;
  misnamedClasses: string[];
  missing: string[];
}

/** Entries of optional peers (the consumer project has none of them installed), and the peer each needs. */
const PEER_ENTRIES: Record<string, string> = { './testing/msw': 'msw', './opentelemetry': '@opentelemetry/api', './mcp': '@modelcontextprotocol/sdk' };
const entries = packageEntries().filter((entry) => PEER_ENTRIES[entry.subpath] === undefined);
const peerEntries = packageEntries().filter((entry) => PEER_ENTRIES[entry.subpath] !== undefined);
let project: ConsumerProject;
let probe: ProbeReport;

beforeAll(async () => {
  project = await createConsumerProject();
  copyFileSync(join(ROOT, 'test/packaging/consumer/probe.mjs'), join(project.dir, 'probe.mjs'));
  const { stdout } = await run(process.execPath, ['probe.mjs', JSON.stringify(packageEntries().map((entry) => entry.specifier))], { cwd: project.dir });
  probe = JSON.parse(stdout) as ProbeReport;
}, PACKAGING_TIMEOUT_MS);
afterAll(() => project?.remove());

describe('the tarball installed into a fresh project', () => {
  it("brings only its runtime dependencies along (package.json `dependencies`: ky, and the CLI's CSV library; zod is bundled in): no msw, no Redis client, no dev tooling", () => {
    const { dependencies = {} } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    const installed = readdirSync(join(project.dir, 'node_modules')).filter((name) => !name.startsWith('.'));
    expect(installed.sort()).toEqual([PACKAGE_NAME, ...Object.keys(dependencies)].sort());
    // zod is bundled into dist/; papaparse is the `delivery-sdk` command's alone (test/cli/leaf.test.ts).
    expect(Object.keys(dependencies)).toEqual(['ky', 'papaparse']);
    expect(probe.missing.sort()).toEqual(['@modelcontextprotocol/sdk', '@opentelemetry/api', 'ioredis', 'msw', 'redis']);
  });

  it('loads every entry with require() where Node cannot require an ES module: ky (ESM-only) is bundled into the CommonJS build', async () => {
    const noEsmRequire = ['--no-experimental-require-module', '-e'];
    // The check has teeth: under this flag ky itself cannot be required.
    await expect(run(process.execPath, [...noEsmRequire, "require('ky')"], { cwd: project.dir })).rejects.toThrow(/ERR_REQUIRE_ESM|ES Module/);
    const script = `for (const s of ${JSON.stringify(entries.map((entry) => entry.specifier))}) console.log(s, Object.keys(require(s)).length);`;
    const { stdout } = await run(process.execPath, [...noEsmRequire, script], { cwd: project.dir });
    for (const entry of entries) expect(stdout).toMatch(new RegExp(`^${entry.specifier} [1-9]\\d*$`, 'm'));
    const { stdout: created } = await run(
      process.execPath,
      [
        ...noEsmRequire,
        `const { DeliveryClient } = require('${PACKAGE_NAME}'); console.log(typeof new DeliveryClient({ baseUrl: 'https://api.example.com/v2' }).deliveries.create)`,
      ],
      { cwd: project.dir },
    );
    expect(created.trim()).toBe('function');
  });

  it.each(entries.map((entry) => [entry.specifier, entry] as const))(
    '%s loads with import (the Node build: Node takes the `node` condition) and with require, from the installed dist files, with the same exports',
    (specifier, entry) => {
      const found = probe.entries[specifier];
      expect(found?.esmFile).toMatch(new RegExp(`/node_modules/${PACKAGE_NAME}/${entry.node.replace(/\./g, '\\.')}$`));
      expect(found?.cjsFile).toMatch(new RegExp(`/node_modules/${PACKAGE_NAME}/${entry.cjs.replace(/\./g, '\\.')}$`));
      expect(found?.esmExports.length).toBeGreaterThan(0);
      expect(found?.cjsExports).toEqual(found?.esmExports);
    },
  );

  it('gives import the ESM build where the runtime claims `browser` as well as `node` (Next.js edge routes, wrangler with nodejs_compat), the Node build where it claims `node` alone', async () => {
    const resolved = async (conditions: string[]) =>
      (
        await run(
          process.execPath,
          [...conditions.map((condition) => `--conditions=${condition}`), '--input-type=module', '-e', `console.log(import.meta.resolve('${PACKAGE_NAME}'))`],
          { cwd: project.dir },
        )
      ).stdout.trim();
    const main = entries.find((entry) => entry.subpath === '.');
    expect(await resolved(['browser'])).toMatch(new RegExp(`/node_modules/${PACKAGE_NAME}/${main?.esm.replace(/\./g, '\\.')}$`));
    expect(await resolved([])).toMatch(new RegExp(`/node_modules/${PACKAGE_NAME}/${main?.node.replace(/\./g, '\\.')}$`));
  });

  it('the main entry and delivery-sdk/webhooks (every entry but testing/msw, in fact, webhooks/redis included) load without msw, ioredis or redis installed', () => {
    expect(probe.missing).toContain('msw');
    expect(Object.keys(probe.failed).sort()).toEqual(peerEntries.map((entry) => entry.specifier).sort());
    expect(probe.entries[PACKAGE_NAME]?.esmExports).toContain('DeliveryClient');
    expect(probe.entries[`${PACKAGE_NAME}/webhooks`]?.esmExports).toContain('parseWebhookEvent');
  });

  it.each(peerEntries.map((entry) => [entry.specifier, PEER_ENTRIES[entry.subpath]!] as const))(
    '%s, without its optional peer installed, fails to load naming it (%s)',
    (specifier, peer) => {
      expect(probe.failed[specifier]).toContain(`'${peer}'`);
    },
  );

  it('shares one class per error (and one object per catalogue) across entries, under import and under require', () => {
    expect(probe.sharedExportsDiffer).toEqual([]);
  });

  it('keeps the name of every exported class, under import and under require (`constructor.name` in logs and metrics)', () => {
    expect(probe.misnamedClasses).toEqual([]);
    expect(probe.classesChecked).toBeGreaterThan(40); // both builds of every entry: the errors, the client, the sandbox, ...
  });

  // One tsc run per resolution for both programs, one run at a time: each spends most of its time
  // on @types/node and this package's declarations, and side by side on two cores they only slow each other.
  it.each(Object.keys(RESOLUTIONS))(
    'type-checks a strict app (main entry, webhooks, Node adapter) and a strict test suite on the sandbox (delivery-sdk/testing) with moduleResolution %s, msw absent',
    async (resolution) => {
      const { files, compilerOptions } = RESOLUTIONS[resolution]!;
      expect(await typeErrors(resolution, { app: CLIENT_USAGE, sandbox: SANDBOX_USAGE }, files, compilerOptions)).toBe('');
    },
    PACKAGING_TIMEOUT_MS,
  );

  it(
    'type-checks a strict ESM test suite on msw (delivery-sdk/testing/msw, msw present) with moduleResolution node16',
    async () => {
      // msw comes from this repository through `paths` (installing it offline is not reliable). Its
      // own declarations need the DOM library and have errors of their own under strict settings:
      // only this package's declarations and the user's code are judged here.
      const msw = join(
        ROOT,
        'node_modules/msw',
        (JSON.parse(readFileSync(join(ROOT, 'node_modules/msw/package.json'), 'utf8')) as { exports: Record<string, { import: { types: string } }> }).exports[
          '.'
        ]!.import.types,
      );
      const compilerOptions = { ...RESOLUTIONS['node16']!.compilerOptions, lib: ['ES2022', 'DOM', 'DOM.Iterable'], paths: { msw: [msw] } };
      expect(withoutForeignDiagnostics(await typeErrors('msw-node16', { msw: MSW_USAGE }, ['usage.mts'], compilerOptions))).toBe('');
    },
    PACKAGING_TIMEOUT_MS,
  );

  it(
    'type-checks a strict server of delivery-sdk/mcp (the MCP SDK present) with moduleResolution node16, ESM and CommonJS, no zod type of ours in the way',
    async () => {
      // The repository's MCP SDK, installed for this check alone as a link (its own dependencies, zod among them, resolve
      // from there); its declarations' own strictness is its business: only this package's declarations and the user's code are judged.
      const peer = join(project.dir, 'node_modules/@modelcontextprotocol');
      mkdirSync(peer, { recursive: true });
      symlinkSync(join(ROOT, 'node_modules/@modelcontextprotocol/sdk'), join(peer, 'sdk'), 'dir');
      try {
        const { files, compilerOptions } = RESOLUTIONS['node16']!;
        expect(withoutForeignDiagnostics(await typeErrors('mcp-node16', { mcp: MCP_USAGE }, files, compilerOptions))).toBe('');
      } finally {
        rmSync(peer, { recursive: true, force: true });
      }
    },
    PACKAGING_TIMEOUT_MS,
  );

  it('the delivery-sdk mcp command, without the MCP SDK installed, says what to install and exits with 2', async () => {
    const failed = await run(join(project.dir, 'node_modules/.bin/delivery-sdk'), ['mcp', '--sandbox'], { cwd: project.dir }).catch(
      (error: { exitCode?: number; stderr?: string }) => error,
    );
    expect(failed).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('npm install @modelcontextprotocol/sdk') });
  });

  it.each(Object.keys(BINARIES))(
    'the %s command starts the sandbox on 127.0.0.1 and answers the API',
    async (command) => {
      // `delivery-sdk` serves it as its `sandbox` command; `delivery-sdk-sandbox` is that command alone.
      const args = [...(command === 'delivery-sdk' ? ['sandbox'] : []), '--port', '0', '--api-key', 'packaged-key'];
      const child = spawn(join(project.dir, 'node_modules/.bin', command), args, {
        cwd: project.dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        const baseUrl = await new Promise<string>((resolve, reject) => {
          let output = '';
          const onData = (chunk: Buffer): void => {
            output += chunk.toString('utf8');
            const url = /https?:\/\/127\.0\.0\.1:\d+\/v2/.exec(output)?.[0];
            if (url !== undefined) resolve(url);
          };
          child.stdout.on('data', onData);
          child.stderr.on('data', onData);
          child.once('exit', (code) => reject(new Error(`${command} exited (${code}) before printing its URL: ${output}`)));
          setTimeout(() => reject(new Error(`${command} printed no URL within 60 s: ${output}`)), 60_000).unref();
        });
        const answer = await fetch(`${baseUrl}/cities?countryId=60e4482c7cb7d4bc4849c4d5`);
        expect(answer.status).toBe(200);
        expect(JSON.stringify(await answer.json())).toContain('Cairo');
      } finally {
        child.kill('SIGTERM');
      }
    },
    PACKAGING_TIMEOUT_MS,
  );
});

/**
 * Type-checks `sources` (file base name to text), each as every one of `usageFiles`, in one
 * program in a folder of the consumer project with this repository's TypeScript, and returns
 * tsc's diagnostics. Node's types (for
 * `delivery-sdk/webhooks/node`) come from this repository's node_modules, as a user of that
 * entry has them, and so does msw when `compilerOptions.paths` maps it.
 */
async function typeErrors(name: string, sources: Record<string, string>, usageFiles: string[], compilerOptions: Record<string, unknown>): Promise<string> {
  const dir = join(project.dir, `typecheck-${name}`);
  mkdirSync(dir);
  // Each source under each of the resolution's file names: `usage.mts` becomes `app.mts`, `sandbox.mts`.
  const files = Object.entries(sources).flatMap(([base, source]) =>
    usageFiles.map((file) => {
      const named = file.replace(/^usage/, base);
      writeFileSync(join(dir, named), source);
      return named;
    }),
  );
  const options = { ...STRICT_OPTIONS, typeRoots: [join(ROOT, 'node_modules/@types')], ...compilerOptions };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files }, null, 2));
  const result = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir, '--pretty', 'false'], {
    cwd: dir,
    timeoutMs: PACKAGING_TIMEOUT_MS - 10_000,
  }).catch((error: { stdout?: string; message: string }) => ({
    stdout: error.stdout || error.message,
  }));
  return result.stdout.trim();
}

/** tsc's diagnostics less those inside other packages (a diagnostic's follow-up lines are indented). */
function withoutForeignDiagnostics(output: string): string {
  const diagnostics = output.split(/\n(?=\S)/).filter((diagnostic) => diagnostic.trim() !== '');
  const foreign = (diagnostic: string): boolean => {
    const file = diagnostic.split('(')[0] ?? '';
    return file.includes('node_modules/') && !file.includes(`node_modules/${PACKAGE_NAME}/`);
  };
  return diagnostics.filter((diagnostic) => !foreign(diagnostic)).join('\n');
}
