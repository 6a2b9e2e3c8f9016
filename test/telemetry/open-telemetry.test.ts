// delivery-sdk/opentelemetry over OpenTelemetry's own SDK, in memory: the span trees, their
// attributes and the metrics of a create, a retried create, a refused create (3007), a bulk upload
// with one failed chunk and a webhook delivery, driven through the sandbox and a fault-injecting fake.

import { readFileSync } from 'node:fs';
import { type Context, type ContextManager, context, diag, metrics, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDelivery, DeliveryCore } from '../../src/functions/index.js';
import { BulkCreationError, type DeliverOrder, DeliveryClient, type DeliveryClientOptions } from '../../src/index.js';
import { openTelemetry } from '../../src/telemetry/index.js';
import type { Sandbox } from '../../src/testing/index.js';
import { createOrderTracker, createWebhookHandler, type OrderTrackerStore, type StoredEvent, type WebhookEvent } from '../../src/webhooks/index.js';
import { receiver } from '../support/orders.js';
import { dropOff, sandboxWithAccount } from '../support/sandbox.js';
import { type RecordedTelemetry, recordTelemetry, type SpanNode } from '../support/telemetry.js';
import { webhookBody } from '../support/webhook-bodies.js';

const HOST = 'sandbox.delivery-sdk.test';
const SERVER = { 'server.address': HOST, 'server.port': 443 };
// An attempt's: the conventions' `url.template` is a path; the fixed query is in `url.full`.
const CREATE = { 'http.request.method': 'POST', ...SERVER, 'url.template': '/v2/deliveries' };
const BULK = { 'http.request.method': 'POST', ...SERVER, 'url.template': '/v2/deliveries/bulk' };
const CREATE_URL = { 'url.full': `https://${HOST}/v2/deliveries?apiVersion=1` };
const BULK_URL = { 'url.full': `https://${HOST}/v2/deliveries/bulk?apiVersion=1` };

const order = (changes: Record<string, unknown> = {}): DeliverOrder =>
  ({ type: 10, dropOffAddress: dropOff, receiver: receiver(), cod: 250, ...changes }) as DeliverOrder;

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The headers of each request a fetch function sent. */
function recordingHeaders(fetch: Fetch): { fetch: Fetch; sent: Headers[] } {
  const sent: Headers[] = [];
  return {
    sent,
    fetch: (input, init) => {
      sent.push(new Headers(input instanceof Request ? input.headers : init?.headers));
      return fetch(input, init);
    },
  };
}

/** The fault-injecting fake: `fault(request, n)` answers the n-th request (from 1) itself when it returns a Response; the others reach the sandbox. */
function faulty(fetch: Fetch, fault: (request: Request, n: number) => Response | undefined): Fetch {
  let n = 0;
  return (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    return Promise.resolve(fault(request, ++n) ?? fetch(request));
  };
}

let sandbox: Sandbox;
let recorded: RecordedTelemetry;

async function clientWith(options: Partial<DeliveryClientOptions> = {}, wrap: (fetch: Fetch) => Fetch = (fetch) => fetch): Promise<DeliveryClient> {
  ({ sandbox } = await sandboxWithAccount());
  return new DeliveryClient({
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    fetch: wrap(sandbox.fetch),
    maxRetries: 0,
    telemetry: recorded.telemetry,
    ...options,
  });
}

