import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('delivery-sdk-sandbox CLI', () => {
  it('starts a server on 127.0.0.1, prints its base URL, answers, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/sandbox.ts', '--port', '0', '--api-key', 'cli-key'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
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
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      const cities = await fetch(`${baseUrl}/cities`);
      expect(cities.status).toBe(200);
      const business = await fetch(`${baseUrl}/businesses`, { method: 'POST', headers: { authorization: 'cli-key', 'content-type': 'application/json' }, body: JSON.stringify({ name: 'CLI shop' }) });
      expect(business.status).toBe(201);
      const orders = await fetch(`${baseUrl.replace(/\/v2$/, '')}/__sandbox/orders`);
      expect(((await orders.json()) as { data: unknown[] }).data).toEqual([]);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
