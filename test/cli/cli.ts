// What the tests of the `delivery-sdk` command share: the BUILT command run as a user runs it
// (`npm run build` first, as `npm test` does), files written for it, and a sandbox served over
// HTTP in this process, with a ready merchant, to point it at.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll } from 'vitest';
import { readyMerchant } from '../../src/cli/ready-merchant.js';
import { createSandbox, type Sandbox, type SandboxOrder, type SandboxServer } from '../../src/testing/index.js';
import { ROOT } from '../support/processes.js';

export const BIN = join(ROOT, 'dist/cli/main.js');

export function requireBuilt(): void {
  if (!existsSync(BIN)) throw new Error('dist/cli/main.js is missing: run `npm run build` first (npm test does)');
}

export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment of a run: the user's own DELIVERY_* settings never leak in. */
function environment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DELIVERY_BASE_URL: _url, DELIVERY_API_KEY: _key, ...inherited } = process.env;
  return { ...inherited, NO_COLOR: '1', ...env };
}

/** A running command: its output so far, a wait for a pattern in it, and its end. */
export interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr'): Promise<RegExpExecArray>;
  done: Promise<Ran>;
}

export function start(args: readonly string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT): Running {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: environment(env) });
  const output = { stdout: '', stderr: '' };
  const waiters = new Set<() => void>();
  const done = new Promise<Ran>((resolve) =>
    child.once('close', (code, signal) => {
      for (const wake of waiters) wake();
      resolve({ code, signal, ...output });
    }),
  );
  for (const stream of ['stdout', 'stderr'] as const)
    child[stream].on('data', (chunk: Buffer) => {
      output[stream] += chunk.toString('utf8');
      for (const wake of waiters) wake();
    });
  const waitFor = (pattern: RegExp, stream: 'stdout' | 'stderr' = 'stderr'): Promise<RegExpExecArray> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const match = pattern.exec(output[stream]);
        if (match !== null) {
          waiters.delete(check);
          resolve(match);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          waiters.delete(check);
          reject(new Error(`exited before ${stream} matched ${pattern}:\n${output.stdout}\n${output.stderr}`));
        }
      };
      waiters.add(check);
      check();
    });
  return { child, waitFor, done };
}

/** Runs the command to its end. */
export const run = (args: readonly string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT): Promise<Ran> => start(args, env, cwd).done;

/** A folder for the files of a test file, removed by `remove`. */
export function workspace(): { dir: string; file(name: string, content: string | Buffer): string; read(name: string): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'delivery-sdk-cli-'));
  return {
    dir,
    file: (name, content) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    read: (name) => readFileSync(join(dir, name), 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A sandbox over HTTP with a ready merchant; `env` points the command at it. */
export async function servedSandbox(): Promise<{ sandbox: Sandbox; server: SandboxServer; env: NodeJS.ProcessEnv; close(): Promise<void> }> {
  const sandbox = createSandbox({ apiKey: 'cli-test-key' });
  await readyMerchant(sandbox);
  const server = await sandbox.listen({ port: 0 });
  return {
    sandbox,
    server,
    env: { DELIVERY_BASE_URL: server.baseUrl, DELIVERY_API_KEY: sandbox.apiKey },
    close: () => sandbox.close(),
  };
}

export type Served = Awaited<ReturnType<typeof servedSandbox>>;
export type Workspace = ReturnType<typeof workspace>;

/**
 * For a test file: the built command required, a sandbox served over HTTP and a workspace, made
 * before its tests and ended after them; `ordersWith(prefix)`, the sandbox's orders whose
 * businessReference starts with `prefix` (each test uses references of its own).
 */
export function useServedSandbox(): { readonly served: Served; readonly files: Workspace; ordersWith(prefix: string): SandboxOrder[] } {
  let served: Served | undefined;
  let files: Workspace | undefined;
  beforeAll(async () => {
    requireBuilt();
    served = await servedSandbox();
    files = workspace();
  });
  afterAll(async () => {
    await served?.close();
    files?.remove();
  });
  return {
    get served() {
      return served as Served;
    },
    get files() {
      return files as Workspace;
    },
    ordersWith: (prefix) => (served as Served).sandbox.orders().filter((order) => order.businessReference?.startsWith(prefix)),
  };
}

/** The rows of a results file, by column name (read with the CSV library the command writes it with). */
export const resultRows = (text: string): Array<Record<string, string>> =>
  Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;

/** A Deliver order row of a CSV with the header {@link HEADER}: a valid one unless `cod` says otherwise. */
export const HEADER =
  'type,businessReference,uniqueBusinessReference,receiver.firstName,receiver.lastName,receiver.phone,dropOffAddress.city,dropOffAddress.districtId,dropOffAddress.firstLine,cod';
export const row = (reference: string, { cod = '250', unique = `U-${reference}` }: { cod?: string; unique?: string } = {}): string =>
  `10,${reference},${unique},Mona,Adel,01012345678,Giza,district-eg-giza-dokki,"12 Tahrir Street, 3rd floor",${cod}`;
export const csv = (...rows: string[]): string => `${[HEADER, ...rows].join('\n')}\n`;

/** A request the {@link holdingProxy} received: when (`performance.now()` of this process), and what. */
export interface ProxiedRequest {
  at: number;
  method: string;
  url: string;
}

export interface HoldingProxy {
  baseUrl: string;
  /** Every request received, in order of arrival. */
  requests: ProxiedRequest[];
  /** Resolves once `count` bulk uploads are held. */
  held(count: number): Promise<void>;
  /** Lets the held uploads and every later request through. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A proxy before the sandbox that holds every bulk upload until `release()`, to stop an import
 * with requests in flight, and records when each request arrived.
 */
export async function holdingProxy(target: string): Promise<HoldingProxy> {
  const parked: Array<() => void> = [];
  const waiting = new Set<() => void>();
  const requests: ProxiedRequest[] = [];
  let open = false;
  const forward = async (request: IncomingMessage, body: Buffer, respond: (status: number, text: string) => void): Promise<void> => {
    const answer = await fetch(`${target}${request.url?.replace(/^\/v2/, '')}`, {
      method: request.method ?? 'GET',
      headers: { authorization: String(request.headers.authorization ?? ''), 'content-type': 'application/json' },
      ...(body.length > 0 ? { body: body.toString('utf8') } : {}),
    });
    respond(answer.status, await answer.text());
  };
  const server: Server = createServer((request, response) => {
    requests.push({ at: performance.now(), method: request.method ?? 'GET', url: request.url ?? '' });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const go = () =>
        void forward(request, Buffer.concat(chunks), (status, text) => {
          if (!response.destroyed) response.writeHead(status, { 'content-type': 'application/json' }).end(text);
        }).catch(() => response.destroy());
      if (open || !request.url?.includes('/deliveries/bulk')) return go();
      parked.push(go);
      for (const wake of waiting) wake();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`,
    requests,
    held: (count) =>
      new Promise((resolve) => {
        const check = (): void => void (parked.length >= count && (waiting.delete(check), resolve()));
        waiting.add(check);
        check();
      }),
    release: () => {
      open = true;
      for (const go of parked.splice(0)) go();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
