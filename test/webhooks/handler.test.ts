import { describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/errors/index.js';
import {
  createWebhookHandler,
  DEFAULT_MAX_WEBHOOK_BODY_BYTES,
  type WebhookEvent,
  type WebhookHandlerOptions,
  WebhookPayloadError,
} from '../../src/webhooks/index.js';
import { webhookBody } from '../support/webhook-bodies.js';

const URL_ = 'https://shop.example/webhooks/delivery';
const auth = { name: 'X-Webhook-Key', value: 'wh_live_7f3a9c' };

/** A JSON POST, as the service sends it; `headers` are the auth headers (and any override). */
function post(body: unknown, headers: Record<string, string> = { 'x-webhook-key': auth.value }): Request {
  return new Request(URL_, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function json(response: Response): Promise<unknown> {
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return response.json();
}

describe('a valid, authenticated webhook', () => {
  it('reaches onEvent, then the callback of its state, and gets 200 once both resolved', async () => {
    const calls: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const handler = createWebhookHandler({
      auth,
      onEvent: (event) => void calls.push(`event ${event.state}`),
      on: {
        47: async (event) => {
          calls.push(`on47 ${event.exceptionCode} ${event.exceptionReason}`);
          await released;
        },
      },
    });
    let settled = false;
    const answer = handler(post(webhookBody({ state: 47, exceptionCode: 3, exceptionReason: 'Postponed, customer requested another day' }))).finally(
      () => (settled = true),
    );
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(settled).toBe(false);
    release();
    const response = await answer;
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ received: true });
    expect(calls).toEqual(['event 47', 'on47 3 Postponed, customer requested another day']);
  });

  it('gives each state callback its own event (45 with cod), and leaves the others alone', async () => {
    const on45 = vi.fn();
    const on47 = vi.fn();
    const handler = createWebhookHandler({ on: { 45: on45, 47: on47 } });
    expect((await handler(post(webhookBody({ state: 45, cod: 1250 })))).status).toBe(200);
    expect(on45).toHaveBeenCalledOnce();
    expect(on45.mock.calls[0]?.[0]).toMatchObject({ state: 45, cod: 1250, trackingNumber: '4567891234' });
    expect(on45.mock.calls[0]?.[1]).toBeInstanceOf(Request);
    expect(on47).not.toHaveBeenCalled();
  });

  it('sends a state the SDK does not know to onEvent only, flagged unknown', async () => {
    const seen: WebhookEvent[] = [];
    const on45 = vi.fn();
    const handler = createWebhookHandler({ onEvent: (event) => void seen.push(event), on: { 45: on45 } });
    expect((await handler(post(webhookBody({ state: 106 })))).status).toBe(200);
    expect(seen[0]).toMatchObject({ state: 106, known: false });
    expect(on45).not.toHaveBeenCalled();
  });

  it('accepts any of several keys while one is rotated', async () => {
    const handler = createWebhookHandler({ auth: [auth, { name: 'X-Webhook-Key', value: 'wh_live_next' }] });
    expect((await handler(post(webhookBody(), { 'x-webhook-key': 'wh_live_next' }))).status).toBe(200);
    expect((await handler(post(webhookBody(), { 'x-webhook-key': auth.value }))).status).toBe(200);
    expect((await handler(post(webhookBody(), { 'x-webhook-key': 'wh_live_old' }))).status).toBe(401);
  });

  it('needs no header when no auth is configured', async () => {
    expect((await createWebhookHandler()(post(webhookBody(), {}))).status).toBe(200);
  });
});

describe('refused webhooks', () => {
  it('401 without the header or with a wrong value; callbacks not called, body not read', async () => {
    const onEvent = vi.fn();
    const handler = createWebhookHandler({ auth, onEvent });
    for (const headers of [{}, { 'x-webhook-key': 'wh_live_000000' }, { 'x-other': auth.value }]) {
      const request = post(webhookBody(), headers);
      const response = await handler(request);
      expect(response.status).toBe(401);
      expect(await json(response)).toEqual({ error: expect.stringMatching(/unauthorized/i) });
      expect(request.bodyUsed).toBe(false);
    }
    expect(onEvent).not.toHaveBeenCalled();
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('405 to %s, with Allow: POST', async (method) => {
    const response = await createWebhookHandler()(new Request(URL_, { method, ...(method === 'GET' ? {} : { body: '{}' }) }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it.each<[string, unknown, string | null]>([
    ['not JSON', '{"state":', null],
    ['an empty body', '', null],
    ['a JSON array', '[]', null],
    ['a missing state', (({ state: _, ...rest }) => rest)(webhookBody()), 'state'],
    ['a state as text', webhookBody({ state: 'Delivered' }), 'state'],
    ['no tracking number', (({ trackingNumber: _, ...rest }) => rest)(webhookBody()), 'trackingNumber'],
    ['no order id', (({ _id: _, ...rest }) => rest)(webhookBody()), '_id'],
  ])('400 with { error, field } on %s; onError told, callbacks not called', async (_, body, field) => {
    const onEvent = vi.fn();
    const onError = vi.fn();
    const response = await createWebhookHandler({ onEvent, onError })(post(body, {}));
    expect(response.status).toBe(400);
    const answer = (await json(response)) as { error: string; field: string | null };
    expect(answer.field).toBe(field);
    expect(answer.error).toMatch(/^Malformed webhook body/);
    if (field !== null) expect(answer.error).toContain(field);
    expect(onEvent).not.toHaveBeenCalled();
    expect(onError.mock.calls[0]?.[0]).toBeInstanceOf(WebhookPayloadError);
  });

  it('400 on invalid UTF-8', async () => {
    const response = await createWebhookHandler()(
      new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json' }, body: new Uint8Array([0x7b, 0xc3, 0x28, 0x7d]) }),
    );
    expect(response.status).toBe(400);
  });

  it('413 when Content-Length says too much, before reading', async () => {
    const handler = createWebhookHandler({ maxBodyBytes: 1000 });
    const request = new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '5000' }, body: 'x'.repeat(5000) });
    const response = await handler(request);
    expect(response.status).toBe(413);
    expect(await json(response)).toEqual({ error: expect.stringContaining('1000 bytes') });
  });

  it('413 on a streamed body past the limit, without reading it all', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024).fill(0x20));
      },
    });
    const request = new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json' }, body: endless, duplex: 'half' } as RequestInit);
    const response = await createWebhookHandler({ maxBodyBytes: 4096 })(request);
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(10);
  });

  it('408, Connection: close, when the body does not arrive within bodyTimeoutMs (a slowloris); the rest is not read', async () => {
    let cancelled = false;
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"trackingNumber":'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const onEvent = vi.fn();
    const request = new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stalled, duplex: 'half' } as RequestInit);
    const response = await createWebhookHandler({ bodyTimeoutMs: 50, onEvent })(request);
    expect(response.status).toBe(408);
    expect(response.headers.get('connection')).toBe('close');
    expect(await json(response)).toEqual({ error: expect.stringContaining('50 ms') });
    expect(cancelled).toBe(true);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it(`accepts a body of exactly maxBodyBytes (default ${DEFAULT_MAX_WEBHOOK_BODY_BYTES})`, async () => {
    const body = JSON.stringify(webhookBody());
    const handler = createWebhookHandler({ maxBodyBytes: new TextEncoder().encode(body).byteLength });
    expect((await handler(post(body, {}))).status).toBe(200);
    expect((await handler(post(`${body} `, {}))).status).toBe(413);
  });
});

