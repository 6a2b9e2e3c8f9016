// The User-Agent the client sends: `delivery-sdk/<version> (<runtime> <version>; <platform>)` from
// Node.js, Deno and Bun, nothing from a browser page (setting it there forces a CORS preflight),
// with the product tokens of `userAgent` after it (the CLI's ` cli`).
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, CountryId, DeliveryClient } from '../../src/index.js';
import { userAgentOf } from '../../src/internal/user-agent.js';
import { clientOnFetch, ok } from '../support/fake-service.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const NODE_AGENT = `delivery-sdk/${version} (Node.js ${process.versions.node}; ${process.platform})`;

/** The User-Agent of the one request a client built by `options` sends. */
async function agentSent(options: Partial<ConstructorParameters<typeof DeliveryClient>[0]> = {}): Promise<string | null> {
  const { client, sent } = clientOnFetch(() => ok([]), options);
  await client.lookup.cities({ countryId: CountryId.Egypt });
  return sent[0]?.headers.get('user-agent') ?? null;
}

describe('the User-Agent', () => {
  it("goes over the wire from Node.js: the SDK's version from package.json, the runtime's version and the platform", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = new DeliveryClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`, apiKey: 'k' });
      await client.lookup.cities({ countryId: CountryId.Egypt });
    } finally {
      server.close();
    }
    expect(seen.map((headers) => headers['user-agent'])).toEqual([NODE_AGENT]);
  });

  it('names Deno and Bun by their own versions, as each names itself in `process.versions`', () => {
    const versions = { node: '22.11.0' };
    expect(userAgentOf({ process: { versions: { ...versions, deno: '2.1.4' }, platform: 'darwin' } })).toBe(`delivery-sdk/${version} (Deno 2.1.4; darwin)`);
    expect(userAgentOf({ process: { versions: { ...versions, bun: '1.1.38' }, platform: 'linux' } })).toBe(`delivery-sdk/${version} (Bun 1.1.38; linux)`);
    expect(userAgentOf({ process: { versions, platform: 'win32' } })).toBe(`delivery-sdk/${version} (Node.js 22.11.0; win32)`);
  });

  it('is none in a page (a document exists, Electron’s renderer too), nor where no runtime is recognised (a bundler’s `process` shim)', () => {
    expect(userAgentOf({ process: { versions: { node: '22.11.0' }, platform: 'linux' }, document: {} })).toBeUndefined();
    expect(userAgentOf({ process: { versions: {} } })).toBeUndefined();
    expect(userAgentOf({})).toBeUndefined();
  });

  it("carries the product tokens of `userAgent` after it: the command line's `cli`", async () => {
    expect(await agentSent({ userAgent: 'cli' })).toBe(`${NODE_AGENT} cli`);
    expect(await agentSent({ userAgent: 'shop-sync/2.3 (+https://shop.example)' })).toBe(`${NODE_AGENT} shop-sync/2.3 (+https://shop.example)`);
  });

  it("gives way to the caller's own user-agent header, whatever its case", async () => {
    expect(await agentSent({ headers: { 'User-Agent': 'my-app/1' }, userAgent: 'cli' })).toBe('my-app/1');
  });

  it('refuses a `userAgent` no header could carry (a CR or LF that would split the request, a number), naming the option', async () => {
    for (const userAgent of ['cli\r\nx-evil: 1', 'a\nb', 42]) {
      expect(() => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', userAgent: userAgent as string })).toThrow(ConfigurationError);
      expect(() => new DeliveryClient({ baseUrl: 'https://api.example.com/v2', userAgent: userAgent as string })).toThrow(/`userAgent`/);
    }
    expect(await agentSent({ userAgent: '' })).toBe(NODE_AGENT);
  });
});
