import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const start = (args: string[] = [], env: Record<string, string> = {}): ChildProcessWithoutNullStreams =>
  spawn(process.execPath, ['--import', 'tsx', 'src/cli/sandbox.ts', ...args], { env: { ...process.env, ...env } });

/**
 * Time for a CLI started through tsx to print its URL or exit: a second alone, many on a loaded
 * machine (tsx compiles the sources first).
 */
const START_MS = 60_000;

interface Started {
  baseUrl: string;
  /** The control token, as printed. */
  token: string;
  /** The file the CLI says it wrote the token to. */
  tokenFile: string;
  /** What it wrote to stdout and stderr until it was ready. */
  output: string;
}

/** What the CLI prints once it listens: the base URL, the control token and its file. */
function started(child: ChildProcessWithoutNullStreams): Promise<Started> {
  return new Promise<Started>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no base URL printed: ${out}`)), START_MS);
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /(http:\/\/127\.0\.0\.1:\d+\/v2)/.exec(out)?.[1];
      const token = /X-Sandbox-Token\): ([A-Za-z0-9_-]+), also in (\S+) /.exec(out);
      if (url !== undefined && token?.[1] !== undefined && token[2] !== undefined) {
        clearTimeout(timer);
        resolve({ baseUrl: url, token: token[1], tokenFile: token[2], output: out });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${out}`));
    });
  });
}

