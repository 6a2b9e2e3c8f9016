import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';

const start = (...args: string[]): ChildProcessWithoutNullStreams => spawn(process.execPath, ['--import', 'tsx', 'src/cli/sandbox.ts', ...args]);

/** The base URL the CLI prints once it listens. */
function printedBaseUrl(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no base URL printed: ${out}`)), 8000);
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

describe('delivery-sdk-sandbox CLI', () => {
  it('starts a server on 127.0.0.1, prints its base URL, answers, and stops on SIGTERM', async () => {
    const child = start('--port', '0', '--api-key', 'cli-key');
    try {
      const baseUrl = await printedBaseUrl(child);
      const cities = await fetch(`${baseUrl}/cities`);
      expect(cities.status).toBe(200);
      const business = await fetch(`${baseUrl}/businesses`, { method: 'POST', headers: { authorization: 'cli-key', 'content-type': 'application/json' }, body: JSON.stringify({ name: 'CLI shop' }) });
      expect(business.status).toBe(201);
      const orders = await fetch(`${baseUrl.replace(/\/v2$/, '')}/__sandbox/orders`);
      expect(((await orders.json()) as { data: unknown[] }).data).toEqual([]);
    } finally {
      await stop(child);
    }
  });

  it('listens on the port given with --port', async () => {
    const port = await freePort();
    const child = start('--port', String(port));
    try {
      expect(await printedBaseUrl(child)).toBe(`http://127.0.0.1:${port}/v2`);
      expect((await fetch(`http://127.0.0.1:${port}/v2/cities`)).status).toBe(200);
    } finally {
      await stop(child);
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
