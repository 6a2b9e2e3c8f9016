// Reads that page end, and searches find what was created: against an independent node:http
// service that ignores `page` or never answers a short page, and against the sandbox.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError, DeliveryClient, DeliveryType, type OrderInput, PagingError, TimeoutError, ValidationError } from '../../src/index.js';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { dropOff, setUpAccount } from '../support/sandbox.js';

let server: Server | undefined;
let searches = 0;
afterEach(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A search endpoint answering every request with `page(n)` for the n-th request, full pages of 50. */
async function searchService(pageOf: (request: number, body: Record<string, unknown>) => unknown[]): Promise<DeliveryClient> {
  searches = 0;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      searches += 1;
      const deliveries = pageOf(searches, JSON.parse(body) as Record<string, unknown>);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, data: { deliveries, count: 0, page: 1, limit: 50 } }));
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new DeliveryClient({ baseUrl: `http://127.0.0.1:${port}/v2`, apiKey: 'k', maxRetries: 0 });
}

const fullPage = (first: number, reference = 'other') =>
  Array.from({ length: 50 }, (_, i) => ({ _id: `id-${first + i}`, trackingNumber: String(first + i), businessReference: reference }));

describe('paging is bounded', () => {
  it('a service that ignores page ends list, findByReference and resolveTrackingNumbers with a PagingError after the second page', async () => {
    const client = await searchService(() => fullPage(1000));
    const listed: string[] = [];
    const error = await (async () => {
      for await (const order of client.deliveries.list()) listed.push(order.trackingNumber);
    })().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(PagingError);
    expect(error).toMatchObject({ page: 2, message: expect.stringContaining('ignored paging') });
    expect(listed).toHaveLength(50);
    expect(searches).toBe(2);
    await expect(client.deliveries.findByReference('NILE-1')).rejects.toBeInstanceOf(PagingError);
    const resolved = await client.deliveries.resolveTrackingNumbers(
      { created: [], failed: [{ index: 0, error: new TimeoutError('lost'), mayExist: true }], createdIds: [] },
      { orders: [{ businessReference: 'NILE-1' }] },
    );
    expect(resolved.unresolved[0]?.reason).toBeInstanceOf(PagingError);
  });

  it('a service that never answers a short page ends at maxPages (default 1,000)', async () => {
    const client = await searchService((request) => fullPage(request * 100));
    const error = await (async () => {
      for await (const _ of client.deliveries.list({}, { maxPages: 3 })) void _;
    })().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(PagingError);
    expect(error).toMatchObject({ message: expect.stringContaining('maxPages (3)') });
    expect(searches).toBe(3);
    await expect(client.deliveries.list({}, { maxPages: 0 }).next()).rejects.toBeInstanceOf(ConfigurationError);
  });

  it('totalTimeout bounds a whole findByReference, every page of it', async () => {
    const client = await searchService((request) => fullPage(request * 100, 'NILE-1'));
    const error = await client.deliveries.findByReference('NILE-1', { totalTimeout: 200, maxPages: Number.MAX_SAFE_INTEGER }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(TimeoutError);
  });
});

describe('searches find what was created', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox?.close());
  const order = (extra: Record<string, unknown>): OrderInput =>
    ({
      type: DeliveryType.Deliver,
      dropOffAddress: dropOff,
      receiver: { firstName: 'Mona', lastName: 'Adel', phone: '+201011112222' },
      cod: 10,
      ...extra,
    }) as OrderInput;

  async function client(): Promise<DeliveryClient> {
    sandbox = createSandbox();
    await setUpAccount(sandbox);
    return new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch });
  }

  it('findByReference refuses a reference with a comma, saying why, rather than missing the order', async () => {
    const c = await client();
    await c.deliveries.create(order({ businessReference: 'A,B' }));
    const error = await c.deliveries.findByReference('A,B').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]).toMatchObject({ path: ['businessReference'], message: expect.stringContaining('comma') });
  });

  it('a phone finds the order whichever way it was typed: 0…, +20…, with spaces, in Arabic-Indic digits', async () => {
    const c = await client();
    const created = await c.deliveries.create(order({ receiver: { firstName: 'Mona', lastName: 'Adel', phone: '+201011112222' } }));
    const other = await c.deliveries.create(order({ receiver: { firstName: 'Ali', lastName: 'Omar', phone: '01033334444' } }));
    for (const phone of ['01011112222', '+201011112222', '010 1111 2222', '٠١٠١١١١٢٢٢٢']) {
      const { deliveries } = await c.deliveries.search({ mobilePhones: phone });
      expect(deliveries.map((d) => d.trackingNumber)).toEqual([created.trackingNumber]);
    }
    const { deliveries } = await c.deliveries.search({ mobilePhones: ['+201033334444'] });
    expect(deliveries.map((d) => d.trackingNumber)).toEqual([other.trackingNumber]);
  });
});
