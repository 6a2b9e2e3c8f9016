// The command sends the SDK's User-Agent with ` cli` after it: the service tells the command's
// requests from a program's. A server on loopback records what arrives.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuilt, run } from './cli.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

beforeAll(() => requireBuilt());

describe('delivery-sdk and the service', () => {
  it(`sends "delivery-sdk/${version} (Node.js <version>; <platform>) cli" as its User-Agent`, async () => {
    const agents: Array<string | undefined> = [];
    const server = createServer((request, response) => {
      agents.push(request.headers['user-agent']);
      const record = { _id: 'o1', trackingNumber: '70000001', state: { code: 10, value: 'Pickup requested' }, type: { code: 10, value: 'SEND' } };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, data: record }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
      const ran = await run(['orders', 'get', '70000001'], { DELIVERY_BASE_URL: baseUrl, DELIVERY_API_KEY: 'cli-agent-key' });
      expect(ran.code, ran.stderr).toBe(0);
    } finally {
      server.close();
    }
    expect(agents).toEqual([`delivery-sdk/${version} (Node.js ${process.versions.node}; ${process.platform}) cli`]);
  });
});
