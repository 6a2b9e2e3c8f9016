// A real redis-server (Debian's package) for the tracker store's tests: its own process on a free
// loopback port, no persistence, stopped by the test that started it.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** How to get redis-server, for the messages of a run without it. */
export const INSTALL_REDIS = 'install redis-server (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis)';

/**
 * The redis-server binary: `REDIS_SERVER_BIN` when set, else the first `redis-server` on PATH that
 * runs; `undefined` when there is none.
 */
export const REDIS_SERVER = (
  process.env['REDIS_SERVER_BIN'] === undefined
    ? (process.env['PATH'] ?? '').split(delimiter).map((dir) => join(dir, 'redis-server'))
    : [process.env['REDIS_SERVER_BIN']]
).find((file) => file !== '' && spawnSync(file, ['--version']).status === 0);

/**
 * Outside CI a machine without redis-server skips these tests; in CI (`.ci/run` installs it) its
 * absence fails them, so that they are never skipped unnoticed.
 */
export const SKIP_WITHOUT_REDIS = REDIS_SERVER === undefined && process.env['CI'] !== 'true';

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops the server; with `keepData`, it first writes its data to its own folder, for {@link RedisServer.start} to load (a restart). */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /** Starts it again on the same port and folder. */
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  dispose(): Promise<void>;
}

export async function startRedisServer(): Promise<RedisServer> {
  if (REDIS_SERVER === undefined)
    throw new Error(`redis-server not found: the Redis tracker tests need it, and CI=true forbids skipping them; ${INSTALL_REDIS}`);
  const binary = REDIS_SERVER;
  const dir = mkdtempSync(join(tmpdir(), 'delivery-sdk-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    // `--save ''` and no AOF: nothing is written unless a test asks for it (SHUTDOWN SAVE).
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--dbfilename',
      'restart.rdb',
      '--daemonize',
      'no',
      '--loglevel',
      'warning',
    ];
    const started = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not accept connections within 20 s: ${output}`)), 20_000);
      const ready = async (): Promise<void> => {
        // Bounded: 200 tries, 100 ms apart at most.
        for (let i = 0; i < 200 && started.exitCode === null; i++) {
          if (await answersPing(port)) {
            clearTimeout(timer);
            resolve();
            return;
          }
          await new Promise((next) => setTimeout(next, 100));
        }
      };
      started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      started.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}) before accepting connections: ${output}`));
      });
      void ready();
    });
  };

  const halt = async (keepData: boolean): Promise<void> => {
    const running = child;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    if (keepData) await command(port, ['SHUTDOWN', 'SAVE']).catch(() => undefined);
    else running.kill('SIGKILL');
    const timer = setTimeout(() => running.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  // A free port can be taken between this check and redis-server's bind: try a few.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
  const killOnExit = (): void => {
    child?.kill('SIGKILL');
  };
  process.once('exit', killOnExit);

  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: (options = {}) => halt(options.keepData === true),
    start: launch,
    async dispose() {
      await halt(false);
      process.off('exit', killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Sends one command in RESP over a fresh connection and returns the first reply line. */
export async function command(port: number, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.setTimeout(5_000, () => socket.destroy(new Error(`redis ${args[0]}: no answer in 5 s`)));
    socket.once('error', reject);
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) {
        socket.end();
        resolve(reply.split('\r\n')[0] ?? '');
      }
    });
    socket.once('close', () => resolve(reply.split('\r\n')[0] ?? ''));
    socket.write(`*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`);
  });
}

async function answersPing(port: number): Promise<boolean> {
  try {
    return (await command(port, ['PING'])) === '+PONG';
  } catch {
    return false;
  }
}
