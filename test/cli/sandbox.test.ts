import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';

const start = (...args: string[]): ChildProcessWithoutNullStreams => spawn(process.execPath, ['--import', 'tsx', 'src/cli/sandbox.ts', ...args]);

/**
 * Time for a CLI started through tsx to print its URL or exit: a second alone, many on a loaded
 * machine (tsx compiles the sources first).
 */
const START_MS = 60_000;

/** The base URL the CLI prints once it listens. */
function printedBaseUrl(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no base URL printed: ${out}`)), START_MS);
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/v2)/.exec(out);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
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
  it('starts a server on 127.0.0.1, prints its base URL, answers, and stops on SIGTERM', async () => {
    const child = start('--port', '0', '--api-key', 'cli-key');
    try {
      const baseUrl = await printedBaseUrl(child);
      const cities = await fetch(`${baseUrl}/cities`);
      expect(cities.status).toBe(200);
      const business = await fetch(`${baseUrl}/businesses`, {
        method: 'POST',
        headers: { authorization: 'cli-key', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'CLI shop' }),
      });
      expect(business.status).toBe(201);
      const orders = await fetch(`${baseUrl.replace(/\/v2$/, '')}/__sandbox/orders`);
      expect(((await orders.json()) as { data: unknown[] }).data).toEqual([]);
    } finally {
      await stop(child);
    }
  });

  it('--cors lets a page of that origin call the API; another origin gets 403', async () => {
    const child = start('--port', '0', '--cors', 'https://app.example:3000', '--webhook-host', 'hooks.example');
    try {
      const baseUrl = await printedBaseUrl(child);
      const allowed = await fetch(`${baseUrl}/cities`, { headers: { origin: 'https://app.example:3000' } });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example:3000');
      expect((await fetch(`${baseUrl}/cities`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
      const hook = await fetch(`${baseUrl.replace(/\/v2$/, '')}/__sandbox/webhook`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
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
      const child = start('--port', String(port));
      try {
        const printed = await printedBaseUrl(child).catch((error: Error) => {
          if (attempt < 3 && /EADDRINUSE/.test(error.message)) return undefined;
          throw error;
        });
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
    const child = start('--port', '0', flag, value);
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(err).toContain(flag);
  });
});
