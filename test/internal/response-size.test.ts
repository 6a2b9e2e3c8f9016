// An answer larger than maxResponseBytes fails the call with ResponseTooLargeError, without reading
// the rest: a Content-Length above the limit stops it at once, and a body without one (or one that
// says less than it decodes to) is counted as it streams and cancelled at the limit.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryClient, type DeliveryClientOptions, DeliveryError, ResponseTooLargeError } from '../../src/index.js';
import { rejection } from '../support/fake-service.js';

const KB = 1024;
const envelope = (data: unknown) => JSON.stringify({ success: true, data });
/** A JSON answer of about `bytes` bytes: a list of cities. */
const citiesOf = (bytes: number) => envelope(Array.from({ length: Math.ceil(bytes / 40) }, (_, i) => ({ _id: `city-${i}`, name: `City ${i}` })));

type Answer = (res: ServerResponse, ended: Promise<void>) => void;

/** Streams 1 KB chunks with no Content-Length until the client goes away, counting what was written. */
function endless(status: number, tally: { written: number }): Answer {
  return (res, ended) => {
    let open = true;
    void ended.then(() => (open = false));
    res.writeHead(status, { 'content-type': 'application/json' });
    res.write('{"success":true,"data":[');
    const chunk = `${'{"_id":"x","name":"y"},'.repeat(45)}`;
    const pump = (): void => {
      while (open && tally.written < 64 * 2 ** 20) {
        tally.written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
    };
    pump();
  };
}

describe('maxResponseBytes', () => {
  let answer: Answer = () => undefined;
  let requests = 0;
  let closed: Promise<void> = Promise.resolve();
  let baseUrl = '';
  const server = createServer((req, res) => {
    requests++;
    closed = new Promise((resolve) => res.once('close', resolve));
    req.resume();
    answer(res, closed);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
  });
  afterAll(async () => {
    server.closeAllConnections(); // the client's idle keep-alive connections too, instead of waiting for them to time out
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => (requests = 0));

  const client = (options: Partial<DeliveryClientOptions> = {}) =>
    new DeliveryClient({
      baseUrl,
      apiKey: 'sk_live_size_test',
      maxRetries: 2,
      retryDelay: { base: 1, max: 2 },
      cache: false,
      totalTimeout: 15_000,
      ...options,
    });

  const failure = (call: Promise<unknown>): Promise<DeliveryError> => rejection(call, DeliveryError);

  it('reads an answer up to the limit', async () => {
    const body = citiesOf(900);
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(KB);
    await expect(client({ maxResponseBytes: KB }).lookup.cities({ countryId: 'eg' })).resolves.toHaveLength(23);
  });

  it('refuses a Content-Length above the limit before reading the body, and does not ask again', async () => {
    const tally = { written: 0 };
    answer = (res, ended) => {
      res.setHeader('content-length', String(100 * 2 ** 20));
      endless(200, tally)(res, ended);
    };
    const error = await failure(client({ maxResponseBytes: KB }).lookup.cities({ countryId: 'eg' }));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ status: 200, maxResponseBytes: KB, request: { method: 'GET' } });
    expect(error.message).toMatch(/maxResponseBytes \(1024 bytes\)/);
    await closed;
    expect(requests).toBe(1);
  });

  it('stops an answer without Content-Length at the limit, and cancels the rest', async () => {
    const tally = { written: 0 };
    answer = endless(200, tally);
    const error = await failure(client({ maxResponseBytes: KB }).lookup.cities({ countryId: 'eg' }));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    // The server saw the connection go away: the client did not read to the end (there is none).
    await closed;
    expect(tally.written).toBeLessThan(64 * 2 ** 20);
    expect(requests).toBe(1);
  });

  it('counts the decoded bytes: a gzip body whose Content-Length is under the limit but inflates past it is refused', async () => {
    const compressed = gzipSync(envelope([{ _id: 'city-1', name: 'x'.repeat(200 * KB) }]));
    expect(compressed.length).toBeLessThan(2 * KB);
    answer = (res) =>
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(compressed.length) }).end(compressed);
    const error = await failure(client({ maxResponseBytes: 16 * KB }).lookup.cities({ countryId: 'eg' }));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
  });

  it('applies to error answers too (a 503 is not asked again for the same huge page)', async () => {
    answer = endless(503, { written: 0 });
    const error = await failure(client({ maxResponseBytes: KB }).lookup.cities({ countryId: 'eg' }));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ status: 503 });
    expect(requests).toBe(1);
  });

  it('takes a per-call limit over the client one, both ways', async () => {
    const body = citiesOf(4 * KB);
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    await expect(client({ maxResponseBytes: KB }).lookup.cities({ countryId: 'eg' }, { maxResponseBytes: 8 * KB })).resolves.toHaveLength(103);
    expect(await failure(client().lookup.cities({ countryId: 'eg' }, { maxResponseBytes: KB }))).toBeInstanceOf(ResponseTooLargeError);
  });

  it('says, for a create, that the order may exist', async () => {
    answer = endless(201, { written: 0 });
    const error = await failure(client({ maxResponseBytes: KB }).request({ method: 'POST', path: '/deliveries', body: {} }));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ mayExist: true });
    expect(error.message).toMatch(/may have been acted on \(mayExist\)/);
  });

  it('defaults to 10 MB, and refuses a limit that is not a number >= 0', async () => {
    // A Content-Length one byte over the default is refused before the body, so no 10 MB are streamed to prove it.
    answer = (res, ended) => {
      res.setHeader('content-length', String(10 * 2 ** 20 + 1));
      endless(200, { written: 0 })(res, ended);
    };
    const error = await failure(client().lookup.cities({ countryId: 'eg' }));
    expect(error).toMatchObject({ name: 'ResponseTooLargeError', maxResponseBytes: 10 * 2 ** 20 });
    expect(() => client({ maxResponseBytes: -1 })).toThrow(/maxResponseBytes/);
    await expect(client().lookup.cities({ countryId: 'eg' }, { maxResponseBytes: '1kb' as never })).rejects.toThrow(/maxResponseBytes/);
  });
});
