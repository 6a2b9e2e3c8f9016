// `npm run test:runtimes`: the built package's smoke suite on every runtime its users run it on.
// Packs dist/ into a tarball, installs it into a fresh project, runs test/runtimes/smoke.mjs there
// with Node 20 (this machine's), Node 22 and Node 24 (binaries from the npm registry through npx),
// Deno and Bun (same), and runs the checkout page in Debian's Chromium; then the MCP Inspector's
// command line against `delivery-sdk mcp` (test/runtimes/mcp-inspector.ts).
//
// One line per runtime, pass or FAIL; exits non-zero on any failure. Options:
//   --only node22,chromium   run some runtimes (names as printed)
//   --report FILE            write { passed, failed, runtimes } as JSON (used by .ci/run)
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { assertBuilt, type ConsumerProject, createConsumerProject, ROOT } from '../packaging/packed-package.js';
import { runInChromium, SCREENSHOT } from './browser.js';
import { checkWithInspector } from './mcp-inspector.js';

interface Outcome {
  name: string;
  ok: boolean;
  /** Version actually run, checks passed, or the failure. */
  detail: string;
  seconds: number;
  output?: string;
}

interface Runtime {
  name: string;
  run(project: ConsumerProject): Promise<{ detail: string; ok: boolean; output?: string }>;
}

const SMOKE_TIMEOUT_MS = 180_000; // the first `npx -p node@24` downloads the binary

/** Runs the smoke suite with a command in the consumer project and reads its summary line. */
function smokeWith(command: string, args: string[]): Runtime['run'] {
  return async (project) => {
    const { code, output } = await runProcess(command, [...args, 'smoke.mjs'], project.dir, SMOKE_TIMEOUT_MS);
    const summaryLine = output
      .split('\n')
      .reverse()
      .find((line) => line.startsWith('{"smoke":'));
    const summary =
      summaryLine === undefined
        ? undefined
        : (JSON.parse(summaryLine) as { smoke: { runtime: string; build: string; passed: number; failed: number; failures: string[] } }).smoke;
    if (summary === undefined) return { ok: false, detail: `no summary (exit ${code})`, output };
    const ok = code === 0 && summary.failed === 0 && summary.passed > 0;
    const built = summary.build === 'node' ? 'import gives the Node build (dist/node/)' : `import gives the ${summary.build} build`;
    const detail = `${summary.runtime}: ${summary.passed} of ${summary.passed + summary.failed} checks passed, ${built}${summary.failed > 0 ? `; first failure: ${summary.failures[0]}` : ''}`;
    return ok ? { ok, detail } : { ok, detail, output };
  };
}

const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';
/** A runtime from the npm registry; once in the npx cache it starts offline. */
const fromRegistry = (spec: string, command: string[]): Parameters<typeof smokeWith> => [NPX, ['--prefer-offline', '-y', '-p', spec, ...command]];
const RUNTIMES: Runtime[] = [
  { name: 'node20', run: smokeWith(process.execPath, []) },
  { name: 'node22', run: smokeWith(...fromRegistry('node@22', ['node'])) },
  { name: 'node24', run: smokeWith(...fromRegistry('node@24', ['node'])) },
  { name: 'deno', run: smokeWith(...fromRegistry('deno@2', ['deno', 'run', '--allow-all', '--quiet'])) },
  { name: 'bun', run: smokeWith(...fromRegistry('bun@1', ['bun'])) },
  {
    name: 'chromium',
    run: async (project) => {
      const outcome = await runInChromium(project);
      return { ok: true, detail: `${outcome.runtime}: ${outcome.checks.length} checks passed, screenshot ${SCREENSHOT.slice(ROOT.length)}` };
    },
  },
  // Not a runtime: the MCP Inspector's command line against `delivery-sdk mcp` (test/runtimes/mcp-inspector.ts).
  { name: 'mcp-inspector', run: () => checkWithInspector(runProcess, NPX, ROOT, join(ROOT, 'dist/cli/main.js'), SMOKE_TIMEOUT_MS) },
];

/** Spawns a process in its own group so a timeout ends it and its children (npx starts node). */
function runProcess(command: string, args: string[], cwd: string, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', NODE_NO_WARNINGS: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      output += `\n(timed out after ${timeoutMs / 1000} s)`;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => (output += `\n${error.message}`));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function measure(runtime: Runtime, project: ConsumerProject): Promise<Outcome> {
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 100) / 10;
  try {
    const result = await runtime.run(project);
    return { name: runtime.name, seconds: seconds(), ...result };
  } catch (error) {
    return {
      name: runtime.name,
      ok: false,
      detail: error instanceof Error ? error.message.split('\n')[0]! : String(error),
      seconds: seconds(),
      output: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
}

/** Runs `tasks` at most `limit` at a time (the machine has two cores), keeping their order. */
async function pooled<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

function newestModification(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const path = join(dir, entry.name);
    return Math.max(newest, entry.isDirectory() ? newestModification(path) : statSync(path).mtimeMs);
  }, 0);
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, report: { type: 'string' } } });
  const only = values.only?.split(',').map((name) => name.trim());
  const selected = only === undefined ? RUNTIMES : RUNTIMES.filter((runtime) => only.includes(runtime.name));
  if (selected.length === 0) throw new Error(`--only names none of ${RUNTIMES.map((runtime) => runtime.name).join(', ')}`);

  assertBuilt();
  if (newestModification(join(ROOT, 'src')) > statSync(join(ROOT, 'dist/index.js')).mtimeMs) {
    console.log('warning: src/ changed after the last build; these checks test dist/ (npm run build)');
  }

  const project = await createConsumerProject();
  try {
    copyFileSync(join(ROOT, 'test/runtimes/smoke.mjs'), join(project.dir, 'smoke.mjs'));
    // delivery-sdk/mcp's optional peer, this repository's (its own dependencies resolve from there): the registry stays out of the run.
    mkdirSync(join(project.dir, 'node_modules/@modelcontextprotocol'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules/@modelcontextprotocol/sdk'), join(project.dir, 'node_modules/@modelcontextprotocol/sdk'), 'dir');
    const outcomes = await pooled(
      selected.map((runtime) => () => measure(runtime, project)),
      2,
    );
    for (const outcome of outcomes.filter((o) => !o.ok && o.output !== undefined)) {
      console.log(`\n--- ${outcome.name} output ---\n${outcome.output!.trim()}\n`);
    }
    const width = Math.max(...outcomes.map((o) => o.name.length));
    for (const outcome of outcomes) console.log(`${outcome.ok ? 'pass' : 'FAIL'}  ${outcome.name.padEnd(width)}  ${outcome.detail} (${outcome.seconds} s)`);
    const failed = outcomes.filter((o) => !o.ok).length;
    console.log(`runtimes: ${outcomes.length - failed} passed, ${failed} failed`);
    if (values.report !== undefined) {
      writeFileSync(
        values.report,
        JSON.stringify({ passed: outcomes.length - failed, failed, runtimes: outcomes.map(({ output: _output, ...rest }) => rest) }, null, 2),
      );
    }
    return failed === 0 ? 0 : 1;
  } finally {
    project.remove();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
