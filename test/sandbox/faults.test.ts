import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type FaultOptions, type Sandbox, SandboxError } from '../../src/testing/index.js';
import { createOrder, dropOff, sandboxWithAccount } from '../support/sandbox.js';

let sandbox: Sandbox;
afterEach(() => sandbox.close());

/** What a caller observes for each of `count` lookup calls: a status, `drop`, or `malformed`. */
async function outcomes(box: Sandbox, count: number): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < count; i += 1) {
    try {
      const response = await box.fetch(`${box.baseUrl}/cities`);
      const text = await response.text();
      let json = true;
      try {
        JSON.parse(text);
      } catch {
        json = false;
      }
      seen.push(json ? String(response.status) : 'malformed');
    } catch (err) {
      seen.push(err instanceof TypeError ? 'drop' : 'other');
    }
  }
  return seen;
}

const MIX: FaultOptions = { rate: 0.5, kinds: ['rate-limit', 'unavailable', 'drop-before', 'malformed'], seed: 42 };

describe('fault injection', () => {
  it('is repeatable for a seed and differs for another', async () => {
    const run = async (options: FaultOptions) => {
      const box = createSandbox();
      box.injectFaults(options);
      const seen = await outcomes(box, 40);
      await box.close();
      return seen;
    };
    sandbox = createSandbox();
    const first = await run(MIX);
    expect(await run(MIX)).toEqual(first);
    expect(await run({ ...MIX, seed: 43 })).not.toEqual(first);
    // Roughly the rate asked for, and every kind shows up.
    const faulted = first.filter((o) => o !== '200').length;
    expect(faulted).toBeGreaterThan(8);
    expect(faulted).toBeLessThan(32);
    expect(new Set(first)).toEqual(new Set(['200', '429', '503', 'drop', 'malformed']));
  });

  it('rate-limit answers 429 with Retry-After in seconds', async () => {
    sandbox = createSandbox();
    sandbox.injectFaults({ rate: 1, kinds: ['rate-limit'], retryAfterSeconds: 2 });
    const response = await sandbox.fetch(`${sandbox.baseUrl}/cities`);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(await response.json()).toMatchObject({ success: false, data: null });
  });

  it('drop-before resets the connection and nothing happens', async () => {
    ({ sandbox } = await sandboxWithAccount());
    sandbox.injectFaults({ rate: 1, kinds: ['drop-before'] });
    await expect(createOrder(sandbox, { type: 10, dropOffAddress: dropOff })).rejects.toThrow(TypeError);
    expect(sandbox.orders()).toHaveLength(0);
  });

  it('drop-after resets the connection after the order IS created', async () => {
    ({ sandbox } = await sandboxWithAccount());
    sandbox.injectFaults({ rate: 1, kinds: ['drop-after'] });
    await expect(createOrder(sandbox, { type: 10, dropOffAddress: dropOff, businessReference: 'once' })).rejects.toThrow(TypeError);
    expect(sandbox.orders().map((o) => o.businessReference)).toEqual(['once']);
  });

  it('malformed processes the request and answers 200 with a body that is not JSON', async () => {
    ({ sandbox } = await sandboxWithAccount());
    sandbox.injectFaults({ rate: 1, kinds: ['malformed'] });
    const response = await sandbox.fetch(`${sandbox.baseUrl}/deliveries?apiVersion=1`, {
      method: 'POST',
      headers: { authorization: sandbox.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 10, dropOffAddress: dropOff }),
    });
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow();
    expect(sandbox.orders()).toHaveLength(1);
  });

  it('slow delays the answer', async () => {
    sandbox = createSandbox();
    sandbox.injectFaults({ rate: 1, kinds: ['slow'], slowMs: 120 });
    const started = Date.now();
    expect((await sandbox.fetch(`${sandbox.baseUrl}/cities`)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('drops the socket for real over HTTP', async () => {
    sandbox = createSandbox();
    const server = await sandbox.listen();
    sandbox.injectFaults({ rate: 1, kinds: ['drop-before'] });
    await expect(fetch(`${server.baseUrl}/cities`)).rejects.toThrow(TypeError);
    sandbox.clearFaults();
    expect((await fetch(`${server.baseUrl}/cities`)).status).toBe(200);
  });

  it('refuses bad settings', () => {
    sandbox = createSandbox();
    expect(() => sandbox.injectFaults({ rate: 2, kinds: ['slow'] })).toThrow(SandboxError);
    expect(() => sandbox.injectFaults({ rate: 0.5, kinds: [] })).toThrow(SandboxError);
    expect(() => sandbox.injectFaults({ rate: 0.5, kinds: ['explode' as 'slow'] })).toThrow(/unknown fault/);
  });
});
