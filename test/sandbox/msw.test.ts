import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryClient } from '../../src/client.js';
import { CodLimitExceededError, RateLimitError } from '../../src/errors/index.js';
import { createSandbox } from '../../src/testing/index.js';
import { sandboxHandlers } from '../../src/testing/msw.js';
import { dropOff, setUpAccount } from '../support/sandbox.js';

const sandbox = createSandbox();
const server = setupServer(...sandboxHandlers(sandbox));

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'bypass' });
  await setUpAccount(sandbox);
});
afterAll(async () => {
  server.close();
  await sandbox.close();
});

describe('in process with msw setupServer', () => {
  it('answers plain fetch calls to the sandbox base URL', async () => {
    const response = await fetch(`${sandbox.baseUrl}/cities/city-eg-giza/zones`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: Array<{ name: string }> }).data.map((z) => z.name)).toContain('Dokki');
  });

  it('leaves other hosts alone: a request to another host, even on the same path, reaches that host', async () => {
    const other = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ answeredBy: 'the other host', path: request.url }));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = other.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/v2/cities`);
      expect(await answer.json()).toEqual({ answeredBy: 'the other host', path: '/v2/cities' });
      // The same path under the sandbox's base URL is the sandbox's.
      expect((await fetch(`${sandbox.baseUrl}/cities`)).status).toBe(200);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('lets the DeliveryClient meet server-side coded errors, with validation off', async () => {
    const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, maxRetries: 0, validate: false });
    const error = await client
      .request({ method: 'POST', path: '/deliveries', query: { apiVersion: 1 }, body: { type: 10, dropOffAddress: dropOff, cod: 50_000 } })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(CodLimitExceededError);
    expect(error).toMatchObject({ source: 'server', status: 400, errorCode: 3007 });
  });

  it('turns an injected fault into what a real network would do', async () => {
    sandbox.injectFaults({ rate: 1, kinds: ['rate-limit'] });
    const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, maxRetries: 0 });
    await expect(client.request({ method: 'GET', path: '/cities' })).rejects.toBeInstanceOf(RateLimitError);
    sandbox.injectFaults({ rate: 1, kinds: ['drop-before'] });
    await expect(fetch(`${sandbox.baseUrl}/cities`)).rejects.toThrow(TypeError);
    sandbox.clearFaults();
  });
});