describe('the content type', () => {
  const body = JSON.stringify(webhookBody());

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"', 'application/vnd.delivery.event+json'])(
    '%s is read',
    async (contentType) => {
      const onEvent = vi.fn();
      expect((await createWebhookHandler({ onEvent })(post(body, { 'content-type': contentType }))).status).toBe(200);
      expect(onEvent).toHaveBeenCalledOnce();
    },
  );

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', 'text/json', 'application/json-seq'])(
    '%s gets 415 unread, and callbacks are not called',
    async (contentType) => {
      const onEvent = vi.fn();
      const request = post(body, { 'content-type': contentType });
      const response = await createWebhookHandler({ onEvent })(request);
      expect(response.status).toBe(415);
      expect(response.headers.get('accept-post')).toBe('application/json');
      expect(await json(response)).toEqual({ error: expect.stringMatching(/^Unsupported media type/) });
      expect(request.bodyUsed).toBe(false);
      expect(onEvent).not.toHaveBeenCalled();
    },
  );

  it('a body without a Content-Type gets 415, unless allowMissingContentType is set', async () => {
    const bare = (): Request => new Request(URL_, { method: 'POST', body: new TextEncoder().encode(body) });
    expect(bare().headers.get('content-type')).toBeNull();
    expect((await createWebhookHandler()(bare())).status).toBe(415);
    const lenient = createWebhookHandler({ allowMissingContentType: true });
    expect((await lenient(bare())).status).toBe(200);
    expect((await lenient(post(body, { 'content-type': 'text/plain' }))).status).toBe(415);
  });

  it('is checked after the key: a wrong key gets 401 whatever the type', async () => {
    expect((await createWebhookHandler({ auth })(post(body, { 'content-type': 'text/plain', 'x-webhook-key': 'nope' }))).status).toBe(401);
  });
});

