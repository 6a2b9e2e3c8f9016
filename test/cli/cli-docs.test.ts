import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/processes.js';
import { csv, type HoldingProxy, holdingProxy, requireBuilt, resultRows, row, run, servedSandbox, workspace } from './cli.js';

// docs/cli.md's scripts, run as written. "A nightly import in CI": the `run:` steps of its workflow, in a project
// where `delivery-sdk` is installed, run by bash as GitHub Actions runs a step, against a sandbox;
// with `npx` as written and with the bin (node_modules/.bin/delivery-sdk) in its place. Then the
// same import cancelled the ways CI runners and scripts cancel: SIGINT or SIGTERM to the process
// group, or to the step's process alone (`npx` alone, as `exec` makes it the step's process). What
// must hold: every row read has its outcome in results.csv, the rows not read are not sent, the
// exit says which signal, and nothing reaches the service once every process of the step is gone.
// The sandbox script, twice in a row; the results example, as importing the CSV example writes it;
// every command of its shell blocks through npx (or the bin), which a local install provides.

const DOC = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
const WORKFLOW = /## A nightly import in CI[\s\S]*?```yaml\n([\s\S]*?)```/.exec(DOC)?.[1] ?? '';
/** The `run:` steps of the workflow, as written, but `npm ci` (the project below is installed already). */
const STEPS = [...WORKFLOW.matchAll(/^\s*- run: (.+)$/gm)].map((match) => match[1] as string).filter((step) => step !== 'npm ci');

/** Rows the recipe's import holds in flight at most, as written (no --chunk-size, no --concurrency): 4 requests of 100. */
const IN_FLIGHT = 400;

let served: Awaited<ReturnType<typeof servedSandbox>>;
let files: ReturnType<typeof workspace>;
let project: string;

beforeAll(async () => {
  requireBuilt();
  served = await servedSandbox();
  files = workspace();
  // A merchant's project with delivery-sdk installed: npx finds the bin in node_modules/.bin, as after `npm ci`.
  project = join(files.dir, 'shop');
  mkdirSync(join(project, 'node_modules/.bin'), { recursive: true });
  mkdirSync(join(project, 'exports'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'nightly-orders', private: true, dependencies: { 'delivery-sdk': '*' } }));
  symlinkSync(ROOT, join(project, 'node_modules/delivery-sdk'), 'dir');
  symlinkSync('../delivery-sdk/dist/cli/main.js', join(project, 'node_modules/.bin/delivery-sdk'));
});
afterAll(async () => {
  await served?.close();
  files?.remove();
});

type Via = 'npx' | 'bin';

/** The step as written, or with the bin in npx's place. */
const stepVia = (step: string, via: Via): string => (via === 'npx' ? step : step.replace('npx delivery-sdk', 'node_modules/.bin/delivery-sdk'));

/** Tonight's export, under the name the steps give it (`$(date -u +%F)`). */
function exportRows(prefix: string, count: number): void {
  const rows = Array.from({ length: count }, (_, i) => row(`${prefix}-${i + 1}`));
  writeFileSync(join(project, `exports/orders-${new Date().toISOString().slice(0, 10)}.csv`), csv(...rows));
}

interface Step {
  readonly child: ChildProcess;
  /** The step's process ended (a signal, or its code). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Every process of the step is gone: the last one holding its output closed it. */
  readonly closed: Promise<number>;
  output(): string;
  waitFor(pattern: RegExp): Promise<void>;
}

