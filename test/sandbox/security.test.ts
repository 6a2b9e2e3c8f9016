import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isControlPeerAllowed } from '../../src/testing/control.js';
import { createSandbox, SANDBOX_COUNTRY_IDS, SandboxError, type SandboxServer } from '../../src/testing/index.js';
import type { Peer } from '../../src/testing/wire.js';
import { dropOff, setUpAccount } from '../support/sandbox.js';

// Every request here goes to 127.0.0.1; the peer rule for other addresses is tested as a decision.
const sandbox = createSandbox({ apiKey: 'k' });
let server: SandboxServer;
beforeAll(async () => {
  server = await sandbox.listen();
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.clearFaults());

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request to 127.0.0.1 with exactly these headers (Host included), through node:http. */
function send(method: string, path: string, headers: OutgoingHttpHeaders = {}, body?: string | Uint8Array): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const own = { host: `127.0.0.1:${server.port}`, 'x-sandbox-token': server.controlToken };
    const req = httpRequest({ host: '127.0.0.1', port: server.port, method, path, headers: { ...own, ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Bytes written as they are to 127.0.0.1, for request lines no HTTP client sends; the status of the answer. */
function sendRaw(head: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () =>
      socket.write(`${head}\r\nHost: 127.0.0.1:${server.port}\r\nX-Sandbox-Token: ${server.controlToken}\r\nConnection: close\r\n\r\n`),
    );
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
    socket.on('error', reject);
  });
}

const corsHeaders = (headers: IncomingHttpHeaders): string[] => Object.keys(headers).filter((name) => name.startsWith('access-control-'));

describe('control endpoints answer only a client holding the token listen() returned', () => {
  const tokenless = { 'x-sandbox-token': '' };

  it('refuses a second client on this machine without the token, or with a wrong one: 401, nothing read or changed', async () => {
    const phone = '+201009998887';
    const json = { 'content-type': 'application/json' };
    const admin = {
      email: 'owner@nile.example',
      password: 'pw-123456',
      profile: { firstName: 'M', lastName: 'A', phone },
      countryId: SANDBOX_COUNTRY_IDS.egypt,
    };
    await send('POST', '/v2/users/business/admin', json, JSON.stringify(admin));
    await send('POST', '/v2/users/business-admin/phone/verify', json, JSON.stringify({ phone }));
    sandbox.setWebhook({ url: 'http://127.0.0.1:9/hooks', headerName: 'X-Webhook-Secret', headerValue: 'webhook-secret-value' });
    const otpPath = `/__sandbox/otp?phone=${encodeURIComponent(phone)}`;
    for (const headers of [tokenless, { 'x-sandbox-token': 'guess' }, { 'x-sandbox-token': `${server.controlToken}x` }]) {
      for (const [method, path, body] of [
        ['GET', otpPath],
        ['GET', '/__sandbox/webhooks'],
        ['PUT', '/__sandbox/webhook', JSON.stringify({ url: 'http://127.0.0.1:8/elsewhere' })],
        ['POST', '/__sandbox/faults', JSON.stringify({ rate: 1, kinds: ['unavailable'] })],
      ] as const) {
        const answer = await send(method, path, { ...headers, 'content-type': 'application/json' }, body);
        expect(answer.status, `${method} ${path}`).toBe(401);
        expect(answer.body).not.toContain('webhook-secret-value');
        expect(answer.body).not.toMatch(/"otp":"\d{6}"/);
      }
    }
    // Nothing changed: the webhook and the faults are as they were.
    expect((await send('GET', '/v2/cities?countryId=60e4482c7cb7d4bc4849c4d5')).status).toBe(200);
    const hooks = await send('GET', '/__sandbox/webhooks');
    expect(hooks.status).toBe(200);
    const otp = await send('GET', otpPath);
    expect(JSON.parse(otp.body).data.otp).toMatch(/^\d{6}$/);
    sandbox.setWebhook(null);
  });

  it('gives each sandbox a token of its own, the same in listen() and sandbox.controlToken, long enough not to guess', () => {
    const other = createSandbox();
    expect(server.controlToken).toBe(sandbox.controlToken);
    expect(other.controlToken).not.toBe(sandbox.controlToken);
    expect(sandbox.controlToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('needs no token in process: sandbox.fetch serves no control endpoint, and the methods are the sandbox object', async () => {
    expect((await sandbox.fetch(`${sandbox.baseUrl.replace(/\/v2$/, '')}/__sandbox/orders`)).status).toBe(404);
    expect(Array.isArray(sandbox.orders())).toBe(true);
  });
});

describe('control endpoints answer this machine only', () => {
  const peer = (remoteAddress: string | undefined, host: string | undefined, origin?: string): Peer => ({ remoteAddress, host, origin });

  it.each<[string, Peer]>([
    ['127.0.0.1 asking for 127.0.0.1:4010', peer('127.0.0.1', '127.0.0.1:4010')],
    ['another 127/8 address', peer('127.0.0.2', '127.0.0.1:4010')],
    ['::1 asking for [::1]:4010', peer('::1', '[::1]:4010')],
    ['IPv4-mapped loopback asking for localhost', peer('::ffff:127.0.0.1', 'localhost:4010')],
    ['localhost without a port', peer('127.0.0.1', 'localhost')],
    ['a name under .localhost', peer('127.0.0.1', 'sandbox.localhost:4010')],
    ['a browser page served from this machine', peer('127.0.0.1', 'localhost:4010', 'http://localhost:5173')],
  ])('allowed: %s', (_, input) => {
    expect(isControlPeerAllowed(input)).toBe(true);
  });

  it.each<[string, Peer]>([
    ['a LAN peer, whatever Host it names', peer('192.168.1.20', 'localhost:4010')],
    ['a LAN peer over IPv4-mapped IPv6', peer('::ffff:192.168.1.20', '127.0.0.1:4010')],
    ['an IPv6 peer', peer('fe80::1', '[::1]:4010')],
    ['no remote address (a closed socket)', peer(undefined, 'localhost:4010')],
    ['a loopback peer with a foreign Host (DNS rebinding)', peer('127.0.0.1', 'rebind.attacker.example:4010')],
    ['a loopback peer with no Host', peer('127.0.0.1', undefined)],
    ['an empty Host', peer('127.0.0.1', '')],
    ['a Host that only starts like loopback', peer('127.0.0.1', '127.0.0.1.attacker.example')],
    ['a Host that only starts like localhost', peer('127.0.0.1', 'localhost.attacker.example:4010')],
    ['a Host with junk after the address', peer('127.0.0.1', '[::1]attacker:4010')],
    ['two Hosts joined', peer('127.0.0.1', 'localhost:4010, attacker.example')],
    ['a cross-site page (a form or no-cors fetch)', peer('127.0.0.1', '127.0.0.1:4010', 'https://attacker.example')],
    ['an opaque origin', peer('127.0.0.1', '127.0.0.1:4010', 'null')],
  ])('refused: %s', (_, input) => {
    expect(isControlPeerAllowed(input)).toBe(false);
  });

  it('403 over 127.0.0.1 with a foreign Host; nothing read or changed', async () => {
    const refused = await send(
      'POST',
      '/__sandbox/faults',
      { host: 'rebind.attacker.example', 'content-type': 'application/json' },
      JSON.stringify({ rate: 1, kinds: ['unavailable'] }),
    );
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ success: false, message: expect.stringContaining('this machine only') });
    expect((await send('GET', '/__sandbox/otp?phone=%2B201009998887', { host: 'rebind.attacker.example' })).status).toBe(403);
    expect((await send('GET', '/v2/cities')).status).toBe(200);
  });

  it('403 to a cross-site Origin, 200 to the same request from this machine', async () => {
    const faults = JSON.stringify({ rate: 1, kinds: ['unavailable'] });
    expect((await send('POST', '/__sandbox/faults', { origin: 'https://attacker.example', 'content-type': 'text/plain' }, faults)).status).toBe(403);
    expect((await send('GET', '/v2/cities')).status).toBe(200);
    expect((await send('POST', '/__sandbox/faults', { host: `localhost:${server.port}`, 'content-type': 'application/json' }, faults)).status).toBe(200);
    expect((await send('GET', '/v2/cities')).status).toBe(503);
  });

  it('control answers carry no CORS headers, nor does the preflight of PUT /__sandbox/webhook; the API keeps its CORS', async () => {
    const orders = await send('GET', '/__sandbox/orders');
    expect(orders.status).toBe(200);
    expect(corsHeaders(orders.headers)).toEqual([]);
    const preflight = { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' };
    const controlPreflight = await send('OPTIONS', '/__sandbox/webhook', preflight);
    expect(corsHeaders(controlPreflight.headers)).toEqual([]);
    expect(corsHeaders((await send('GET', '/__sandbox/orders', { host: 'attacker.example' })).headers)).toEqual([]);
    const apiPreflight = await send('OPTIONS', '/v2/deliveries', preflight);
    expect(apiPreflight.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });
});

describe("the API routes (/v2) answer this machine's pages, not any web page", () => {
  const business = JSON.stringify({
    name: 'Nile Shop',
    salesChannel: 'FACEBOOK_SELLER',
    website: 'https://nile.example',
    industry: 'Fashion',
    interestedInServices: ['SEND'],
  });
  const asPage = (origin: string): OutgoingHttpHeaders => ({ origin, authorization: 'k', 'content-type': 'application/json' });

  it('403 without CORS headers for a foreign Origin (POST /v2/businesses from https://evil.example), and its preflight', async () => {
    const before = sandbox.orders().length;
    const created = await send('POST', '/v2/businesses', asPage('https://evil.example'), business);
    expect(created.status).toBe(403);
    expect(corsHeaders(created.headers)).toEqual([]);
    const preflight = await send('OPTIONS', '/v2/businesses', {
      origin: 'https://evil.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    });
    expect(preflight.status).toBe(403);
    expect(corsHeaders(preflight.headers)).toEqual([]);
    expect(sandbox.orders()).toHaveLength(before);
  });

  it('403 for a foreign Host (DNS rebinding), whatever the Origin', async () => {
    const answer = await send('GET', '/v2/cities', { host: 'attacker.example:4010', authorization: 'k' });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ message: expect.stringContaining('allowedHosts') });
  });

  it('a loopback page gets its own origin back (not *), and a caller without Origin gets no CORS headers', async () => {
    const page = await send('POST', '/v2/businesses', asPage('http://localhost:5173'), business);
    expect(page.status).toBe(201);
    expect(page.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(page.headers['vary']).toMatch(/Origin/);
    const plain = await send('GET', '/v2/cities', { authorization: 'k' });
    expect(plain.status).toBe(200);
    expect(corsHeaders(plain.headers)).toEqual([]);
  });

  it('listen({ cors, allowedHosts }) lets the origins and names the developer gives in; bad entries are a SandboxError', async () => {
    const other = createSandbox({ apiKey: 'k' });
    try {
      const served = await other.listen({ cors: ['https://app.example:3000'], allowedHosts: ['sandbox'] });
      const get = (headers: OutgoingHttpHeaders): Promise<RawAnswer> =>
        new Promise((resolve, reject) => {
          const req = httpRequest(
            { host: '127.0.0.1', port: served.port, method: 'GET', path: '/v2/cities', headers: { authorization: 'k', ...headers } },
            (res) => {
              res.resume();
              res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' }));
            },
          );
          req.on('error', reject);
          req.end();
        });
      const allowed = await get({ host: `sandbox:${served.port}`, origin: 'https://app.example:3000' });
      expect(allowed.status).toBe(200);
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example:3000');
      expect((await get({ host: `sandbox:${served.port}`, origin: 'https://app.example:4000' })).status).toBe(403);
      expect((await get({ host: `10.0.0.5:${served.port}` })).status).toBe(200);
    } finally {
      await other.close();
    }
    await expect(other.listen({ cors: ['app.example'] })).rejects.toThrow(/cors/);
    await expect(other.listen({ cors: ['https://app.example/path'] })).rejects.toThrow(/cors/);
    await expect(other.listen({ allowedHosts: ['sandbox:4010'] })).rejects.toThrow(/allowedHosts/);
  });
});

describe('webhooks to link-local addresses are refused', () => {
  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://169.254.0.1:8080/hooks',
    'http://2852039166/',
    'http://[fe80::1]/hooks',
    'http://[febf::1]/',
    'http://[::ffff:169.254.169.254]/',
  ])('setWebhook(%s)', (url) => {
    expect(() => sandbox.setWebhook({ url })).toThrow(SandboxError);
    expect(() => sandbox.setWebhook({ url })).toThrow(/link-local/);
  });

  it('loopback receivers stay allowed', () => {
    for (const url of ['http://127.0.0.1:3000/hooks', 'http://[::1]:3000/', 'http://localhost:3000/', 'http://shop.localhost/'])
      expect(() => sandbox.setWebhook({ url })).not.toThrow();
    sandbox.setWebhook(null);
  });
});

describe('webhooks go to loopback receivers and the hosts the developer names, nowhere else', () => {
  it.each(['http://10.0.0.1/hooks', 'http://192.168.1.20:8080/', 'http://[fec0::1]/', 'http://169.254.169.254.nip.io/latest', 'https://shop.example/hooks'])(
    'setWebhook(%s): a SandboxError naming the host and the option',
    (url) => {
      const error = (() => {
        try {
          sandbox.setWebhook({ url });
        } catch (err) {
          return err;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(SandboxError);
      expect((error as Error).message).toContain(new URL(url).hostname);
      expect((error as Error).message).toContain('webhookHosts');
    },
  );

  it("an order's own webhookUrl there is logged as not sent, and nothing is sent", async () => {
    const calls: string[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL) => {
      calls.push(String(input));
      return new Response(null, { status: 200 });
    }) as typeof fetch;
    try {
      const guarded = createSandbox({ apiKey: 'k' });
      await setUpAccount(guarded);
      const created = await guarded.fetch(`${guarded.baseUrl}/deliveries?apiVersion=1`, {
        method: 'POST',
        headers: { authorization: guarded.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 10, dropOffAddress: dropOff, cod: 10, webhookUrl: 'http://10.0.0.1/hooks' }),
      });
      const { data } = (await created.json()) as { data: { trackingNumber: string } };
      await guarded.advance(data.trackingNumber, { to: 20 });
      expect(guarded.webhookLog().at(-1)).toMatchObject({ status: 'failed', attempts: [{ error: expect.stringContaining('webhookHosts') }] });
      expect(calls.filter((url) => url.includes('10.0.0.1'))).toEqual([]);
      await guarded.close();
    } finally {
      globalThis.fetch = original;
    }
  });

  it('createSandbox({ webhookHosts }) lets named hosts in (link-local ones never); a malformed entry is a SandboxError', () => {
    const named = createSandbox({ webhookHosts: ['hooks.example', '10.0.0.1', '169.254.169.254'] });
    expect(() => named.setWebhook({ url: 'https://hooks.example/delivery' })).not.toThrow();
    expect(() => named.setWebhook({ url: 'http://10.0.0.1:8080/' })).not.toThrow();
    expect(() => named.setWebhook({ url: 'http://169.254.169.254/' })).toThrow(/link-local/);
    expect(() => named.setWebhook({ url: 'https://other.example/' })).toThrow(/other\.example/);
    expect(() => createSandbox({ webhookHosts: ['https://hooks.example'] })).toThrow(SandboxError);
    expect(() => createSandbox({ webhookHosts: ['hooks.example:443'] })).toThrow(/webhookHosts/);
  });

  it('with webhookFetch (no network) any host is accepted', () => {
    const inProcess = createSandbox({ webhookFetch: async () => new Response(null, { status: 200 }) });
    expect(() => inProcess.setWebhook({ url: 'https://shop.example/hooks' })).not.toThrow();
  });

  it('PUT /__sandbox/webhook answers 400', async () => {
    const answer = await send('PUT', '/__sandbox/webhook', { 'content-type': 'application/json' }, JSON.stringify({ url: 'http://169.254.169.254/latest' }));
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('link-local');
  });

  it("an order's own webhookUrl there is never called; the log says why", async () => {
    const webhookFetch = vi.fn(() => Promise.resolve(new Response('ok')));
    const local = createSandbox({ webhookFetch });
    try {
      await setUpAccount(local);
      const created = await local.fetch(`${local.baseUrl}/deliveries?apiVersion=1`, {
        method: 'POST',
        headers: { authorization: local.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 10, dropOffAddress: dropOff, cod: 10, webhookUrl: 'http://169.254.169.254/hooks' }),
      });
      const { data } = (await created.json()) as { data: { trackingNumber: string } };
      await local.advance(data.trackingNumber, { to: 20 });
      expect(webhookFetch).not.toHaveBeenCalled();
      expect(local.webhookLog()[0]).toMatchObject({ status: 'failed', attempts: [{ error: expect.stringContaining('link-local') }] });
    } finally {
      await local.close();
    }
  });
});

describe('bodies: the key without waiting for them, and at most maxBodyBytes of them', () => {
  it('401 without the key without waiting for the body: the answer comes while the upload is still open', async () => {
    const answer = await new Promise<number>((resolve, reject) => {
      const upload = httpRequest(
        {
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: '/v2/deliveries',
          headers: { 'content-type': 'application/json', 'content-length': String(200 * 1024 * 1024) },
        },
        (res) => {
          resolve(res.statusCode ?? 0);
          upload.destroy();
        },
      );
      upload.on('error', (err) => (upload.destroyed ? undefined : reject(err)));
      upload.write('{"type":10,');
    });
    expect(answer).toBe(401);
  });

  it('413 past the default 1 MiB, by Content-Length or while reading a chunked body', async () => {
    const big = `{"padding":"${'x'.repeat(1_100_000)}"}`;
    const declared = await send('POST', '/v2/deliveries', { authorization: 'k', 'content-type': 'application/json' }, big);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toMatchObject({ success: false, message: expect.stringContaining(`${1024 * 1024} bytes`) });
    const chunked = await send('POST', '/v2/deliveries', { authorization: 'k', 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, big);
    expect(chunked.status).toBe(413);
    expect((await send('GET', '/v2/cities')).status).toBe(200);
  });

  it('maxBodyBytes sets the cap, for the API and the control endpoints alike', async () => {
    const small = createSandbox({ apiKey: 'k' });
    const smallServer = await small.listen({ maxBodyBytes: 1024 });
    try {
      const post = (path: string, body: string) =>
        fetch(`${smallServer.baseUrl.replace(/\/v2$/, '')}${path}`, {
          method: 'POST',
          headers: { authorization: 'k', 'content-type': 'application/json', 'x-sandbox-token': smallServer.controlToken },
          body,
        });
      expect((await post('/v2/businesses', JSON.stringify({ name: 'x'.repeat(2000) }))).status).toBe(413);
      expect((await post('/v2/businesses', JSON.stringify({ name: 'Nile Shop' }))).status).toBe(201);
      expect((await post('/__sandbox/faults', JSON.stringify({ rate: 1, kinds: ['unavailable'], padding: 'x'.repeat(2000) }))).status).toBe(413);
    } finally {
      await small.close();
    }
    await expect(small.listen({ maxBodyBytes: 0 })).rejects.toThrow(/maxBodyBytes/);
  });
});

describe('a body deadline', () => {
  it('408 and a closed connection for a body that does not arrive within bodyTimeoutMs (a slow upload)', async () => {
    const other = createSandbox({ apiKey: 'k' });
    try {
      const served = await other.listen({ bodyTimeoutMs: 100 });
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const socket = connect(served.port, '127.0.0.1', () =>
          socket.write(
            `POST /v2/businesses HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nAuthorization: k\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
          ),
        );
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
        socket.on('error', reject);
      });
      expect(answer.status).toBe(408);
      expect(answer.text).toMatch(/connection: close/i);
    } finally {
      await other.close();
    }
    await expect(other.listen({ bodyTimeoutMs: 0 })).rejects.toThrow(/bodyTimeoutMs/);
  });
});

describe('garbage requests answer 400 or 405, never 500', () => {
  it.each([
    ['a malformed %-escape in an API path', 'GET /v2/cities/%E0%A4%A/zones HTTP/1.1', 400],
    ['a %-escape of no UTF-8 in an API path', 'PUT /v2/businesses/%C3%28 HTTP/1.1\r\nAuthorization: k\r\nContent-Length: 2', 400],
    ['a malformed %-escape in a control path', 'GET /__sandbox/orders/%ZZ%E0 HTTP/1.1', 400],
    ['an absolute-form target', 'GET http://127.0.0.1/v2/cities HTTP/1.1', 400],
    ['OPTIONS *', 'OPTIONS * HTTP/1.1', 400],
    ['TRACE', 'TRACE /v2/cities HTTP/1.1', 405],
  ])('%s', async (_, head, status) => {
    const answer = await sendRaw(head);
    expect(answer.status).toBe(status);
    if (status === 405) expect(answer.text).toMatch(/\r\nallow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n/i);
  });
});

describe('binding', () => {
  it('a non-loopback interface prints a warning; loopback ones do not', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const exposed = createSandbox();
    try {
      await (await exposed.listen({ host: 'localhost' })).close();
      await (await exposed.listen({ host: '127.0.0.1' })).close();
      expect(warn).not.toHaveBeenCalled();
      // Bound for an instant and closed; nothing is sent to it.
      await (await exposed.listen({ host: '0.0.0.0' })).close();
      expect(warn).toHaveBeenCalledOnce();
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/0\.0\.0\.0.*reachable from other machines/);
    } finally {
      warn.mockRestore();
      await exposed.close();
    }
  });
});
