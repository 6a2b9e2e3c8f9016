import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionError, DeliveryClient, DeliveryType, ServerError } from '../../src/index.js';
import { createSandbox, type FaultOptions, type Sandbox, SandboxError } from '../../src/testing/index.js';
import { call, createOrder, dropOff, sandboxWithAccount } from '../support/sandbox.js';

let sandbox: Sandbox;
afterEach(async () => {
  vi.useRealTimers();
  await sandbox.close();
});

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
/** What seed 42 gives 40 requests at rate 0.5: about half faulted, every kind there. */
const SEED_42_COUNTS = [
  ['200', 20],
  ['429', 3],
  ['503', 5],
  ['drop', 7],
  ['malformed', 5],
];

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
    // The seed decides, request by request: these counts are the seed's, on every run and machine.
    const count = (outcome: string) => first.filter((o) => o === outcome).length;
    expect(['200', '429', '503', 'drop', 'malformed'].map((outcome) => [outcome, count(outcome)])).toEqual(SEED_42_COUNTS);
    expect(first.length).toBe(40);
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

  it('slow delays the answer by slowMs, on the clock the sandbox is given', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    sandbox = createSandbox();
    sandbox.injectFaults({ rate: 1, kinds: ['slow'], slowMs: 120 });
    let status: number | undefined;
    const answered = sandbox.fetch(`${sandbox.baseUrl}/cities`).then((response) => {
      status = response.status;
    });
    await vi.advanceTimersByTimeAsync(119);
    expect(status).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await answered;
    expect(status).toBe(200);
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

/** What a caller observes of one request: its status, `drop`, or `malformed`. */
async function outcomeOf(answer: Promise<Response>): Promise<string> {
  try {
    const response = await answer;
    const text = await response.text();
    try {
      JSON.parse(text);
    } catch {
      return 'malformed';
    }
    return String(response.status);
  } catch (err) {
    return err instanceof TypeError ? 'drop' : 'other';
  }
}

describe('a fault that targets one request (injectFault)', () => {
  const zones = (box: Sandbox, city = 'city-eg-giza') => outcomeOf(box.fetch(`${box.baseUrl}/cities/${city}/zones`));

  it('hits the next request of its method and path, once, and leaves every other request alone', async () => {
    ({ sandbox } = await sandboxWithAccount());
    const fault = sandbox.injectFault({ kind: 'drop-after', method: 'POST', path: '/deliveries' });
    expect(await outcomeOf(sandbox.fetch(`${sandbox.baseUrl}/cities`))).toBe('200');
    expect((await call(sandbox, 'POST', '/deliveries/search', {})).status).toBe(200); // another path
    await expect(createOrder(sandbox, { type: 10, dropOffAddress: dropOff, businessReference: 'lost' })).rejects.toThrow(TypeError);
    expect((await createOrder(sandbox, { type: 10, dropOffAddress: dropOff, businessReference: 'kept' })).status).toBe(201);
    // drop-after: the first create WAS made, its answer lost.
    expect(sandbox.orders().map((order) => order.businessReference)).toEqual(['lost', 'kept']);
    expect({ matched: fault.matched, hits: fault.hits }).toEqual({ matched: 2, hits: 1 });
  });

  it('hits the nth matching request and `times` of them, matching a RegExp path', async () => {
    sandbox = createSandbox();
    sandbox.injectFault({ kind: 'unavailable', method: 'get', path: /^\/cities\/[^/]+\/zones$/, nth: 2, times: 2 });
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      seen.push(await zones(sandbox));
      seen.push(await outcomeOf(sandbox.fetch(`${sandbox.baseUrl}/cities`))); // not matched, not counted
    }
    expect(seen).toEqual(['200', '200', '503', '200', '503', '200', '200', '200', '200', '200']);
  });

  it('hits every matching request with times: Infinity, until removed; clearFaults removes them all', async () => {
    sandbox = createSandbox();
    const every = sandbox.injectFault({ kind: 'rate-limit', path: '/cities', times: Number.POSITIVE_INFINITY, retryAfterSeconds: 3 });
    const response = await sandbox.fetch(`${sandbox.baseUrl}/cities`);
    expect([response.status, response.headers.get('retry-after')]).toEqual([429, '3']);
    expect(await outcomeOf(sandbox.fetch(`${sandbox.baseUrl}/cities`))).toBe('429');
    every.remove();
    expect(sandbox.injectedFaults()).toEqual([]);
    expect(await outcomeOf(sandbox.fetch(`${sandbox.baseUrl}/cities`))).toBe('200');
    expect(every.hits).toBe(2);

    sandbox.injectFault({ kind: 'unavailable', path: '/cities', times: Number.POSITIVE_INFINITY });
    sandbox.injectFault({ kind: 'drop-before', path: '/cities' });
    // The older fault comes first; the newer one counts the request, and waits for the next.
    expect(await outcomeOf(sandbox.fetch(`${sandbox.baseUrl}/cities`))).toBe('503');
    expect(sandbox.injectedFaults().map((fault) => [fault.kind, fault.matched, fault.hits])).toEqual([
      ['unavailable', 1, 1],
      ['drop-before', 1, 0],
    ]);
    every.remove(); // removed already: nothing happens
    expect(await outcomeOf(sandbox.fetch(`${sandbox.baseUrl}/cities`))).toBe('503');
    expect(sandbox.injectedFaults().map((fault) => [fault.kind, fault.matched, fault.hits])).toEqual([
      ['unavailable', 2, 2],
      ['drop-before', 2, 0],
    ]);
    sandbox.injectedFaults()[0]?.remove();
    expect(await outcomeOf(sandbox.fetch(`${sandbox.baseUrl}/cities`))).toBe('drop');
    sandbox.clearFaults();
    expect(sandbox.injectedFaults()).toEqual([]);
    expect(await outcomeOf(sandbox.fetch(`${sandbox.baseUrl}/cities`))).toBe('200');
  });

  it("targets one merchant's requests by apiKey", async () => {
    sandbox = createSandbox();
    const a = sandbox.createMerchant();
    const b = sandbox.createMerchant();
    sandbox.injectFault({ kind: 'unavailable', apiKey: b.apiKey, times: Number.POSITIVE_INFINITY });
    expect((await call(sandbox, 'GET', '/pickup-locations', undefined, a.apiKey)).status).toBe(200);
    expect((await call(sandbox, 'GET', '/pickup-locations', undefined, b.apiKey)).status).toBe(503);
  });

  it('shifts nothing the seeded share draws: each request still takes its draw', async () => {
    const run = async (targeted: boolean) => {
      const box = createSandbox();
      box.injectFaults(MIX);
      if (targeted) box.injectFault({ kind: 'slow', path: '/cities/city-eg-cairo/zones', slowMs: 0, times: Number.POSITIVE_INFINITY });
      const seen: string[] = [];
      for (let i = 0; i < 20; i++) {
        seen.push(await zones(box, 'city-eg-cairo')); // the targeted ones: slow, then answered
        seen.push(await zones(box));
      }
      await box.close();
      return seen.filter((_, i) => i % 2 === 1);
    };
    sandbox = createSandbox();
    expect(await run(true)).toEqual(await run(false));
  });

  it('lets a test recover a lost answer with the SDK: a create whose answer is dropped once resolves with its order', async () => {
    ({ sandbox } = await sandboxWithAccount());
    const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch });
    const order = { type: DeliveryType.Deliver, dropOffAddress: dropOff, cod: 250, businessReference: 'order-1042' } as const;

    const lost = sandbox.injectFault({ kind: 'drop-after', method: 'POST', path: '/deliveries' });
    const created = await client.deliveries.create({ ...order, uniqueBusinessReference: 'order-1042' });
    expect(lost.hits).toBe(1);
    expect(sandbox.orders().map((held) => [held.trackingNumber, held.businessReference])).toEqual([[created.trackingNumber, 'order-1042']]);

    // Without a uniqueBusinessReference the SDK cannot repeat a create safely: it says the order may exist.
    sandbox.injectFault({ kind: 'drop-after', method: 'POST', path: '/deliveries' });
    const error = await client.deliveries.create({ ...order, businessReference: 'order-1043' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ mayExist: true });
    expect(sandbox.orders().map((held) => held.businessReference)).toEqual(['order-1042', 'order-1043']);
  });

  it('gives the client what it would meet on the wire: a 503 retried, once, for a read', async () => {
    ({ sandbox } = await sandboxWithAccount());
    const created = await createOrder(sandbox, { type: 10, dropOffAddress: dropOff });
    const tn: string = created.body.data.trackingNumber;
    const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch, retryDelay: { base: 0, max: 0 } });
    const twice = sandbox.injectFault({ kind: 'unavailable', path: `/deliveries/business/${tn}`, times: 2 });
    expect((await client.deliveries.get(tn)).trackingNumber).toBe(tn); // attempts 1 and 2 hit, 3 answered
    expect(twice.hits).toBe(2);
    sandbox.injectFault({ kind: 'unavailable', path: `/deliveries/business/${tn}`, times: 3 });
    await expect(client.deliveries.get(tn)).rejects.toBeInstanceOf(ServerError);
  });

  it('refuses a fault it cannot apply, naming what is wrong', () => {
    sandbox = createSandbox();
    expect(() => sandbox.injectFault({ kind: 'explode' as 'slow' })).toThrow(/unknown fault 'explode'/);
    expect(() => sandbox.injectFault({ kind: 'slow', path: 'deliveries' })).toThrow(/must start with \//);
    expect(() => sandbox.injectFault({ kind: 'slow', path: '/deliveries?apiVersion=1' })).toThrow(/no query/);
    expect(() => sandbox.injectFault({ kind: 'slow', method: 'PO ST' })).toThrow(/method/);
    expect(() => sandbox.injectFault({ kind: 'slow', nth: 0 })).toThrow(/nth/);
    expect(() => sandbox.injectFault({ kind: 'slow', times: 1.5 })).toThrow(/times/);
    expect(() => sandbox.injectFault({ kind: 'slow', slowMs: -1 })).toThrow(/slowMs/);
    expect(sandbox.injectedFaults()).toEqual([]);
  });

  it('is served over HTTP by the control endpoints: POST /__sandbox/faults with a kind, GET /__sandbox/faults', async () => {
    sandbox = createSandbox();
    const server = await sandbox.listen();
    const control = server.baseUrl.replace(/\/v2$/, '/__sandbox/faults');
    const send = async (method: string, body?: unknown) => {
      const response = await fetch(control, {
        method,
        headers: { 'content-type': 'application/json', 'x-sandbox-token': server.controlToken },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    expect((await send('POST', { kind: 'drop-before', method: 'GET', path: '/cities' })).status).toBe(201);
    expect((await send('POST', { kind: 'unavailable', pathPattern: '^/cities/[^/]+/zones$', times: null })).status).toBe(201);
    await expect(fetch(`${server.baseUrl}/cities`)).rejects.toThrow(TypeError);
    expect((await fetch(`${server.baseUrl}/cities`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/cities/city-eg-giza/zones`)).status).toBe(503);
    expect((await send('GET')).body.data).toEqual([
      { kind: 'drop-before', method: 'GET', path: '/cities', nth: 1, times: 1, matched: 2, hits: 1 },
      { kind: 'unavailable', method: null, pathPattern: /^\/cities\/[^/]+\/zones$/.source, nth: 1, times: null, matched: 1, hits: 1 },
    ]);
    expect(await send('POST', { kind: 'slow', pathPattern: '(' })).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('not a regular expression') },
    });
    expect((await send('DELETE')).status).toBe(200);
    expect((await send('GET')).body.data).toEqual([]);
  });
});