beforeAll(() => {
  // What NodeSDK registers by default: the W3C trace context goes out as `traceparent`.
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(() => propagation.disable());
afterEach(async () => {
  await sandbox?.close();
});

describe('a create', () => {
  it('is an INTERNAL span named for the operation with one CLIENT span per attempt under it, and counts one order created', async () => {
    recorded = recordTelemetry();
    const client = await clientWith();
    const created = await client.deliveries.create(order());

    expect(recorded.trees()).toEqual<SpanNode[]>([
      {
        name: 'deliveries.create',
        kind: 'INTERNAL',
        status: 'UNSET',
        // An INTERNAL span carries no `http.*`: a span-metrics connector counts each request once, on its CLIENT span.
        attributes: { 'delivery.operation': 'deliveries.create', ...SERVER, 'delivery.tracking_number': created.trackingNumber },
        events: [],
        children: [
          {
            name: 'POST /v2/deliveries',
            kind: 'CLIENT',
            status: 'UNSET',
            attributes: { ...CREATE, ...CREATE_URL, 'delivery.operation': 'deliveries.create', 'http.response.status_code': 201 },
            events: [],
            children: [],
          },
        ],
      },
    ]);
    expect(await recorded.points('delivery.orders.created')).toEqual([{ attributes: { 'delivery.operation': 'deliveries.create' }, value: 1 }]);
    expect(await recorded.points('delivery.orders.failed')).toEqual([]);
    expect(await recorded.points('http.client.request.duration')).toEqual([
      { attributes: { ...CREATE, 'delivery.operation': 'deliveries.create', 'http.response.status_code': 201 }, value: 1 },
    ]);
  });

  it('sends the attempt span as `traceparent` through the registered propagator, or nothing with propagate: false', async () => {
    recorded = recordTelemetry();
    const traced = recordingHeaders((input, init) => sandbox.fetch(input, init));
    const client = await clientWith({ fetch: traced.fetch });
    await client.deliveries.create(order());
    const attempt = recorded.spans().find((span) => span.kind === 2);
    expect(traced.sent.map((headers) => headers.get('traceparent'))).toEqual([`00-${attempt?.spanContext().traceId}-${attempt?.spanContext().spanId}-01`]);

    recorded = recordTelemetry({ propagate: false });
    const quiet = recordingHeaders((input, init) => sandbox.fetch(input, init));
    const untraced = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: quiet.fetch, telemetry: recorded.telemetry });
    await untraced.deliveries.create(order());
    expect(quiet.sent).toHaveLength(1);
    expect(quiet.sent[0]?.has('traceparent')).toBe(false);
    expect(recorded.spans()).toHaveLength(2);
  });

  it("is a child of the application's active span", async () => {
    recorded = recordTelemetry();
    const client = await clientWith();
    const checkout = recorded.tracerProvider.getTracer('shop').startSpan('checkout');
    // NodeSDK registers one over AsyncLocalStorage; a stack is enough for a call that starts synchronously.
    const stack: Context[] = [];
    const manager: ContextManager = {
      active: () => stack.at(-1) ?? ROOT_CONTEXT,
      with: (entered, fn, thisArg, ...args) => {
        stack.push(entered);
        try {
          return fn.call(thisArg, ...args);
        } finally {
          stack.pop();
        }
      },
      bind: (_context, target) => target,
      enable: () => manager,
      disable: () => manager,
    };
    context.setGlobalContextManager(manager);
    try {
      await context.with(trace.setSpan(context.active(), checkout), () => client.deliveries.create(order()));
    } finally {
      context.disable();
    }
    checkout.end();
    expect(recorded.trees().map((tree) => [tree.name, tree.children.map((child) => child.name)])).toEqual([['checkout', ['deliveries.create']]]);
  });

  it('whose outcome is unknown (the connection dropped after the service acted) says delivery.may_exist and counts the order failed as such', async () => {
    recorded = recordTelemetry();
    const client = await clientWith();
    sandbox.injectFaults({ rate: 1, kinds: ['drop-after'] });
    await expect(client.deliveries.create(order())).rejects.toMatchObject({ name: 'ConnectionError', mayExist: true });
    const [call] = recorded.trees();
    expect(call?.attributes).toMatchObject({ 'error.type': 'ConnectionError', 'delivery.may_exist': true });
    expect(call?.children[0]?.attributes).toMatchObject({ 'error.type': 'ConnectionError' });
    expect(call?.children[0]?.attributes).not.toHaveProperty('http.response.status_code');
    expect(await recorded.points('delivery.orders.failed')).toEqual([
      {
        attributes: { 'delivery.operation': 'deliveries.create', 'error.type': 'ConnectionError', 'error.source': 'client', 'delivery.may_exist': true },
        value: 1,
      },
    ]);
  });
});

