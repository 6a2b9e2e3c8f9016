// What a single create tells about the order it may have made: `mayExist` on every error, and a
// create carrying a `uniqueBusinessReference` that is idempotent when it can be. Faults are made
// by a fetch that stands between the client and the sandbox: deterministic, no timing.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CodLimitExceededError,
  ConnectionError,
  DeliveryClient,
  type DeliveryClientOptions,
  type DeliveryError,
  DeliveryType,
  DuplicateOrderError,
  type OrderInput,
  ServerError,
  TimeoutError,
} from '../../src/index.js';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { dropOff, setUpAccount } from '../support/sandbox.js';

const order = (extra: Record<string, unknown> = {}): OrderInput =>
  ({
    type: DeliveryType.Deliver,
    dropOffAddress: dropOff,
    receiver: { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' },
    cod: 250,
    businessReference: 'NILE-1042',
    ...extra,
  }) as OrderInput;

/** A connection reset as undici reports one. */
const reset = (): TypeError => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('other side closed'), { code: 'ECONNRESET' }) });
const refused = (): TypeError =>
  Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });

type Fault = 'lose-answer' | 'refuse-connection' | 'server-error';

/** The sandbox behind a fetch that applies `faults`, in turn, to the creates (POST /deliveries) it passes on. */
async function faultedSandbox(
  faults: Fault[],
  options: Partial<DeliveryClientOptions> = {},
): Promise<{ sandbox: Sandbox; client: DeliveryClient; sent: () => number }> {
  const sandbox = createSandbox();
  await setUpAccount(sandbox);
  let sent = 0;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (!(input instanceof Request)) return fetch(new Request(input, init));
    const creates = input.method === 'POST' && new URL(input.url).pathname.endsWith('/deliveries');
    if (!creates) return sandbox.fetch(input);
    sent += 1;
    const fault = faults.shift();
    if (fault === 'refuse-connection') throw refused();
    if (fault === 'server-error') {
      await sandbox.fetch(input); // acted on, then the gateway answered 502
      return new Response(JSON.stringify({ success: false, message: 'Bad gateway' }), { status: 502, headers: { 'content-type': 'application/json' } });
    }
    const answer = await sandbox.fetch(input);
    if (fault === 'lose-answer') throw reset();
    return answer;
  };
  const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch, retryDelay: { base: 1, max: 1 }, ...options });
  return { sandbox, client, sent: () => sent };
}

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  for (const sandbox of sandboxes.splice(0)) await sandbox.close();
});

async function setUp(faults: Fault[], options: Partial<DeliveryClientOptions> = {}) {
  const made = await faultedSandbox(faults, options);
  sandboxes.push(made.sandbox);
  return made;
}

describe('a create with uniqueBusinessReference is idempotent', () => {
  it('resolves with the order its first attempt created when that answer was lost and the repeat is refused as a repeat', async () => {
    const { sandbox, client, sent } = await setUp(['lose-answer']);
    const created = await client.deliveries.create(order({ uniqueBusinessReference: 'WC_1042' }));
    expect(sent()).toBe(2);
    expect(sandbox.orders()).toHaveLength(1);
    const [only] = sandbox.orders();
    expect(created).toMatchObject({ _id: only?._id, trackingNumber: only?.trackingNumber, businessReference: 'NILE-1042' });
  });

  it('does the same after a 5xx that hid a created order, and for fulfillment.create', async () => {
    const { sandbox, client } = await setUp(['server-error', 'lose-answer']);
    const first = await client.deliveries.create(order({ uniqueBusinessReference: 'WC_1' }));
    const second = await client.fulfillment.create({
      type: 'FXF_SEND',
      dropOffAddress: dropOff,
      receiver: { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' },
      fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 1 }] },
      uniqueBusinessReference: 'WC_2',
    });
    expect(sandbox.orders().map((o) => o.trackingNumber)).toEqual([first.trackingNumber, second.trackingNumber]);
  });

  it('.withResponse() answers with the response the order was read from', async () => {
    const { client } = await setUp(['lose-answer']);
    const { data, response } = await client.deliveries.create(order({ uniqueBusinessReference: 'WC_7' })).withResponse();
    expect(response.status).toBe(200);
    expect(data.trackingNumber).toMatch(/^\d+$/);
  });

  it('a reference used by an earlier call is a DuplicateOrderError carrying the existing order, mayExist false; nothing is created', async () => {
    const { sandbox, client } = await setUp([]);
    const yesterday = await client.deliveries.create(order({ uniqueBusinessReference: 'WC_9' }));
    const error = await client.deliveries.create(order({ uniqueBusinessReference: 'WC_9' })).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(DuplicateOrderError);
    expect(error).toMatchObject({ trackingNumber: yesterday.trackingNumber, uniqueBusinessReference: 'WC_9', mayExist: false, status: 400 });
    expect(sandbox.orders()).toHaveLength(1);
  });
});