/** Runs a step as GitHub Actions does (`bash --noprofile --norc -eo pipefail` on a script of it), in a process group of its own. */
function runStep(command: string, env: NodeJS.ProcessEnv): Step {
  const script = join(files.dir, `step-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(script, `${command}\n`);
  const { DELIVERY_BASE_URL: _url, DELIVERY_API_KEY: _key, ...inherited } = process.env;
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
    cwd: project,
    env: { ...inherited, NO_COLOR: '1', ...env },
    detached: true,
  });
  let output = '';
  const waiters = new Set<() => void>();
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      for (const wake of waiters) wake();
    });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const closed = new Promise<number>((resolve) => child.once('close', () => resolve(performance.now())));
  const waitFor = (pattern: RegExp): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (pattern.test(output)) {
          waiters.delete(check);
          resolve();
        }
      };
      waiters.add(check);
      check();
      void closed.then(() => {
        waiters.delete(check);
        reject(new Error(`the step ended before its output matched ${pattern}:\n${output}`));
      });
    });
  return { child, exited, closed, output: () => output, waitFor };
}

const ordersWith = (prefix: string) => served.sandbox.orders().filter((order) => order.businessReference?.startsWith(`${prefix}-`));

describe("docs/cli.md's nightly import in CI", { timeout: 120_000 }, () => {
  it.each<Via>(['npx', 'bin'])('runs its steps as written (%s): the dry run, then the import with its results file', async (via) => {
    expect(STEPS).toHaveLength(2);
    const prefix = `RECIPE-${via}`;
    exportRows(prefix, 5);
    for (const step of STEPS) {
      const ran = runStep(stepVia(step, via), served.env);
      expect(await ran.exited, ran.output()).toEqual({ code: 0, signal: null });
    }
    const rows = resultRows(readFileSync(join(project, 'results.csv'), 'utf8'));
    expect(rows.map((r) => r['status'])).toEqual(['created', 'created', 'created', 'created', 'created']);
    expect(rows.map((r) => r['trackingNumber'])).toEqual(ordersWith(prefix).map((order) => order.trackingNumber));
  });
});

interface Cancel {
  via: Via;
  signal: 'SIGINT' | 'SIGTERM';
  /** The process group (a terminal's Ctrl-C, a runner killing the group), or the step's process alone (a runner's cancel, `kill` of npx). */
  to: 'group' | 'step';
}

const CANCELS: Cancel[] = [
  { via: 'npx', signal: 'SIGINT', to: 'group' },
  { via: 'npx', signal: 'SIGTERM', to: 'group' },
  { via: 'npx', signal: 'SIGINT', to: 'step' },
  { via: 'npx', signal: 'SIGTERM', to: 'step' },
  { via: 'bin', signal: 'SIGINT', to: 'step' },
  { via: 'bin', signal: 'SIGTERM', to: 'group' },
];

describe("docs/cli.md's nightly import in CI, cancelled", { timeout: 120_000 }, () => {
  let proxy: HoldingProxy;
  afterAll(async () => proxy?.close());

  it.each(CANCELS)('$signal to the $to, through $via: every row read written, the rest never sent, nothing after the end', async ({ via, signal, to }) => {
    const importStep = STEPS.find((step) => step.includes('--results')) as string;
    const prefix = `CANCEL-${via}-${signal}-${to}`;
    const rows = IN_FLIGHT + 200;
    exportRows(prefix, rows);
    proxy = await holdingProxy(served.server.baseUrl);
    try {
      const step = runStep(stepVia(importStep, via), { ...served.env, DELIVERY_BASE_URL: proxy.baseUrl });
      // Four requests of 100 rows in flight, held: the import reads no further until one is answered.
      await Promise.race([proxy.held(4), step.closed.then(() => Promise.reject(new Error(`the step ended first:\n${step.output()}`)))]);
      if (to === 'group') process.kill(-(step.child.pid as number), signal);
      else step.child.kill(signal);
      await step.waitFor(/(Interrupted|Stopped \([^)]*\)): reading no more rows/);
      proxy.release();
      const [exit, closedAt] = await Promise.all([step.exited, step.closed]);

      // The step ends as the signal says: 130 or 143, or killed by it (npx passes on its shell's death).
      const code = signal === 'SIGINT' ? 130 : 143;
      expect(exit.signal === signal || exit.code === code, `${JSON.stringify(exit)}\n${step.output()}`).toBe(true);
      // Every row read has its line, in order; the rows never read have none and were never sent.
      const results = resultRows(readFileSync(join(project, 'results.csv'), 'utf8'));
      expect(results.map((r) => r['row'])).toEqual(Array.from({ length: IN_FLIGHT }, (_, i) => String(i + 1)));
      expect(new Set(results.map((r) => r['status']))).toEqual(new Set(['created']));
      expect(ordersWith(prefix)).toHaveLength(IN_FLIGHT);
      expect(step.output()).toMatch(new RegExp(`(Interrupted|Stopped \\([^)]*\\)): 200 rows after row ${IN_FLIGHT} were not read\\.`));
      // Nothing reached the service once the last process of the step was gone.
      expect(proxy.requests.filter((request) => request.at > closedAt)).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(proxy.requests.filter((request) => request.at > closedAt)).toEqual([]);
      expect(ordersWith(prefix)).toHaveLength(IN_FLIGHT);
    } finally {
      await proxy.close();
    }
  });
});

/** The blocks of docs/cli.md fenced as `lang`, each without its fences. */
const blocks = (lang: string): string[] => [...DOC.matchAll(new RegExp(`\`\`\`${lang}\n([\\s\\S]*?)\`\`\``, 'g'))].map((match) => match[1] as string);

