/** Runs benchmark scripts in fresh Node processes and collects the one JSON result each sends. */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = (name) => fileURLToPath(new URL(`./${name}`, import.meta.url));

/** Runs `name` with `input`; resolves to the result it sends over IPC before exiting. */
export function runChild(name, input, { execArgv = [] } = {}) {
  return new Promise((resolve, reject) => {
    const child = fork(script(name), [JSON.stringify(input)], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result;
    child.on('message', (message) => {
      result = message;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0 && result !== undefined) resolve(result);
      else reject(new Error(`bench/lib/${name} exited with code ${code}${result?.error ? `: ${result.error}` : ''}`));
    });
  });
}

/** Starts a long-lived server script; resolves to `{ info, stop }` once it reports where it listens. */
export function startServer(name, input = {}, { execArgv = [] } = {}) {
  return new Promise((resolve, reject) => {
    const child = fork(script(name), [JSON.stringify(input)], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const onExit = (code) => reject(new Error(`bench/lib/${name} exited with code ${code} before listening`));
    child.once('exit', onExit);
    child.once('error', reject);
    child.once('message', (info) => {
      child.off('exit', onExit);
      const stop = () =>
        new Promise((done) => {
          if (child.exitCode !== null) return done();
          child.once('exit', () => done());
          child.kill();
        });
      resolve({ info, stop });
    });
  });
}

/** For child scripts: parse the input, run `main`, send its result and exit. */
export async function childMain(main) {
  try {
    const result = await main(JSON.parse(process.argv[2] ?? '{}'));
    process.send(result, () => process.exit(0));
  } catch (error) {
    console.error(error);
    process.send({ error: String(error?.message ?? error) }, () => process.exit(1));
  }
}
