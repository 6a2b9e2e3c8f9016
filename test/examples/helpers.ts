import { execFile } from 'node:child_process';
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