describe('when the order cannot be read back', () => {
  it('the refusal itself is the answer, saying mayExist: a failed lookup never reads as "not created"', async () => {
    const sandbox = createSandbox();
    sandboxes.push(sandbox);
    await setUpAccount(sandbox);
    let creates = 0;
    const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (request.method === 'GET' && new URL(request.url).pathname.includes('/deliveries/business/')) throw refused();
      const answer = await sandbox.fetch(request);
      if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/deliveries') && ++creates === 1) throw reset();
      return answer;
    };
    const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch, retryDelay: { base: 1, max: 1 }, maxRetries: 1 });
    const error = await client.deliveries.create(order({ uniqueBusinessReference: 'WC_77' })).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(DuplicateOrderError);
    expect(error).toMatchObject({ mayExist: true, trackingNumber: sandbox.orders()[0]?.trackingNumber });
    expect(sandbox.orders()).toHaveLength(1);
  });
});

describe('mayExist on the errors of a call that creates something', () => {
  it('is true, and said in words, when the answer was lost after sending; the order was not sent again', async () => {
    const { sandbox, client, sent } = await setUp(['lose-answer']);
    const error = (await client.deliveries.create(order()).catch((err: unknown) => err)) as DeliveryError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.mayExist).toBe(true);
    expect(error.message).toMatch(/may have been acted on \(mayExist\)/);
    expect(sent()).toBe(1);
    expect(sandbox.orders()).toHaveLength(1);
  });

  it('is true after a 5xx, and after a timeout', async () => {
    const { client } = await setUp(['server-error']);
    const error = await client.deliveries.create(order()).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ mayExist: true });
    const slow = new DeliveryClient({ baseUrl: 'http://127.0.0.1:9/v2', apiKey: 'k', timeout: 50, fetch: () => new Promise<Response>(() => {}) });
    const timedOut = await slow.deliveries.create(order(), { validate: false }).catch((err: unknown) => err);
    expect(timedOut).toBeInstanceOf(TimeoutError);
    expect(timedOut).toMatchObject({ mayExist: true });
  });

  it('is false when the connection was refused (then retried: nothing had left), when the service refused with a code, and before sending', async () => {
    const { sandbox, client, sent } = await setUp(['refuse-connection', 'refuse-connection'], { maxRetries: 1 });
    const error = await client.deliveries.create(order()).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ mayExist: false });
    expect(sent()).toBe(2);
    const coded = await client.deliveries.create(order({ cod: 40_000 }), { validate: false }).catch((err: unknown) => err);
    expect(coded).toBeInstanceOf(CodLimitExceededError);
    expect(coded).toMatchObject({ source: 'server', mayExist: false });
    const local = await client.deliveries.create(order({ cod: 40_000 })).catch((err: unknown) => err);
    expect(local).toMatchObject({ source: 'client', mayExist: false });
    expect(sandbox.orders()).toHaveLength(0);
  });

  it('is false for reads, whatever happened on the way (a search is a POST that reads)', async () => {
    const client = new DeliveryClient({ baseUrl: 'http://127.0.0.1:9/v2', apiKey: 'k', maxRetries: 0, fetch: async () => Promise.reject(reset()) });
    for (const read of [
      () => client.deliveries.get('123456'),
      () => client.deliveries.search({ businessReference: 'x' }),
      () => client.lookup.cities({ countryId: 'eg' }),
    ]) {
      const error = await read().catch((err: unknown) => err);
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).toMatchObject({ mayExist: false });
    }
  });
});

