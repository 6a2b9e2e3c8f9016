// The package as users get it: the tarball `npm pack` makes from dist/, installed into a project
// of its own. Shared by the packaging tests (vitest) and the runtime matrix (test/runtimes/run.ts).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface ConditionTargets {
  import?: Record<string, string>;
  require?: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  exports: Record<string, ConditionTargets | string>;
  bin?: Record<string, string>;
};

export const PACKAGE_NAME = manifest.name;
export const PACKAGE_VERSION = manifest.version;
/** The `bin` map of package.json (command name to file). */
export const BINARIES: Readonly<Record<string, string>> = manifest.bin ?? {};

/** One subpath of the exports map, e.g. `delivery-sdk/webhooks`, with every file it points to. */
export interface PackageEntry {
  subpath: string;
  specifier: string;
  /** The ESM build, relative to the package root: what browsers and their bundlers import. */
  esm: string;
  /** What `import` gives in Node, Deno and Bun (the `node` condition): the same code in fewer files (scripts/node-build.mjs). */
  node: string;
  /** The CommonJS build, relative to the package root. */
  cjs: string;
  /** Every file the entry names (builds and declarations), relative to the package root. */
  files: string[];
}

/** Every code entry of the exports map (not `./package.json`), read from package.json so new entries are covered without editing the tests. */
export function packageEntries(): PackageEntry[] {
  return Object.entries(manifest.exports).flatMap(([subpath, targets]) => {
    if (typeof targets === 'string') return [];
    const esm = targets.import?.['default'];
    const node = targets.import?.['node'];
    const cjs = targets.require?.['default'];
    if (esm === undefined || node === undefined || cjs === undefined)
      throw new Error(`exports["${subpath}"] needs an import condition with a node file, and a require condition`);
    // A runtime that claims `browser` as well as `node` is an edge worker's bundler: it gets the ESM build.
    if (targets.import?.['browser'] !== esm) throw new Error(`exports["${subpath}"].import.browser must be the ESM build (${esm}), before node`);
    const files = [...Object.values(targets.import ?? {}), ...Object.values(targets.require ?? {})].map(stripDotSlash);
    return [
      {
        subpath,
        specifier: subpath === '.' ? PACKAGE_NAME : `${PACKAGE_NAME}/${subpath.slice(2)}`,
        esm: stripDotSlash(esm),
        node: stripDotSlash(node),
        cjs: stripDotSlash(cjs),
        files,
      },
    ];
  });
}

const stripDotSlash = (path: string): string => path.replace(/^\.\//, '');

/** Files the exports map and `bin` name that dist/ does not have. */
export function missingBuildOutput(): string[] {
  const named = [...packageEntries().flatMap((entry) => entry.files), ...Object.values(BINARIES).map(stripDotSlash)];
  return [...new Set(named)].filter((file) => !existsSync(join(ROOT, file)));
}

/** Throws a message that says what to do when the packaging checks run without a build. */
export function assertBuilt(): void {
  const missing = missingBuildOutput();
  if (missing.length > 0) {
    throw new Error(
      `The packaging checks test the built package, and dist/ lacks ${missing.slice(0, 4).join(', ')}${missing.length > 4 ? `, ... (${missing.length} files)` : ''}. ` +
        'Run `npm run build` first (`npm test` builds before running vitest).',
    );
  }
}

/**
 * Time a packaging check may take in vitest. Each one runs npm, tsc or attw: seconds alone, but
 * on a loaded 2-core machine several times the default 20 s. A hung program is still caught:
 * {@link run} kills it (after 120 s unless told otherwise).
 */
export const PACKAGING_TIMEOUT_MS = 180_000;

export interface RunResult {
  stdout: string;
  stderr: string;
}

/** Runs a program without a shell; the error names the command and carries its output. */
export function run(file: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) resolve({ stdout, stderr });
        else
          reject(
            Object.assign(new Error(`${[file, ...args].join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`.trim()), {
              stdout,
              stderr,
              exitCode: error.code,
            }),
          );
      },
    );
  });
}

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const QUIET = ['--no-audit', '--no-fund', '--loglevel=error'];