/** A port nothing listens on now (the system picks it, the probe lets it go). */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Whether a server can listen on `port` now. */
async function isFree(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

describe("docs/cli.md's other scripts", { timeout: 120_000 }, () => {
  it('its shell commands go through npx (or the bin): a local install puts no delivery-sdk on PATH', () => {
    const lines = blocks('sh').flatMap((block) => block.split('\n'));
    const commands = lines.filter((line) => /\bdelivery-sdk /.test(line) && !line.startsWith('#'));
    expect(commands.length).toBeGreaterThan(10);
    expect(commands.filter((line) => !/(^|\s)(npx delivery-sdk|node_modules\/\.bin\/delivery-sdk) /.test(line))).toEqual([]);
  });

  it('the results example is what importing the CSV example writes (3007 only above 30,000)', async () => {
    const [example] = blocks('csv');
    const results = blocks('csv').find((block) => block.startsWith('row,'));
    const file = join(files.dir, 'example.csv');
    writeFileSync(file, example as string);
    const ran = await run(['orders', 'import', file, '--sandbox', '--results', join(files.dir, 'example-results.csv'), '--quiet']);
    expect(ran.code).toBe(1);
    expect(readFileSync(join(files.dir, 'example-results.csv'), 'utf8')).toBe(results);
  });

  it('the sandbox script runs twice in a row: it stops its server, so the second finds the port free', async () => {
    const script = blocks('sh').find((block) => block.includes('delivery-sdk sandbox --port 4010 --control-token-file')) as string;
    const port = await freePort();
    writeFileSync(join(project, 'sandbox-script.sh'), script.replaceAll('4010', String(port)));
    writeFileSync(join(project, 'orders.csv'), csv(row('SCRIPT-1'), row('SCRIPT-2')));
    for (const time of [1, 2]) {
      const ran = runStep(`bash sandbox-script.sh`, {});
      expect(await ran.exited, `run ${time}:\n${ran.output()}`).toEqual({ code: 0, signal: null });
      await ran.closed;
      expect(await isFree(port), `run ${time}`).toBe(true);
      expect(resultRows(readFileSync(join(project, 'results.csv'), 'utf8')).map((r) => r['status'])).toEqual(['created', 'created']);
    }
  });

  it('the sandbox script stops at once, importing nothing, when its port is taken', async () => {
    const script = blocks('sh').find((block) => block.includes('delivery-sdk sandbox --port 4010 --control-token-file')) as string;
    const stale = createServer().listen(0, '127.0.0.1');
    await once(stale, 'listening');
    try {
      const { port } = stale.address() as { port: number };
      writeFileSync(join(project, 'sandbox-script.sh'), script.replaceAll('4010', String(port)));
      writeFileSync(join(project, 'results.csv'), 'untouched');
      const ran = runStep(`bash sandbox-script.sh`, {});
      expect((await ran.exited).code).not.toBe(0);
      expect(ran.output()).toContain('EADDRINUSE');
      expect(readFileSync(join(project, 'results.csv'), 'utf8')).toBe('untouched');
    } finally {
      await new Promise((resolve) => stale.close(resolve));
    }
  });
});