async function stop(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A port free a moment ago (the OS picks it, the probe lets it go). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

describe('delivery-sdk-sandbox CLI', { timeout: START_MS + 30_000 }, () => {
  it('starts a server on 127.0.0.1, prints its base URL and control token, answers, and stops on SIGTERM', async () => {
    const child = start(['--port', '0'], { DELIVERY_SANDBOX_API_KEY: 'cli-key' });
    let tokenFile = '';
    try {
      const { baseUrl, token, output, ...rest } = await started(child);
      tokenFile = rest.tokenFile;
      expect(output).not.toMatch(/visible to every user/);
      // The dashboard's URL, on the same origin, signs a browser in.
      const dashboard = new URL(/Dashboard \(open it in a browser on this machine; the link signs it in\): (\S+)/.exec(output)?.[1] ?? '');
      expect(dashboard.origin).toBe(new URL(baseUrl).origin);
      const login = await fetch(dashboard, { redirect: 'manual' });
      expect([login.status, login.headers.get('location'), login.headers.get('set-cookie')]).toEqual([303, '/__dashboard/', expect.stringMatching(/HttpOnly/)]);
      const cities = await fetch(`${baseUrl}/cities`);
      expect(cities.status).toBe(200);
      const business = await fetch(`${baseUrl}/businesses`, {
        method: 'POST',
        headers: { authorization: 'cli-key', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'CLI shop' }),
      });
      expect(business.status).toBe(201);
      const control = `${baseUrl.replace(/\/v2$/, '')}/__sandbox/orders`;
      // Another process of this machine, without the token, or with a wrong one: refused.
      expect((await fetch(control)).status).toBe(401);
      expect((await fetch(control, { headers: { 'x-sandbox-token': 'guess' } })).status).toBe(401);
      const orders = await fetch(control, { headers: { 'x-sandbox-token': token } });
      expect(((await orders.json()) as { data: unknown[] }).data).toEqual([]);
      // The token's file holds it, and only its owner may read it.
      expect(readFileSync(tokenFile, 'utf8').trim()).toBe(token);
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      // In a directory of its own that only its owner may enter or write to, not at a path another user can guess.
      expect(dirname(tokenFile)).not.toBe(tmpdir());
      expect(dirname(dirname(tokenFile))).toBe(tmpdir());
      expect(statSync(dirname(tokenFile)).mode & 0o777).toBe(0o700);
    } finally {
      await stop(child);
    }
    expect(existsSync(tokenFile)).toBe(false);
    expect(existsSync(dirname(tokenFile))).toBe(false);
  });

  it('starts although another user planted a file and a directory where the token file used to go (issue 40)', async () => {
    const port = await freePort();
    const planted = [join(tmpdir(), `delivery-sdk-sandbox-${port}.token`), join(tmpdir(), 'delivery-sdk-sandbox-')];
    mkdirSync(planted[0] as string, { recursive: true });
    writeFileSync(join(planted[0] as string, 'blocker'), 'x');
    writeFileSync(planted[1] as string, 'x');
    const child = start(['--port', String(port)]);
    try {
      const { tokenFile, token } = await started(child);
      expect(readFileSync(tokenFile, 'utf8').trim()).toBe(token);
      expect(planted.every((path) => existsSync(path))).toBe(true);
    } finally {
      await stop(child);
      for (const path of planted) rmSync(path, { recursive: true, force: true });
    }
  });

  it('refuses a --control-token-file it cannot write before it serves anything: a planted directory crashes no running sandbox', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
    try {
      const planted = join(dir, 'sandbox.token');
      mkdirSync(planted);
      writeFileSync(join(planted, 'blocker'), 'x');
      const child = start(['--port', '0', '--control-token-file', planted]);
      let output = '';
      for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => void (output += chunk.toString()));
      const code = await new Promise((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(output).toContain(`--control-token-file: cannot write the token to ${planted}`);
      expect(output).not.toContain('listening on');
      expect(output).not.toMatch(/\n\s+at /);
      expect(existsSync(join(planted, 'blocker'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the API key and the webhook secret from files or the environment; given as arguments they work, with a warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, 'file-key\n');
    const fromFile = start(['--port', '0', '--api-key-file', keyFile, '--control-token-file', join(dir, 'token')]);
    try {
      const { baseUrl, output, tokenFile } = await started(fromFile);
      expect(output).toContain('API key: file-key');
      expect(output).not.toMatch(/visible to every user/);
      expect(tokenFile).toBe(join(dir, 'token'));
      expect(
        (
          await fetch(`${baseUrl}/businesses`, {
            method: 'POST',
            headers: { authorization: 'file-key', 'content-type': 'application/json' },
            body: '{"name":"A"}',
          })
        ).status,
      ).toBe(201);
    } finally {
      await stop(fromFile);
    }
    const fromArgument = start([
      '--port',
      '0',
      '--api-key',
      'argv-key',
      '--webhook-url',
      'http://127.0.0.1:9/h',
      '--webhook-header-name',
      'X-Key',
      '--webhook-header-value',
      'argv-secret',
    ]);
    try {
      const { output } = await started(fromArgument);
      expect(output).toMatch(/--api-key is visible to every user of this machine/);
      expect(output).toMatch(/--webhook-header-value is visible to every user of this machine/);
    } finally {
      await stop(fromArgument);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--cors lets a page of that origin call the API; another origin gets 403', async () => {
    const child = start(['--port', '0', '--cors', 'https://app.example:3000', '--webhook-host', 'hooks.example']);
    try {
      const { baseUrl, token } = await started(child);
      const allowed = await fetch(`${baseUrl}/cities`, { headers: { origin: 'https://app.example:3000' } });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example:3000');
      expect((await fetch(`${baseUrl}/cities`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
      const hook = await fetch(`${baseUrl.replace(/\/v2$/, '')}/__sandbox/webhook`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-sandbox-token': token },
        body: JSON.stringify({ url: 'https://hooks.example/delivery' }),
      });
      expect(hook.status).toBe(200);
    } finally {
      await stop(child);
    }
  });

  it('listens on the port given with --port', async () => {
    // Another process may take the free port before the CLI binds it: then try another.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const child = start(['--port', String(port)]);
      try {
        const printed = await started(child).then(
          ({ baseUrl }) => baseUrl,
          (error: Error) => {
            if (attempt < 3 && /EADDRINUSE/.test(error.message)) return undefined;
            throw error;
          },
        );
        if (printed === undefined) continue;
        expect(printed).toBe(`http://127.0.0.1:${port}/v2`);
        expect((await fetch(`http://127.0.0.1:${port}/v2/cities`)).status).toBe(200);
        return;
      } finally {
        await stop(child);
      }
    }
  });

  it.each([
    ['--port', 'abc'],
    ['--port', ''],
    ['--port', '70000'],
    ['--port', '40.5'],
    ['--seed', 'abc'],
  ])('exits 1 naming the flag for %s %j', async (flag, value) => {
    const child = start(['--port', '0', flag, value]);
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(err).toContain(flag);
  });
});

describe('in a clone of the repository', () => {
  it(
    '`npm run sandbox` starts the CLI from the sources, with nothing built',
    async () => {
      const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'sandbox', '--', '--help'], { env: process.env });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(0);
      expect(out).toContain('Usage: delivery-sdk-sandbox');
    },
    START_MS,
  );
});
