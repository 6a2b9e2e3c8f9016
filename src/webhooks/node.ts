/**
 * `delivery-sdk/webhooks/node`: the webhook handler for Node's `(req, res)` servers (node:http,
 * Express, Connect, Fastify's raw request). It turns the request into a Fetch `Request` and
 * runs the same handler as `createWebhookHandler`, so both answer alike.
 *
 * @module delivery-sdk/webhooks/node
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createWebhookHandler, type WebhookHandlerOptions } from './handler.js';

/** A Node request; Express adds `body` when one of its body parsers ran. */
export type NodeWebhookRequest = IncomingMessage & { body?: unknown };

/** Express's `next`: called only when the adapter itself fails, never for a webhook's own answer. */
export type NodeNext = (error?: unknown) => void;

/** The options of `createWebhookHandler`; the `Request` your callbacks get is built from Node's `req`. */
export type NodeWebhookHandlerOptions = WebhookHandlerOptions;

/**
 * A webhook endpoint for `node:http` and Express, with the same answers as
 * {@link createWebhookHandler} (405, 401, 413, 400, 200, 500). It reads the raw body itself with
 * the `maxBodyBytes` limit, or takes `req.body` when an Express body parser (`express.json()`,
 * `express.text()`, `express.raw()`) already read it.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { createNodeWebhookHandler } from 'delivery-sdk/webhooks/node';
 *
 * const app = express();
 * app.post('/webhooks/delivery', createNodeWebhookHandler({
 *   auth: { name: 'X-Webhook-Key', value: process.env.WEBHOOK_KEY! },
 *   onEvent: (event) => orders.update(event.trackingNumber, event.state),
 * }));
 * ```
 */
export function createNodeWebhookHandler(options: NodeWebhookHandlerOptions = {}): (req: NodeWebhookRequest, res: ServerResponse, next?: NodeNext) => void {
  const handle = createWebhookHandler(options);
  return (req, res, next) => {
    let body: NodeBody | undefined;
    const failed = (err: unknown): void => {
      body?.discard();
      fail(err, res, next);
    };
    try {
      const read = (body = requestBody(req));
      handle(toFetchRequest(req, read)).then((response) => send(response, res, read), failed);
    } catch (err) {
      failed(err);
    }
  };
}

interface NodeBody {
  /** What the Request gets: bytes an Express parser left, or a stream over `req`. */
  readonly init: BodyInit | null;
  /** Whether `init` replaces the original bytes (then their length headers no longer apply). */
  readonly replaced: boolean;
  /** Stops listening to `req` and lets Node throw away what the handler never read. */
  discard(): void;
}

function requestBody(req: NodeWebhookRequest): NodeBody {
  // A body parser consumed the stream; Express 4 sets `req.body = {}` even when none matched,
  // so `body` counts only once the stream was actually read.
  if (req.readableEnded) return { init: parsedBody(req.body), replaced: true, discard: ignore };
  return streamBody(req);
}

function parsedBody(body: unknown): BodyInit | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new Uint8Array(body);
  return JSON.stringify(body);
}

function streamBody(req: IncomingMessage): NodeBody {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const onData = (chunk: Uint8Array | string): void => {
    controller?.enqueue(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    // Back-pressure: read on only when the handler asks for more.
    if ((controller?.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = (): void => controller?.close();
  const onError = (err: unknown): void => controller?.error(err);
  const discard = (): void => {
    req.off('data', onData).off('end', onEnd).off('error', onError);
    controller = undefined;
    if (!req.readableEnded) req.resume();
  };
  const init = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      req.pause();
      req.on('data', onData).on('end', onEnd).on('error', onError);
    },
    pull() {
      req.resume();
    },
    cancel: discard,
  });
  return { init, replaced: false, discard };
}

function toFetchRequest(req: NodeWebhookRequest, body: NodeBody): Request {
  const method = (req.method ?? 'GET').toUpperCase();
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || (body.replaced && (name === 'content-length' || name === 'transfer-encoding'))) continue;
    for (const part of Array.isArray(value) ? value : [value]) headers.append(name, part);
  }
  // Only the path matters to the handler; the Host header is the client's to forge.
  const path = req.url?.startsWith('/') ? req.url : '/';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method !== 'GET' && method !== 'HEAD' && body.init !== null) {
    init.body = body.init;
    init.duplex = 'half';
  } else {
    body.discard();
  }
  return new Request(new URL(path, 'http://localhost'), init);
}

function send(response: Response, res: ServerResponse, body: NodeBody): void {
  const finish = (text: string): void => {
    body.discard();
    // Another middleware (a timeout) may have answered already: setting headers now would throw
    // inside a promise callback, an unhandled rejection that ends the process.
    if (res.headersSent) return;
    res.statusCode = response.status;
    response.headers.forEach((value, name) => res.setHeader(name, value));
    // An unread upload (401, 413) would otherwise be read to its end before the next request.
    if (response.status === 401 || response.status === 413) res.setHeader('connection', 'close');
    res.end(text);
  };
  response.text().then(finish, () => finish(''));
}

function fail(err: unknown, res: ServerResponse, next: NodeNext | undefined): void {
  if (next !== undefined) {
    next(err);
    return;
  }
  if (!res.headersSent) {
    res.statusCode = 500;
    res.setHeader('content-type', 'application/json; charset=utf-8');
  }
  res.end(JSON.stringify({ error: 'The webhook handler failed' }));
}

function ignore(): void {}
