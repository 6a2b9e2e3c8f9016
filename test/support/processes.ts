import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));

/** Collects what an example prints. */
export function collector(): { write(text: string): void; text(): string; lines(): string[] } {
  let text = '';
  return {
    write: (chunk) => void (text += chunk),
    text: () => text,
    lines: () => text.split('\n'),
  };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command from the repository root, as a user would, and waits for its exit. */
export function runFromRoot(file: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Finished> {
  return new Promise((resolve) => {
    // Without DELIVERY_BASE_URL an example serves its own sandbox: a developer's setting must not leak in.
    const { DELIVERY_BASE_URL: _url, DELIVERY_API_KEY: _key, ...inherited } = process.env;
    execFile(file, [...args], { cwd: ROOT, env: { ...inherited, NO_COLOR: '1', ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

/** `npx tsx <args>` from the repository root, through this repository's tsx. */
export function tsx(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Finished> {
  return runFromRoot(process.execPath, [TSX, ...args], env);
}

/** A long-running example started with tsx from the repository root. */
export interface Running {
  /** Resolves with the first match of `pattern` in its output so far or to come. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  output(): string;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startTsx(args: readonly string[], env: NodeJS.ProcessEnv = {}): Running {
  const { DELIVERY_BASE_URL: _url, DELIVERY_API_KEY: _key, ...inherited } = process.env;
  // Node directly with tsx's loader, so the signal reaches the example itself.
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const waiters = new Set<() => void>();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const onData = (chunk: Buffer): void => {
    output += chunk.toString('utf8');
    for (const wake of waiters) wake();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return {
    output: () => output,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const match = pattern.exec(output);
          if (match === null) return;
          waiters.delete(check);
          resolve(match);
        };
        waiters.add(check);
        check();
        void exited.then((code) => {
          if (waiters.delete(check)) reject(new Error(`exited (${code}) before printing ${pattern}:\n${output}`));
        });
      }),
    stop: async (signal = 'SIGINT') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