describe('a retried create', () => {
  it('has a CLIENT span per attempt, the retry marked by http.request.resend_count, and its wait by a delivery.retry event where it began', async () => {
    recorded = recordTelemetry();
    const rateLimited = () => Response.json({ success: false, message: 'Too many requests' }, { status: 429, headers: { 'retry-after': '0' } });
    const traced = recordingHeaders(
      faulty(
        (input, init) => sandbox.fetch(input, init),
        (_request, n) => (n === 1 ? rateLimited() : undefined),
      ),
    );
    const client = await clientWith({ maxRetries: 2 }, () => traced.fetch);
    const created = await client.deliveries.create(order());

    const [call] = recorded.trees();
    expect(call).toMatchObject({
      name: 'deliveries.create',
      status: 'UNSET',
      attributes: { 'delivery.tracking_number': created.trackingNumber },
      // Placed where the wait began, it says how long it lasted and what it followed.
      events: [{ name: 'delivery.retry', attributes: { 'delivery.retry.delay_ms': expect.any(Number), 'error.type': 'RateLimitError' } }],
    });
    expect(call?.children).toEqual([
      {
        name: 'POST /v2/deliveries',
        kind: 'CLIENT',
        status: 'ERROR',
        attributes: { ...CREATE, ...CREATE_URL, 'delivery.operation': 'deliveries.create', 'http.response.status_code': 429, 'error.type': 'RateLimitError' },
        events: [],
        children: [],
      },
      {
        name: 'POST /v2/deliveries',
        kind: 'CLIENT',
        status: 'UNSET',
        attributes: {
          ...CREATE,
          ...CREATE_URL,
          'delivery.operation': 'deliveries.create',
          'http.request.resend_count': 1,
          'http.response.status_code': 201,
        },
        events: [],
        children: [],
      },
    ]);
    // Each attempt carries its own span as the parent the service sees.
    const attempts = recorded.spans().filter((span) => span.name.startsWith('POST '));
    expect(traced.sent.map((headers) => headers.get('traceparent'))).toEqual(
      attempts.map((span) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`),
    );
    expect((await recorded.points('http.client.request.duration')).map((point) => point.attributes['http.response.status_code'])).toEqual([429, 201]);
    expect(await recorded.points('delivery.orders.created')).toEqual([{ attributes: { 'delivery.operation': 'deliveries.create' }, value: 1 }]);
  });
});

describe('a refused create (3007)', () => {
  it('refused by the client-side check: a failed span with the code and no attempt, an order failed', async () => {
    recorded = recordTelemetry();
    const client = await clientWith();
    await expect(client.deliveries.create(order({ cod: 45_000 }))).rejects.toMatchObject({ errorCode: 3007, source: 'client' });
    expect(recorded.trees()).toEqual<SpanNode[]>([
      {
        name: 'deliveries.create',
        kind: 'INTERNAL',
        status: 'ERROR',
        attributes: {
          'delivery.operation': 'deliveries.create',
          ...SERVER,
          'error.type': 'CodLimitExceededError',
          'delivery.error_code': 3007,
          'delivery.may_exist': false,
        },
        events: [],
        children: [],
      },
    ]);
    expect(recorded.spans()[0]?.status.message).toBe('CodLimitExceededError');
    expect(await recorded.points('delivery.orders.failed')).toEqual([
      {
        // Refused by the SDK before sending: `error.source` tells it from the same code the service answered.
        attributes: { 'delivery.operation': 'deliveries.create', 'error.type': 'CodLimitExceededError', 'error.source': 'client', 'delivery.may_exist': false },
        value: 1,
      },
    ]);
    expect(await recorded.points('delivery.orders.created')).toEqual([]);
  });

  it('refused by the service (validate: false): the attempt carries the status and the class too', async () => {
    recorded = recordTelemetry();
    const client = await clientWith({ validate: false });
    await expect(client.deliveries.create(order({ cod: 45_000 }))).rejects.toMatchObject({ errorCode: 3007, source: 'server' });
    const [call] = recorded.trees();
    const status = call?.children[0]?.attributes['http.response.status_code'];
    expect(status).toBeGreaterThanOrEqual(400);
    expect(call).toMatchObject({
      status: 'ERROR',
      attributes: { 'error.type': 'CodLimitExceededError', 'delivery.error_code': 3007, 'delivery.may_exist': false },
      children: [{ kind: 'CLIENT', status: 'ERROR', attributes: { 'error.type': 'CodLimitExceededError', 'delivery.error_code': 3007 } }],
    });
    expect(call?.attributes).not.toHaveProperty('http.response.status_code');
    expect((await recorded.points('http.client.request.duration'))[0]?.attributes).toMatchObject({ 'error.type': 'CodLimitExceededError' });
    expect(await recorded.points('delivery.orders.failed')).toEqual([
      {
        attributes: {
          'delivery.operation': 'deliveries.create',
          'error.type': 'CodLimitExceededError',
          'error.source': 'service',
          'delivery.may_exist': false,
        },
        value: 1,
      },
    ]);
  });
});

describe('a bulk upload with one failed chunk', () => {
  it('is a span with a child per chunk, each with its orders, created and failed, and its request under it', async () => {
    recorded = recordTelemetry();
    // The second bulk request answers 503: a POST is not repeated, its two orders may exist.
    let bulkRequests = 0;
    const client = await clientWith({}, (fetch) =>
      faulty(fetch, (request) =>
        request.url.includes('/deliveries/bulk') && ++bulkRequests === 2
          ? Response.json({ success: false, message: 'Unavailable' }, { status: 503 })
          : undefined,
      ),
    );
    const orders = [0, 1, 2, 3, 4].map((i) => order({ businessReference: `night-${i}` }));
    const error = await client.deliveries.createBulk(orders, { chunkSize: 2, concurrency: 1 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BulkCreationError);

    const [upload] = recorded.trees();
    expect(upload).toMatchObject({
      name: 'deliveries.createBulk',
      kind: 'INTERNAL',
      status: 'ERROR',
      attributes: {
        'delivery.operation': 'deliveries.createBulk',
        ...SERVER,
        'delivery.bulk.chunks': 3,
        'delivery.bulk.orders': 5,
        'delivery.bulk.created': 3,
        'delivery.bulk.failed': 2,
        'delivery.may_exist': true,
      },
    });
    // It did not stop: each chunk says what failed in it.
    expect(upload?.attributes).not.toHaveProperty('error.type');
    const chunk = (start: number, size: number, answered: number, more: Record<string, unknown> = {}) => ({
      name: 'deliveries.createBulk chunk',
      kind: 'INTERNAL',
      attributes: { 'delivery.operation': 'deliveries.createBulk', ...SERVER, 'delivery.bulk.start': start, 'delivery.bulk.orders': size, ...more },
      children: [{ name: 'POST /v2/deliveries/bulk', kind: 'CLIENT', attributes: { ...BULK, ...BULK_URL, 'http.response.status_code': answered } }],
    });
    expect(upload?.children).toMatchObject([
      { ...chunk(0, 2, 201, { 'delivery.bulk.created': 2, 'delivery.bulk.failed': 0 }), status: 'UNSET' },
      {
        ...chunk(2, 2, 503, { 'delivery.bulk.created': 0, 'delivery.bulk.failed': 2, 'error.type': 'ServerError', 'delivery.may_exist': true }),
        status: 'ERROR',
      },
      { ...chunk(4, 1, 201, { 'delivery.bulk.created': 1, 'delivery.bulk.failed': 0 }), status: 'UNSET' },
    ]);
    expect(upload?.children[0]?.attributes).not.toHaveProperty('error.type');
    // Only the CLIENT spans carry `http.*`: the upload and its chunks are INTERNAL.
    const httpOf = (node: SpanNode | undefined): string[] => Object.keys(node?.attributes ?? {}).filter((name) => name.startsWith('http.'));
    expect([upload, ...(upload?.children ?? [])].flatMap(httpOf)).toEqual([]);
    expect(await recorded.points('delivery.orders.created')).toEqual([{ attributes: { 'delivery.operation': 'deliveries.createBulk' }, value: 3 }]);
    expect(await recorded.points('delivery.orders.failed')).toEqual([
      {
        attributes: { 'delivery.operation': 'deliveries.createBulk', 'error.type': 'ServerError', 'error.source': 'service', 'delivery.may_exist': true },
        value: 2,
      },
    ]);
  });

  it('streamed, the upload span ends when the loop is left early, its chunks in flight counted', async () => {
    recorded = recordTelemetry();
    const client = await clientWith();
    const orders = [0, 1, 2, 3].map((i) => order({ businessReference: `stream-${i}` }));
    for await (const settled of client.deliveries.streamBulk(orders, { chunkSize: 2, concurrency: 1 })) {
      expect(settled.created).toHaveLength(2);
      break;
    }
    const [upload] = recorded.trees();
    expect(upload).toMatchObject({ name: 'deliveries.streamBulk', status: 'UNSET', attributes: { 'delivery.bulk.chunks': 1, 'delivery.bulk.created': 2 } });
    expect(upload?.children).toHaveLength(1);
  });
});

describe('a webhook delivery', () => {
  const KEY = { name: 'X-Shop-Key', value: 'webhook-secret-1' };

  it("is a SERVER span per event with its state, tracking number and the tracker's verdict, and a count by state and verdict", async () => {
    recorded = recordTelemetry();
    const tracker = createOrderTracker();
    const received: WebhookEvent[] = [];
    const handler = createWebhookHandler({
      auth: KEY,
      telemetry: recorded.telemetry,
      route: '/hooks',
      onEvent: (event) => {
        received.push(event);
        tracker.track(event);
      },
    });
    ({ sandbox } = await sandboxWithAccount({ webhookFetch: (url, init) => handler(new Request(url, init)) }));
    sandbox.setWebhook({ url: 'https://shop.test/hooks', headerName: KEY.name, headerValue: KEY.value });
    const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch });
    const { trackingNumber } = await client.deliveries.create(order());
    await sandbox.advance(trackingNumber, { to: 20 });
    await sandbox.advance(trackingNumber, { to: 21 });

    const deliver = (body: unknown, headers: Record<string, string> = { [KEY.name]: KEY.value }) =>
      handler(
        new Request('https://shop.test/hooks', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }),
      );
    const [first, second] = sandbox.webhookLog();
    expect((await deliver(second?.body)).status).toBe(200); // the service delivers again
    expect((await deliver({ ...first?.body, timeStamp: (first?.body.timeStamp ?? 0) - 1 })).status).toBe(200); // an older event, arriving late
    expect((await deliver(first?.body, {})).status).toBe(401); // no key

    const webhook = (state: number | undefined, verdict: string | undefined, status: number) => ({
      // `{method} {http.route}`, as the HTTP server conventions name it.
      name: 'POST /hooks',
      kind: 'SERVER',
      status: 'UNSET',
      attributes: {
        'http.request.method': 'POST',
        'url.scheme': 'https',
        'url.path': '/hooks',
        'http.route': '/hooks',
        ...(state === undefined ? {} : { 'delivery.webhook.state': state, 'delivery.tracking_number': trackingNumber }),
        ...(verdict === undefined ? {} : { 'delivery.webhook.verdict': verdict }),
        'http.response.status_code': status,
      },
      events: [],
      children: [],
    });
    expect(recorded.trees()).toEqual([
      webhook(20, 'changed', 200),
      webhook(21, 'changed', 200),
      webhook(21, 'repeat', 200),
      webhook(20, 'older', 200),
      webhook(undefined, undefined, 401),
    ]);
    expect(received).toHaveLength(4);
    const counted = await recorded.points('delivery.webhooks.received');
    expect(counted).toEqual(
      expect.arrayContaining([
        { attributes: { 'delivery.webhook.state': 20, 'delivery.webhook.verdict': 'changed', 'http.response.status_code': 200 }, value: 1 },
        { attributes: { 'delivery.webhook.state': 21, 'delivery.webhook.verdict': 'changed', 'http.response.status_code': 200 }, value: 1 },
        { attributes: { 'delivery.webhook.state': 21, 'delivery.webhook.verdict': 'repeat', 'http.response.status_code': 200 }, value: 1 },
        { attributes: { 'delivery.webhook.state': 20, 'delivery.webhook.verdict': 'older', 'http.response.status_code': 200 }, value: 1 },
        { attributes: { 'http.response.status_code': 401 }, value: 1 },
      ]),
    );
    expect(counted).toHaveLength(5);
  });

  it('takes the verdict of a tracker on a store too, told after its asynchronous step', async () => {
    // The least store: one sorted list per order, as the Redis one keeps it.
    const kept = new Map<string, StoredEvent[]>();
    const store: OrderTrackerStore = {
      record: async (event) => {
        const events = kept.get(event.trackingNumber) ?? [];
        kept.set(event.trackingNumber, events);
        const previous = events.at(-1)?.body;
        const duplicate = events.some((known) => known.id === event.id);
        if (!duplicate) events.push(event);
        events.sort((a, b) => a.timeStamp - b.timeStamp || (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
        return { duplicate, previous, version: events.length };
      },
      current: async (trackingNumber) => kept.get(trackingNumber)?.at(-1)?.body,
      history: async (trackingNumber) => (kept.get(trackingNumber) ?? []).map((event) => event.body),
      forget: async (trackingNumber) => kept.delete(trackingNumber),
    };
    const tracker = createOrderTracker({ store });
    recorded = recordTelemetry();
    const handler = createWebhookHandler({ telemetry: recorded.telemetry, onEvent: async (event) => void (await tracker.track(event)) });
    const deliver = (body: unknown) =>
      handler(new Request('https://shop.test/hooks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
    const body = webhookBody({ trackingNumber: '70000009', state: 21 });
    await deliver(body);
    await deliver(body);
    await deliver(webhookBody({ trackingNumber: '70000009', state: 20, timeStamp: (body['timeStamp'] as number) - 60_000 }));
    expect(recorded.trees().map((tree) => tree.attributes['delivery.webhook.verdict'])).toEqual(['changed', 'repeat', 'older']);
  });

  it('continues the trace the sender propagated, and marks a failing callback: error.type, a 500 and an ERROR status', async () => {
    recorded = recordTelemetry();
    const handler = createWebhookHandler({
      telemetry: recorded.telemetry,
      on: {
        47: () => {
          throw new RangeError('the shop database is down');
        },
      },
    });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const body = webhookBody({ trackingNumber: '70000007', state: 47, exceptionCode: 1 });
    const response = await handler(
      new Request('https://shop.test/hooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
        body: JSON.stringify(body),
      }),
    );
    expect(response.status).toBe(500);
    const [span] = recorded.spans();
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(recorded.trees()[0]).toMatchObject({
      kind: 'SERVER',
      status: 'ERROR',
      attributes: {
        'delivery.webhook.state': 47,
        'delivery.webhook.exception_code': 1,
        'delivery.tracking_number': '70000007',
        'error.type': 'RangeError',
        'http.response.status_code': 500,
      },
    });
  });

  it('the Node adapter takes the same option', async () => {
    const { createNodeWebhookHandler } = await import('../../src/webhooks/node.js');
    const { createServer } = await import('node:http');
    recorded = recordTelemetry();
    const server = createServer(createNodeWebhookHandler({ telemetry: recorded.telemetry, onEvent: () => undefined }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as import('node:net').AddressInfo;
      const body = JSON.stringify(webhookBody({ trackingNumber: '70000008', state: 20 }));
      const response = await fetch(`http://127.0.0.1:${port}/hooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(response.status).toBe(200);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // No `route`: the conventions name the span for its method alone, and the path is no route.
    expect(recorded.trees()).toMatchObject([
      {
        name: 'POST',
        kind: 'SERVER',
        attributes: { 'url.scheme': 'http', 'url.path': '/hooks', 'delivery.webhook.state': 20, 'http.response.status_code': 200 },
      },
    ]);
    expect(recorded.trees()[0]?.attributes).not.toHaveProperty('http.route');
  });
});

describe('the instrumentation scope', () => {
  it("is delivery-sdk with the SDK's version, for every span and every metric", async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    recorded = recordTelemetry();
    const client = await clientWith();
    await client.deliveries.create(order());
    const scopes = recorded.spans().map(({ instrumentationScope }) => `${instrumentationScope.name}@${instrumentationScope.version}`);
    expect(new Set(scopes)).toEqual(new Set([`delivery-sdk@${version}`]));
    expect(await recorded.metricScopes()).toEqual([`delivery-sdk@${version}`]);
  });
});

describe('a webhook request, as the HTTP server conventions have it', () => {
  it('records a method the conventions do not know as _OTHER, the method as sent beside it, and names the span HTTP', async () => {
    recorded = recordTelemetry();
    const handler = createWebhookHandler({ telemetry: recorded.telemetry, onEvent: () => undefined });
    expect((await handler(new Request('https://shop.test/hooks', { method: 'PROPFIND' }))).status).toBe(405);
    expect(recorded.trees()).toMatchObject([
      {
        name: 'HTTP',
        kind: 'SERVER',
        attributes: { 'http.request.method': '_OTHER', 'http.request.method_original': 'PROPFIND', 'http.response.status_code': 405 },
      },
    ]);
  });

  it('records the path with the values of the handler’s auth scrubbed, wherever they appear', async () => {
    recorded = recordTelemetry();
    const auth = { name: 'X-Shop-Key', value: 'path-secret-77' };
    const handler = createWebhookHandler({ auth, route: '/hooks/{token}', telemetry: recorded.telemetry, onEvent: () => undefined });
    const body = JSON.stringify(webhookBody({ trackingNumber: '70000010', state: 20 }));
    const headers = { 'content-type': 'application/json', [auth.name]: auth.value };
    expect((await handler(new Request('https://shop.test/hooks/path-secret-77', { method: 'POST', headers, body }))).status).toBe(200);
    expect(recorded.trees()).toMatchObject([
      { name: 'POST /hooks/{token}', attributes: { 'url.scheme': 'https', 'url.path': '/hooks/[redacted]', 'http.route': '/hooks/{token}' } },
    ]);
  });

  it('scrubs the auth value the handler checks, whatever becomes of the options object after', async () => {
    recorded = recordTelemetry();
    const auth = { name: 'X-Shop-Key', value: 'path-secret-88' };
    const handler = createWebhookHandler({ auth, route: '/hooks/{token}', telemetry: recorded.telemetry, onEvent: () => undefined });
    auth.value = 'rotated-later';
    const body = JSON.stringify(webhookBody({ trackingNumber: '70000011', state: 20 }));
    const headers = { 'content-type': 'application/json', [auth.name]: 'path-secret-88' };
    expect((await handler(new Request('https://shop.test/hooks/path-secret-88', { method: 'POST', headers, body }))).status).toBe(200);
    expect(recorded.trees()).toMatchObject([{ attributes: { 'url.path': '/hooks/[redacted]' } }]);
  });

  it('refuses a route that is not a string when the handler is made', () => {
    expect(() => createWebhookHandler({ route: 42 as never, onEvent: () => undefined })).toThrow(/route: expected a string, received number/);
  });
});

describe('the option', () => {
  it('is kept by withOptions, whether the new client shares the transport or makes its own', async () => {
    recorded = recordTelemetry();
    const client = await clientWith();
    await client.withOptions({ apiKey: sandbox.apiKey }).deliveries.create(order());
    await client.withOptions({ timeout: 5_000, logLevel: 'off' }).deliveries.create(order());
    const core = new DeliveryCore({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch, telemetry: recorded.telemetry });
    await createDelivery(core.withOptions({ maxRetries: 1 }), order());
    expect(recorded.trees().map((tree) => tree.name)).toEqual(['deliveries.create', 'deliveries.create', 'deliveries.create']);
  });

  it('leaves client.request untraced: an endpoint the SDK does not declare has no operation name, and its path may hold ids', async () => {
    recorded = recordTelemetry();
    const traced = recordingHeaders((input, init) => sandbox.fetch(input, init));
    const client = await clientWith({ fetch: traced.fetch });
    const { trackingNumber } = await client.deliveries.create(order());
    await expect(client.request({ method: 'GET', path: `/deliveries/business/${trackingNumber}` })).resolves.toBeDefined();
    expect(recorded.trees().map((tree) => tree.name)).toEqual(['deliveries.create']);
    expect(traced.sent.map((headers) => headers.has('traceparent'))).toEqual([true, false]);
  });

  it('openTelemetry() refuses an option of the wrong type, naming it', () => {
    expect(() => openTelemetry({ propagate: 'no' as never })).toThrow(/propagate/);
    expect(() => openTelemetry({ tracerProvider: {} as never })).toThrow(/tracerProvider/);
  });

  it('without providers, uses the global ones, registered even after openTelemetry() was called (as NodeSDK.start() does)', async () => {
    const telemetry = openTelemetry();
    recorded = recordTelemetry();
    trace.setGlobalTracerProvider(recorded.tracerProvider);
    metrics.setGlobalMeterProvider(recorded.meterProvider);
    try {
      const client = await clientWith({ telemetry });
      await client.deliveries.create(order());
      expect(recorded.trees().map((tree) => [tree.name, tree.children.length])).toEqual([['deliveries.create', 1]]);
      expect(await recorded.points('delivery.orders.created')).toEqual([{ attributes: { 'delivery.operation': 'deliveries.create' }, value: 1 }]);
    } finally {
      trace.disable();
      metrics.disable();
    }
  });

  it('with no OpenTelemetry SDK registered, changes nothing: the call resolves and no header is added', async () => {
    propagation.disable();
    try {
      const traced = recordingHeaders((input, init) => sandbox.fetch(input, init));
      recorded = recordTelemetry();
      const client = await clientWith({ fetch: traced.fetch, telemetry: openTelemetry() });
      await expect(client.deliveries.create(order())).resolves.toHaveProperty('trackingNumber');
      expect(traced.sent[0]?.has('traceparent')).toBe(false);
      // Nothing would be recorded or sent: the SDK is told nothing more of the call (no attempt, no end).
      const operation = { name: 'deliveries.create', method: 'POST', route: '/deliveries' };
      expect(openTelemetry().call(operation, sandbox.baseUrl, undefined)).toBeUndefined();
      // A propagator alone is enough to be told: it may carry the trace context the application holds.
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
      expect(openTelemetry().call(operation, sandbox.baseUrl, undefined)).toBeDefined();
      expect(openTelemetry({ propagate: false }).call(operation, sandbox.baseUrl, undefined)).toBeUndefined();
    } finally {
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    }
  });

  it('a tracing back end that throws never changes the outcome: the order is returned, the fault goes to diag', async () => {
    const faults: unknown[] = [];
    diag.setLogger({ error: (...args) => faults.push(args), warn: () => undefined, info: () => undefined, debug: () => undefined, verbose: () => undefined });
    try {
      const broken = {
        getTracer: () => ({
          startSpan: () => {
            throw new Error('span processor failed');
          },
          startActiveSpan: () => undefined as never,
        }),
      };
      recorded = recordTelemetry();
      const client = await clientWith({ telemetry: openTelemetry({ tracerProvider: broken }) });
      await expect(client.deliveries.create(order())).resolves.toHaveProperty('trackingNumber');
      expect(faults.length).toBeGreaterThan(0);
    } finally {
      diag.disable();
    }
  });
});
