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

  it('leaves other hosts alone', async () => {
    const handlers = sandboxHandlers(sandbox);
    expect(handlers.length).toBeGreaterThan(0);
    expect(handlers.every((h) => String(h.info.path).startsWith(sandbox.baseUrl))).toBe(true);
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