/** A packed tarball and the files it holds. */
interface Packed {
  tarball: string;
  files: string[];
}

/** What is packed: every file of dist/ and the documents, by name, size and time; the manifest by content. */
function packedInputsKey(): string {
  const hash = createHash('sha256').update(readFileSync(join(ROOT, 'package.json')));
  for (const dir of ['dist', 'docs']) {
    for (const name of readdirSync(join(ROOT, dir), { recursive: true }).map(String).sort()) {
      const stat = statSync(join(ROOT, dir, name));
      if (stat.isFile()) hash.update(`${dir}/${name}:${stat.size}:${stat.mtimeMs}\n`);
    }
  }
  for (const name of ['README.md', 'CHANGELOG.md', 'LICENSE']) hash.update(`${name}:${statSync(join(ROOT, name)).mtimeMs}\n`);
  return hash.digest('hex').slice(0, 16);
}

/**
 * The package packed once per build: the test files that need the tarball (its file list, the
 * linters, the installed project) share the one `npm pack` made for what dist/ holds now, kept
 * under test/.tmp/ by a key of its inputs. Written whole then renamed, so two files packing at
 * once each find a complete tarball.
 */
async function packedOnce(): Promise<Packed> {
  assertBuilt();
  const dir = join(ROOT, 'test', '.tmp', 'packed');
  const key = packedInputsKey();
  const tarball = join(dir, `${key}.tgz`);
  const list = join(dir, `${key}.json`);
  if (existsSync(tarball) && existsSync(list)) return { tarball, files: JSON.parse(readFileSync(list, 'utf8')) as string[] };
  mkdirSync(dir, { recursive: true });
  const scratch = mkdtempSync(join(dir, 'packing-'));
  try {
    const { stdout } = await run(NPM, ['pack', '--pack-destination', scratch, '--json', '--ignore-scripts', '--loglevel=error']);
    const [report] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    if (report === undefined) throw new Error(`npm pack printed no report: ${stdout}`);
    writeFileSync(join(scratch, 'files.json'), JSON.stringify(report.files.map((file) => file.path).sort()));
    renameSync(join(scratch, 'files.json'), list);
    renameSync(join(scratch, report.filename), tarball);
    // Tarballs of earlier builds: no test of this build reads them.
    for (const name of readdirSync(dir)) if (!name.startsWith(key) && !name.startsWith('packing-')) rmSync(join(dir, name), { force: true });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return { tarball, files: JSON.parse(readFileSync(list, 'utf8')) as string[] };
}

/** What `npm pack` publishes: paths relative to the package root. */
export async function packedFileList(): Promise<string[]> {
  return (await packedOnce()).files;
}

/** The package's tarball, packed once per build (see {@link packedOnce}); read it, do not move it. */
export async function packTarball(): Promise<string> {
  return (await packedOnce()).tarball;
}

/** A fresh project outside this repository (so nothing resolves from its node_modules) with the tarball installed and nothing else but the package's own dependencies. */
export interface ConsumerProject {
  dir: string;
  tarball: string;
  remove(): void;
}

/**
 * Packs the package and installs it into a new project in the system temp folder. The package's
 * dependencies come from the local npm cache (`npm ci` filled it); only when the cache lacks them
 * does npm go to the registry.
 */
export async function createConsumerProject(options: { type?: 'module' | 'commonjs' } = {}): Promise<ConsumerProject> {
  const dir = mkdtempSync(join(tmpdir(), `${PACKAGE_NAME}-consumer-`));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    const tarball = await packTarball();
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: options.type ?? 'module' }, null, 2)}\n`);
    try {
      await run(NPM, ['install', tarball, '--offline', ...QUIET], { cwd: dir });
    } catch {
      await run(NPM, ['install', tarball, '--prefer-offline', ...QUIET], { cwd: dir });
    }
    return { dir, tarball, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