describe('a failing callback', () => {
  it('gets 500 so the service delivers again, without leaking the error; onError gets it', async () => {
    const onError = vi.fn();
    const failure = new Error('database is down: postgres://admin:pw@db');
    const handler = createWebhookHandler({ on: { 24: () => Promise.reject(failure) }, onError });
    const response = await handler(post(webhookBody({ state: 24 })));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('postgres');
    expect(onError).toHaveBeenCalledWith(failure, expect.any(Request));
  });

  it('500 as well when onEvent throws synchronously, and a throwing onError changes nothing', async () => {
    const handler = createWebhookHandler({
      onEvent: () => {
        throw new Error('boom');
      },
      onError: () => {
        throw new Error('logger down');
      },
    });
    expect((await handler(post(webhookBody()))).status).toBe(500);
  });
});

describe('configuration mistakes fail when the handler is created', () => {
  it.each<[string, WebhookHandlerOptions, RegExp]>([
    ['a header name without a value', { auth: { name: 'X-Webhook-Key' } as never }, /auth: a header name without a value/],
    ['a value without a name', { auth: { value: 'secret' } as never }, /auth: a header value without a name/],
    ['one bad key of several', { auth: [auth, { name: 'X-Other', value: '' }] }, /auth\[1\]/],
    ['an empty list of keys (it would accept anyone)', { auth: [] }, /auth: an empty list/],
    [
      'a key no HTTP header can carry (it could never match)',
      { auth: { name: 'X-Webhook-Key', value: 'مفتاح-الويب' } },
      /auth\.value: U\+0645 at position 1 is not visible ASCII/,
    ],
    ['maxBodyBytes 0', { maxBodyBytes: 0 }, /maxBodyBytes/],
    ['maxBodyBytes with a fraction', { maxBodyBytes: 10.5 }, /maxBodyBytes/],
    ['maxBodyBytes NaN', { maxBodyBytes: Number.NaN }, /maxBodyBytes/],
    ['bodyTimeoutMs 0', { bodyTimeoutMs: 0 }, /bodyTimeoutMs/],
    ['bodyTimeoutMs past what a timer holds', { bodyTimeoutMs: 2 ** 31 }, /bodyTimeoutMs/],
    ['a callback for a state the SDK does not know', { on: { 999: () => {} } as never }, /on\["999"\]/],
    ['a state callback that is not a function', { on: { 45: 'notify' } as never }, /on\[45\]: expected a function/],
    ['onEvent that is not a function', { onEvent: {} as never }, /onEvent/],
    ['allowMissingContentType that is not a boolean', { allowMissingContentType: 'yes' as never }, /allowMissingContentType/],
  ])('%s', (_, options, message) => {
    expect(() => createWebhookHandler(options)).toThrow(ConfigurationError);
    expect(() => createWebhookHandler(options)).toThrow(message);
  });
});