describe('against an independent node:http service that loses answers', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))));

  it('the repeat refused as a repeat resolves with the order the refusal names, read from the service', async () => {
    const stored = new Map<string, Record<string, unknown>>();
    let creates = 0;
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
        if (req.method === 'POST' && req.url?.startsWith('/v2/deliveries?')) {
          creates += 1;
          const sent = JSON.parse(body) as Record<string, unknown>;
          const holder = [...stored.values()].find((o) => o['uniqueBusinessReference'] === sent['uniqueBusinessReference']);
          if (holder !== undefined)
            return json(400, {
              success: false,
              message: `uniqueBusinessReference '${String(sent['uniqueBusinessReference'])}' is already used by order ${String(holder['trackingNumber'])}`,
            });
          const record = {
            ...sent,
            _id: `id-${creates}`,
            trackingNumber: String(7_031_567_000 + creates),
            state: { code: 10, value: 'Pickup requested' },
            createdAt: new Date().toISOString(),
          };
          stored.set(record.trackingNumber, record);
          req.socket.destroy(); // created, and the answer lost
          return;
        }
        const found = req.method === 'GET' ? stored.get(req.url?.split('/').pop() ?? '') : undefined;
        if (found !== undefined) return json(200, { success: true, data: { ...found, type: { code: 10, value: 'Send' } } });
        json(404, { success: false, message: 'Not found' });
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = new DeliveryClient({ baseUrl: `http://127.0.0.1:${port}/v2`, apiKey: 'k', retryDelay: { base: 1, max: 1 } });
    const created = await client.deliveries.create(order({ uniqueBusinessReference: 'WC_55' }), { validate: false });
    expect(stored.size).toBe(1);
    expect(created).toMatchObject({ _id: 'id-1', trackingNumber: '7031567001', type: 10 });
  });

  it('a refusal that names no order: the order is found among those with its businessReference, page after page, and read', async () => {
    const day = 24 * 60 * 60_000;
    // Two earlier orders of the merchant with the same businessReference: neither holds this unique reference.
    const stored: Record<string, unknown>[] = [
      { _id: 'id-old', trackingNumber: '7031567100', businessReference: 'NILE-77', createdAt: new Date(Date.now() - 2 * day).toISOString() },
      {
        _id: 'id-other',
        trackingNumber: '7031567101',
        businessReference: 'NILE-77',
        uniqueBusinessReference: 'WC_OLD',
        createdAt: new Date(Date.now() - day).toISOString(),
      },
    ];
    const seen: string[] = [];
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
        seen.push(`${req.method} ${req.url?.split('?')[0]}${req.url?.endsWith('/search') ? ` ${body}` : ''}`);
        if (req.method === 'POST' && req.url?.startsWith('/v2/deliveries?')) {
          const sent = JSON.parse(body) as Record<string, unknown>;
          if (stored.some((o) => o['uniqueBusinessReference'] === sent['uniqueBusinessReference']))
            return json(400, { success: false, message: `uniqueBusinessReference '${String(sent['uniqueBusinessReference'])}' already exists` });
          stored.push({ ...sent, _id: 'id-new', trackingNumber: '7031567102', createdAt: new Date().toISOString() });
          req.socket.destroy(); // created, and the answer lost
          return;
        }
        if (req.method === 'POST' && req.url === '/v2/deliveries/search') {
          // Two orders a page, whatever was asked: the answer's own `limit` says what a full page is.
          const { businessReference, page } = JSON.parse(body) as { businessReference: string; page: number };
          const matching = stored.filter((o) => o['businessReference'] === businessReference);
          return json(200, { success: true, data: { deliveries: matching.slice((page - 1) * 2, page * 2), count: matching.length, page, limit: 2 } });
        }
        const found = req.method === 'GET' ? stored.find((o) => o['trackingNumber'] === req.url?.split('/').pop()) : undefined;
        if (found !== undefined) return json(200, { success: true, data: { ...found, type: { code: 10, value: 'Send' } } });
        json(404, { success: false, message: 'Not found' });
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = new DeliveryClient({ baseUrl: `http://127.0.0.1:${port}/v2`, apiKey: 'k', retryDelay: { base: 1, max: 1 } });
    const created = await client.deliveries.create(order({ businessReference: 'NILE-77', uniqueBusinessReference: 'WC_56' }), { validate: false });
    expect(created).toMatchObject({ _id: 'id-new', trackingNumber: '7031567102', uniqueBusinessReference: 'WC_56', type: 10 });
    expect(stored).toHaveLength(3);
    expect(seen).toEqual([
      'POST /v2/deliveries',
      'POST /v2/deliveries',
      'POST /v2/deliveries/search {"businessReference":"NILE-77","page":1,"limit":50}',
      'POST /v2/deliveries/search {"businessReference":"NILE-77","page":2,"limit":50}',
      'GET /v2/deliveries/business/7031567102',
    ]);
  });
});

