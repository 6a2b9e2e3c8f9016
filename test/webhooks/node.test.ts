import { createServer, type IncomingMessage, type RequestListener, request, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox } from '../../src/testing/index.js';
import { createOrderTracker, FULFILLMENT_FLOWS, type WebhookEvent, type WebhookHandlerOptions } from '../../src/webhooks/index.js';
import { createNodeWebhookHandler, type NodeWebhookHandlerOptions, type NodeWebhookRequest } from '../../src/webhooks/node.js';
import { T0, webhookBody } from '../support/webhook-bodies.js';

const auth = { name: 'X-Webhook-Key', value: 'wh_live_7f3a9c' };
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A real node:http server on 127.0.0.1, closed after the test. */
async function serve(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/delivery`;
}

async function serveAdapter(options: NodeWebhookHandlerOptions): Promise<string> {
  const handle = createNodeWebhookHandler(options);
  return serve((req, res) => handle(req, res));
}

function send(url: string, body: unknown, headers: Record<string, string> = { 'x-webhook-key': auth.value }): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** What Express's body parsers do: read the stream, then set `req.body`. */
function bodyParser(kind: 'json' | 'text' | 'raw'): (req: NodeWebhookRequest, next: () => void) => void {
  return (req, next) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      req.body = kind === 'raw' ? raw : kind === 'text' ? raw.toString('utf8') : JSON.parse(raw.toString('utf8'));
      next();
    });
  };
}

describe('createNodeWebhookHandler under a real node:http server', () => {
  it('gives the state callback its typed event and answers 200', async () => {
    const on47 = vi.fn();
    const url = await serveAdapter({ auth, on: { 47: on47 } });
    const response = await send(url, webhookBody({ state: 47, exceptionCode: 12 }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    expect(on47.mock.calls[0]?.[0]).toMatchObject({ state: 47, exceptionCode: 12, trackingNumber: '4567891234' });
  });

  it('answers like the Fetch handler: 401, 400 with the field, 405, 500', async () => {
    const url = await serveAdapter({
      auth,
      on: {
        24: () => {
          throw new Error('boom');
        },
      },
    });
    expect((await send(url, webhookBody(), { 'x-webhook-key': 'nope' })).status).toBe(401);
    const malformed = await send(url, (({ trackingNumber: _, ...rest }) => rest)(webhookBody()));
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ field: 'trackingNumber' });
    expect((await fetch(url)).status).toBe(405);
    expect((await send(url, webhookBody({ state: 24 }))).status).toBe(500);
    expect((await send(url, webhookBody({ state: 41 }))).status).toBe(200);
  });

  it('413 past maxBodyBytes, by Content-Length or while streaming, and the server keeps serving', async () => {
    const url = await serveAdapter({ maxBodyBytes: 2048 });
    expect((await send(url, webhookBody({ padding: 'x'.repeat(10_000) }))).status).toBe(413);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode(' '.repeat(1024)));
        controller.close();
      },
    });
    const streamed = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: chunked, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await send(url, webhookBody())).status).toBe(200);
  });

  it('reads a body sent in many small chunks', async () => {
    const url = await serveAdapter({});
    const text = JSON.stringify(webhookBody({ businessReference: 'طلب-١٠٤٢' }));
    const bytes = new TextEncoder().encode(text);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: chunked, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(200);
  });

  it('415 to a body that is not declared JSON, as the Fetch handler answers', async () => {
    const onEvent = vi.fn();
    const url = await serveAdapter({ auth, onEvent });
    const body = JSON.stringify(webhookBody());
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
      expect((await send(url, body, { 'x-webhook-key': auth.value, 'content-type': contentType })).status).toBe(415);
    }
    const untyped = await fetch(url, { method: 'POST', headers: { 'x-webhook-key': auth.value }, body: new TextEncoder().encode(body) });
    expect(untyped.status).toBe(415);
    expect(onEvent).not.toHaveBeenCalled();
    const lenient = await serveAdapter({ auth, onEvent, allowMissingContentType: true });
    expect((await fetch(lenient, { method: 'POST', headers: { 'x-webhook-key': auth.value }, body: new TextEncoder().encode(body) })).status).toBe(200);
  });

  it('408 and a closed connection when the body does not arrive within bodyTimeoutMs', async () => {
    const url = new URL(await serveAdapter({ auth, bodyTimeoutMs: 50 }));
    // Headers and half a body, then nothing: what a slow or stalled sender does.
    const stalled = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-key': auth.value },
    });
    stalled.on('error', () => {});
    stalled.write('{"_id":"65b8c0f2a1d4e5f6a7b8c9d0","state":');
    try {
      const response = await new Promise<IncomingMessage>((resolve) => stalled.once('response', resolve));
      expect(response.statusCode).toBe(408);
      expect(response.headers['connection']).toBe('close');
      const text = await new Promise<string>((resolve) => {
        let out = '';
        response.on('data', (chunk: Buffer) => (out += chunk.toString()));
        response.on('end', () => resolve(out));
      });
      expect(JSON.parse(text)).toEqual({ error: expect.stringContaining('50 ms') });
    } finally {
      stalled.destroy();
    }
  });

  it('a bodyTimeoutMs the adapter cannot keep is a ConfigurationError', () => {
    for (const bodyTimeoutMs of [0, -1, 1.5, Number.NaN, 2 ** 31]) expect(() => createNodeWebhookHandler({ bodyTimeoutMs })).toThrow(/bodyTimeoutMs/);
    expect(() => createNodeWebhookHandler({ bodyTimeoutMs: Number.POSITIVE_INFINITY })).not.toThrow();
  });
  it('leaves alone a response another middleware already ended (a timeout), with no unhandled rejection', async () => {
    let release = (): void => {};
    const slowCallback = new Promise<void>((resolve) => (release = resolve));
    const handle = createNodeWebhookHandler({ auth, onEvent: () => slowCallback });
    const url = await serve((req, res) => {
      handle(req, res);
      // What connect-timeout does when the callback is slow: answer first, the handler finishes later.
      setTimeout(() => {
        res.statusCode = 503;
        res.end('timed out');
        release();
      }, 20);
    });
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const response = await send(url, webhookBody({ state: 45 }));
      expect(response.status).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});

describe('requests Fetch cannot represent: answered by the adapter, never a 500', () => {
  /** The request line and headers written as they are (no HTTP client sends these), and the status answered. */
  function sendRaw(url: string, requestLine: string, headers: Record<string, string> = { 'x-webhook-key': 'nope' }): Promise<number> {
    const { port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        const lines = Object.entries({ host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'content-length': '2', ...headers }).map(
          ([n, v]) => `${n}: ${v}`,
        );
        socket.write(`${requestLine}\r\n${lines.join('\r\n')}\r\n\r\n{}`);
      });
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
        if (status !== undefined && text.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(Number(status));
        }
      });
      socket.on('error', reject);
    });
  }

  it.each([
    ['TRACE', 405, 'TRACE /webhooks/delivery HTTP/1.1'],
    ['GET', 405, 'GET /webhooks/delivery HTTP/1.1'],
    ['a target //[', 400, 'POST //[ HTTP/1.1'],
    ['a target //:99999/x', 400, 'POST //:99999/x HTTP/1.1'],
    ['a target //a:b@c/x', 400, 'POST //a:b@c/x HTTP/1.1'],
  ])('%s, without a valid key: %i before the body is read, onError told, next() not called', async (_, status, line) => {
    const onEvent = vi.fn();
    const errors: unknown[] = [];
    const next = vi.fn();
    const handle = createNodeWebhookHandler({ auth, onEvent, onError: (error) => errors.push(error) });
    const url = await serve((req, res) => handle(req, res, next));
    expect(await sendRaw(url, line)).toBe(status);
    expect(onEvent).not.toHaveBeenCalled();
    expect(next).not.toHaveBeenCalled();
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(status === 405 ? /Method not allowed/ : /not a path/);
  });
});

describe('createNodeWebhookHandler behind Express-style body parsers', () => {
  it.each(['json', 'text', 'raw'] as const)('takes req.body from express.%s()', async (kind) => {
    const seen: WebhookEvent[] = [];
    const handle = createNodeWebhookHandler({ auth, onEvent: (event) => void seen.push(event) });
    const parse = bodyParser(kind);
    const url = await serve((req, res) => parse(req, () => handle(req, res)));
    expect((await send(url, webhookBody({ state: 45, cod: 300 }))).status).toBe(200);
    expect(seen[0]).toMatchObject({ state: 45, cod: 300 });
  });

  describe('a deeply nested body from express.json() (10 KB of brackets: JSON.stringify overflows the stack)', () => {
    const depth = 5000;
    const deepArray = `${'['.repeat(depth)}${']'.repeat(depth)}`;

    async function behindJsonParser(options: WebhookHandlerOptions): Promise<{ url: string; next: ReturnType<typeof vi.fn> }> {
      const handle = createNodeWebhookHandler(options);
      const parse = bodyParser('json');
      const next = vi.fn();
      const url = await serve((req, res) =>
        parse(req, () =>
          handle(req, res, (err) => {
            next(err);
            res.statusCode = 502;
            res.end();
          }),
        ),
      );
      return { url, next };
    }

    it('401 without the key: the body is not touched before the key is checked', async () => {
      const { url, next } = await behindJsonParser({ auth });
      expect((await send(url, deepArray, {})).status).toBe(401);
      expect((await send(url, deepArray, { 'x-webhook-key': 'wrong' })).status).toBe(401);
      expect(next).not.toHaveBeenCalled();
    });

    it('400 with the key (not an object), never a RangeError through next()', async () => {
      const onError = vi.fn();
      const { url, next } = await behindJsonParser({ auth, onError });
      expect((await send(url, deepArray)).status).toBe(400);
      expect((await send(url, `{"state":${deepArray}}`)).status).toBe(400);
      expect(next).not.toHaveBeenCalled();
      expect(onError.mock.calls.every(([err]) => !(err instanceof RangeError))).toBe(true);
    });

    it('a valid event carrying a deep field it does not know is still read', async () => {
      const seen: WebhookEvent[] = [];
      const { url, next } = await behindJsonParser({ auth, onEvent: (event) => void seen.push(event) });
      const body = JSON.stringify(webhookBody({ state: 45 })).replace(/}$/, `,"extra":${deepArray}}`);
      expect((await send(url, body)).status).toBe(200);
      expect(seen[0]).toMatchObject({ state: 45, cod: 1250 });
      expect(next).not.toHaveBeenCalled();
    });

    it('413 past maxBodyBytes, without writing the whole parsed body back', async () => {
      const { url } = await behindJsonParser({ maxBodyBytes: 1024 });
      expect((await send(url, `${'['.repeat(50_000)}${']'.repeat(50_000)}`)).status).toBe(413);
    });
  });

  it('reads the stream itself when no parser matched (Express 4 leaves req.body = {})', async () => {
    const seen: WebhookEvent[] = [];
    const handle = createNodeWebhookHandler({ onEvent: (event) => void seen.push(event) });
    const url = await serve((req: NodeWebhookRequest, res) => {
      req.body = {};
      handle(req, res);
    });
    expect((await send(url, webhookBody({ state: 20 }))).status).toBe(200);
    expect(seen[0]?.state).toBe(20);
  });

  it('applies maxBodyBytes to a body a parser already read', async () => {
    const handle = createNodeWebhookHandler({ maxBodyBytes: 512 });
    const parse = bodyParser('json');
    const url = await serve((req, res) => parse(req, () => handle(req, res)));
    expect((await send(url, webhookBody({ padding: 'x'.repeat(2000) }))).status).toBe(413);
  });

  it('measures a body a parser read as a string in bytes, not UTF-16 units: Arabic text past maxBodyBytes gets 413', async () => {
    const handle = createNodeWebhookHandler({ maxBodyBytes: 1024 });
    const parse = bodyParser('text');
    const url = await serve((req, res) => parse(req, () => handle(req, res)));
    const body = webhookBody({ courierNote: 'ش'.repeat(500) });
    expect(JSON.stringify(body).length).toBeLessThan(1024);
    expect(new TextEncoder().encode(JSON.stringify(body)).byteLength).toBeGreaterThan(1024);
    expect((await send(url, body)).status).toBe(413);
  });

  it("passes the adapter's own failures to next(), as Express error handling expects", async () => {
    const handle = createNodeWebhookHandler({});
    const next = vi.fn();
    const url = await serve((req: NodeWebhookRequest, res: ServerResponse) => {
      req.headers['x-broken'] = 'a\nb'; // no Fetch Headers can hold it
      handle(req, res, (err) => {
        next(err);
        res.statusCode = 502;
        res.end();
      });
    });
    expect((await send(url, webhookBody())).status).toBe(502);
    expect(next.mock.calls[0]?.[0]).toBeInstanceOf(TypeError);
  });

  it('hands the object express.json() parsed to parseWebhookEvent as it is, never written back to JSON', async () => {
    const seen: WebhookEvent[] = [];
    const handle = createNodeWebhookHandler({ auth, onEvent: (event) => void seen.push(event) });
    const parsed: Array<Record<string, unknown>> = [];
    const url = await serve((req: NodeWebhookRequest, res) => {
      req.on('data', () => {});
      req.on('end', () => {
        // A field JSON cannot write (a BigInt) shows the object was not serialised again.
        const body = { ...webhookBody({ state: 45 }), parserExtra: 1n };
        parsed.push(body);
        req.body = body;
        handle(req, res);
      });
    });
    expect((await send(url, webhookBody({ state: 45 }))).status).toBe(200);
    expect(seen[0]?.raw).toBe(parsed[0]);
    expect((await send(url, webhookBody({ state: 45 }), { 'x-webhook-key': 'wrong' })).status).toBe(401);
    expect(seen).toHaveLength(1);
  });
});

describe('end to end: the sandbox pushes its webhooks to the Node adapter, the tracker folds them', () => {
  it.each(['success', 'exceptionThenSuccess', 'unsuccessful'] as const)('%s: the tracker holds the spec flow after creation', async (scenario) => {
    const tracker = createOrderTracker();
    const url = await serveAdapter({ auth, onEvent: (event) => void tracker.track(event) });
    let clock = T0;
    const sandbox = createSandbox({ now: () => (clock += 60_000) });
    closers.push(() => sandbox.close());
    const call = async (method: string, path: string, body: unknown, key: string | null = sandbox.apiKey): Promise<any> => {
      const response = await sandbox.fetch(
        new Request(`${sandbox.baseUrl}${path}`, {
          method,
          headers: { 'content-type': 'application/json', ...(key === null ? {} : { authorization: key }) },
          body: JSON.stringify(body),
        }),
      );
      return ((await response.json()) as { data: unknown }).data;
    };
    const business = await call('POST', '/businesses', {
      name: 'Nile Shop',
      salesChannel: 'FACEBOOK_SELLER',
      website: 'https://nile.example',
      industry: 'Fashion',
      interestedInServices: ['SEND'],
    });
    await call('PUT', `/businesses/${business._id}`, {
      pickupAddress: [{ locationName: 'Warehouse', districtId: 'district-eg-cairo-makram-ebeid', firstLine: '5 Makram Ebeid Street' }],
    });
    const order = await call('POST', '/deliveries?apiVersion=1', {
      type: 'FXF_SEND',
      dropOffAddress: { city: 'Giza', districtId: 'district-eg-giza-dokki', firstLine: '12 Tahrir Street, 3rd floor' },
      cod: 1250,
      businessReference: 'NILE-ORDER-1042',
      fulfillmentInfo: { items: [{ sku: 'MUG-BLUE', quantity: 2 }] },
    });
    sandbox.setWebhook({ url, headerName: auth.name, headerValue: auth.value });
    await sandbox.play(order.trackingNumber, scenario);
    await sandbox.drainWebhooks();
    expect(sandbox.webhookLog().every((delivery) => delivery.status === 'delivered')).toBe(true);
    const history = tracker.history(order.trackingNumber).map((event) => `${event.state} ${event.type}`);
    expect(history).toEqual(FULFILLMENT_FLOWS[scenario].slice(1).map((step) => `${step.state} ${step.type}`));
    expect(tracker.current(order.trackingNumber)).toMatchObject({
      businessReference: 'NILE-ORDER-1042',
      known: true,
      ...(scenario === 'unsuccessful' ? {} : { cod: 1250 }),
    });
  });
});
