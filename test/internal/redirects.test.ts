// A redirect never carries the key or a body off baseUrl's origin: the client refuses every 3xx
// with a RedirectError naming the status and Location, and sends nothing to where it points.
// Two node:http servers on 127.0.0.1 are two origins; an https one shows the downgrade to http://.
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryClient, type DeliveryClientOptions, DeliveryType, RedirectError } from '../../src/index.js';

const KEY = 'sk_live_SECRET_do_not_leak_42';
const order = {
  type: DeliveryType.Deliver,
  dropOffAddress: { city: 'Giza', districtId: 'district-eg-giza-dokki', firstLine: '12 Tahrir Street, 3rd floor' },
  cod: 250,
} as const;

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A server on 127.0.0.1 that records every request and answers with `answer`. */
async function recordingServer(
  answer: (request: Received) => { status: number; headers?: Record<string, string>; body?: string },
  tls?: { key: Buffer; cert: Buffer },
) {
  const received: Received[] = [];
  const listener: RequestListener = (req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      received.push(request);
      const { status, headers = {}, body: out = '' } = answer(request);
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(out);
    });
  };
  const server: Server = tls === undefined ? createHttpServer(listener) : createHttpsServer(tls, listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { received, origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

type Recording = Awaited<ReturnType<typeof recordingServer>>;

/** Every way the key can be configured: the ones the SDK knows as the key, and a key put in `headers`. */
const AUTHS: Array<[string, Partial<DeliveryClientOptions>]> = [
  ['Authorization: <key> (the default)', { apiKey: KEY }],
  ['a custom header name', { apiKey: KEY, auth: { headerName: 'X-Api-Key' } }],
  ['a scheme', { apiKey: KEY, auth: { scheme: 'Bearer' } }],
  ['the key in `headers`', { headers: { 'X-Api-Key': KEY } }],
];
const STATUSES = [301, 302, 303, 307, 308];

async function failureOf(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => new Error('expected the call to fail'),
    (error: unknown) => error,
  );
}

describe('a redirect to another origin is refused, and nothing reaches that origin', () => {
  let other: Recording;
  let api: Recording;
  let status = 302;
  beforeAll(async () => {
    other = await recordingServer(() => ({ status: 200, body: JSON.stringify({ success: true, data: [] }) }));
    api = await recordingServer((request) => ({ status, headers: { location: `${other.origin}${request.url}` } }));
  });
  afterAll(async () => Promise.all([other.close(), api.close()]));
  beforeEach(() => {
    other.received.length = 0;
    api.received.length = 0;
  });

  for (const [authName, auth] of AUTHS) {
    it.each(STATUSES)(`${authName}: %i, for a GET and for a create with its body`, async (redirectStatus) => {
      status = redirectStatus;
      const client = new DeliveryClient({ baseUrl: `${api.origin}/v2`, maxRetries: 2, retryDelay: { base: 1, max: 2 }, ...auth });
      // Both in flight at once, each with its handler from the start.
      const failures = await Promise.all([
        failureOf(client.lookup.cities({ countryId: 'eg' })),
        failureOf(client.deliveries.create(order, { validate: false })),
      ]);
      for (const error of failures) {
        expect(error).toBeInstanceOf(RedirectError);
        const redirect = error as RedirectError;
        expect(redirect.status).toBe(redirectStatus);
        expect(redirect.location).toMatch(new RegExp(`^${other.origin}/v2/`));
        expect(redirect.message).toContain(String(redirectStatus));
        expect(redirect.message).toContain(other.origin);
      }
      // Asked once each (a redirect is not retried), and the other origin never heard of it.
      expect(api.received.map((request) => request.method).sort()).toEqual(['GET', 'POST']);
      expect(api.received.find((request) => request.method === 'POST')?.body).toContain('Tahrir');
      expect(other.received).toEqual([]);
    });
  }

  it('a redirect to the same origin is refused too: baseUrl is out of date, and a 303 would turn a create into a GET', async () => {
    const same = await recordingServer((request) =>
      request.url.startsWith('/v3/') ? { status: 200, body: '{"success":true,"data":{}}' } : { status: 303, headers: { location: '/v3/deliveries' } },
    );
    try {
      const client = new DeliveryClient({ baseUrl: `${same.origin}/v2`, apiKey: KEY });
      const error = await failureOf(client.deliveries.create(order, { validate: false }));
      expect(error).toBeInstanceOf(RedirectError);
      expect((error as RedirectError).location).toBe('/v3/deliveries');
      expect(same.received.map((request) => `${request.method} ${request.url}`)).toEqual(['POST /v2/deliveries?apiVersion=1']);
    } finally {
      await same.close();
    }
  });
});

describe('an https API that redirects to http:// is not followed in clear', () => {
  const tls = {
    key: readFileSync(new URL('../fixtures/tls/loopback-key.pem', import.meta.url)),
    cert: readFileSync(new URL('../fixtures/tls/loopback-cert.pem', import.meta.url)),
  };
  let plain: Recording;
  let api: Recording;
  let trustingFetch: typeof fetch;
  beforeAll(async () => {
    plain = await recordingServer(() => ({ status: 200, body: JSON.stringify({ success: true, data: [] }) }));
    api = await recordingServer((request) => ({ status: 301, headers: { location: `${plain.origin}${request.url}` } }), tls);
    // Node's fetch takes no CA, only an undici dispatcher; its Agent class is reached through the
    // global dispatcher, which Node creates on its first fetch.
    await fetch(`${plain.origin}/warm-up`);
    plain.received.length = 0;
    const Agent = (globalThis as Record<symbol, { constructor: new (options: unknown) => unknown } | undefined>)[Symbol.for('undici.globalDispatcher.1')]
      ?.constructor;
    if (Agent === undefined) throw new Error("Node's undici global dispatcher was not found");
    const dispatcher = new Agent({ connect: { ca: tls.cert } });
    trustingFetch = ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, { ...init, dispatcher } as RequestInit)) as typeof fetch;
  });
  afterAll(async () => Promise.all([plain.close(), api.close()]));

  it.each(AUTHS)('%s', async (_, auth) => {
    api.received.length = 0;
    const client = new DeliveryClient({ baseUrl: `${api.origin}/v2`, fetch: trustingFetch, ...auth });
    // The https server answers at all: the certificate is trusted, so only the redirect is refused.
    const error = await failureOf(client.deliveries.create(order, { validate: false }));
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2\/deliveries/);
    expect(api.received).toHaveLength(1);
    expect(plain.received).toEqual([]);
  });
});

describe('in a browser, where a refused redirect is opaque', () => {
  it('still ends in a RedirectError, with status 0 and no location', async () => {
    // What fetch answers with `redirect: 'manual'` in a browser: type 'opaqueredirect', status 0, no headers.
    const opaque = (): Response => {
      const response = new Response(null);
      for (const [name, value] of Object.entries({ type: 'opaqueredirect', status: 0, ok: false, clone: opaque }))
        Object.defineProperty(response, name, { value });
      return response;
    };
    const asked: RequestRedirect[] = [];
    const fetch = (async (input: Request) => (asked.push(input.redirect), opaque())) as unknown as typeof globalThis.fetch;
    const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2', apiKey: KEY, fetch });
    const error = await failureOf(client.lookup.cities({ countryId: 'eg' }));
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toMatchObject({ status: 0, location: undefined });
    expect(asked).toEqual(['manual']);
  });
});