describe('in bulk', () => {
  it('an order refused because its uniqueBusinessReference is held is created, with the tracking number the refusal names', async () => {
    const { sandbox, client } = await setUp([]);
    const earlier = await client.deliveries.create(order({ uniqueBusinessReference: 'WC_1', businessReference: 'NILE-1' }));
    const result = await client.deliveries.createBulk([
      order({ uniqueBusinessReference: 'WC_1', businessReference: 'NILE-1' }),
      order({ uniqueBusinessReference: 'WC_2', businessReference: 'NILE-2' }),
    ]);
    expect(result.failed).toEqual([]);
    expect(result.created[0]).toMatchObject({ index: 0, trackingNumber: earlier.trackingNumber, alreadyExisted: true });
    expect(result.created[1]).toMatchObject({ index: 1 });
    expect(result.created[1]?.alreadyExisted).toBeUndefined();
    expect(sandbox.orders()).toHaveLength(2);
  });
});

describe('leaving a streamBulk loop early', () => {
  it('reports every chunk sent to onSettled, the ones in flight included, and waits for them: every order the service holds was told', async () => {
    const sandbox = createSandbox();
    sandboxes.push(sandbox);
    await setUpAccount(sandbox);
    const gates: Array<() => void> = [];
    let gatesOpen = false;
    let bulkRequests = 0;
    const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (new URL(request.url).pathname.endsWith('/deliveries/bulk') && bulkRequests++ > 0 && !gatesOpen) await new Promise<void>((open) => gates.push(open));
      return sandbox.fetch(request);
    };
    const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch });
    function* rows() {
      for (let i = 0; i < 400; i++) yield order({ businessReference: `ROW-${i}` });
    }
    const settled: number[] = [];
    const told = new Set<string>();
    const loop = client.deliveries.streamBulk(rows(), {
      chunkSize: 100,
      concurrency: 4,
      onSettled: (chunk) => {
        settled.push(chunk.start);
        for (const created of chunk.created) told.add(String(created.businessReference));
      },
    });
    const first = await loop.next();
    expect(first.done).toBe(false);
    const leaving = loop.return(undefined); // `break`
    gatesOpen = true;
    for (const open of gates.splice(0)) open();
    await leaving;
    expect(bulkRequests).toBe(4);
    expect(settled.sort((a, b) => a - b)).toEqual([0, 100, 200, 300]);
    expect(sandbox.orders()).toHaveLength(400);
    expect(new Set(sandbox.orders().map((o) => o.businessReference))).toEqual(told);
  });
});
