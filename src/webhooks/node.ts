/**
 * `delivery-sdk/webhooks/node`: the webhook handler for Node's `(req, res)` servers (node:http,
 * Express, Connect, Fastify's raw request). It turns the request into a Fetch `Request` and
 * runs the same handler as `createWebhookHandler`, so both answer alike.
 *
 * @module delivery-sdk/webhooks/node
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DeliveryError } from '../errors/base.js';
import { readArgument } from './auth.js';
import { checkBodyTimeout, DEFAULT_WEBHOOK_BODY_TIMEOUT_MS, type ParsedBody, type WebhookHandlerOptions, webhookRequestHandler } from './handler.js';

export { DEFAULT_WEBHOOK_BODY_TIMEOUT_MS } from './handler.js';

/** A Node request; Express adds `body` when one of its body parsers ran. */
export type NodeWebhookRequest = IncomingMessage & { body?: unknown };

/** Express's `next`: called only when the adapter itself fails, never for a webhook's own answer. */
export type NodeNext = (error?: unknown) => void;

/**
 * The options of `createWebhookHandler`; the `Request` your callbacks get is built from Node's
 * `req`. `bodyTimeoutMs` (default 10 s) counts from the moment the adapter gets the request;
 * `Infinity` leaves it to Node's own `requestTimeout` (300 s).
 */
export type NodeWebhookHandlerOptions = WebhookHandlerOptions;

/**
 * A webhook endpoint for `node:http` and Express, with the same answers as
 * `createWebhookHandler` (`delivery-sdk/webhooks`) (405, 401, 415, 413, 400, 200, 500), and 408 when the body takes
 * longer than `bodyTimeoutMs`. It reads the raw body itself with the `maxBodyBytes` limit.
 *
 * Mount it before any body parser (or on a route without one): then the key is checked before a
 * byte of the body is read, and `maxBodyBytes` and `bodyTimeoutMs` hold. Behind a parser
 * (`express.json()`, `express.text()`, `express.raw()`) the parser has read the whole body, with
 * its own limits, before this runs; the adapter still checks the key first, then takes `req.body`
 * as it is (an object goes to `parseWebhookEvent` directly) and holds only its declared
 * `Content-Length` against `maxBodyBytes`.
 *
 * @throws `ConfigurationError` at once, for the mistakes `createWebhookHandler` refuses, and when
 * `bodyTimeoutMs` is not a positive whole number of milliseconds (or `Infinity`).
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
  const { bodyTimeoutMs = DEFAULT_WEBHOOK_BODY_TIMEOUT_MS, ...handlerOptions } = readArgument('options', (): NodeWebhookHandlerOptions => ({ ...options }));
  checkBodyTimeout(bodyTimeoutMs);
  // The adapter keeps the deadline itself: past it, it answers 408 on `res` and closes the connection.
  const handle = webhookRequestHandler({ ...handlerOptions, bodyTimeoutMs: Number.POSITIVE_INFINITY });
  return (req, res, next) => {
    // What Fetch cannot represent is answered here, before any body is read, never as a 500: a
    // stranger's TRACE or `//[` must not reach an error page (Express shows its stack in development).
    const refusal = refusalOf(req);
    if (refusal !== undefined) return refuse(req, res, refusal, handlerOptions.onError);
    let body: NodeBody | undefined;
    const failed = (err: unknown): void => {
      body?.discard();
      respondWithError(err, res, next);
    };
    try {
      // A body parser consumed the stream; Express 4 sets `req.body = {}` even when none matched,
      // so `body` counts only once the stream was actually read.
      const parsed: ParsedBody | undefined = req.readableEnded ? { value: req.body } : undefined;
      const read = (body = parsed === undefined ? streamBody(req, res, bodyTimeoutMs) : { init: null, discard: ignore });
      handle(toFetchRequest(req, read), parsed).then((response) => writeResponse(response, res, read), failed);
    } catch (err) {
      failed(err);
    }
  };
}

interface NodeBody {
  /** What the Request gets: a stream over `req`, or nothing when a parser read the body. */
  readonly init: BodyInit | null;
  /** Stops listening to `req` and lets Node throw away what the handler never read. */
  discard(): void;
}

function streamBody(req: IncomingMessage, res: ServerResponse, timeoutMs: number): NodeBody {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const onData = (chunk: Uint8Array | string): void => {
    controller?.enqueue(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    // Back-pressure: read on only when the handler asks for more.
    if ((controller?.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = (): void => {
    clearTimeout(deadline);
    controller?.close();
  };
  const onError = (err: unknown): void => {
    clearTimeout(deadline);
    controller?.error(err);
  };
  const discard = (): void => {
    clearTimeout(deadline);
    req.off('data', onData).off('end', onEnd).off('error', onError);
    controller = undefined;
    if (!req.readableEnded) req.resume();
  };
  if (timeoutMs !== Number.POSITIVE_INFINITY) {
    deadline = setTimeout(() => {
      // The handler's read fails (it would answer 400); the 408 goes first, so its answer is dropped.
      controller?.error(new Error(`the body did not arrive within ${timeoutMs} ms`));
      discard();
      answerTimeout(res, timeoutMs);
    }, timeoutMs);
    deadline.unref();
  }
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
  return { init, discard };
}

function answerTimeout(res: ServerResponse, timeoutMs: number): void {
  if (res.headersSent) return;
  res.statusCode = 408;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('connection', 'close');
  res.end(JSON.stringify({ error: `Request timeout: the body did not arrive within ${timeoutMs} ms` }));
}

interface Refusal {
  readonly status: 400 | 405;
  readonly message: string;
}

/** A method other than POST (405), or a request target that is no path (400): what the adapter answers itself. */
function refusalOf(req: IncomingMessage): Refusal | undefined {
  const method = (req.method ?? '').toUpperCase();
  if (method !== 'POST') return { status: 405, message: `Method not allowed: webhooks arrive as POST, not ${method.slice(0, 20)}` };
  const target = req.url ?? '/';
  // An origin-form target is a path; `//host...` is none, and some (`//[`, `//:99999/x`) no URL parser reads.
  if (target.startsWith('//') || (target.startsWith('/') && !URL.canParse(target, 'http://localhost')))
    return { status: 400, message: 'Bad request: the request target is not a path' };
  return undefined;
}

/** Answers a refusal, tells `onError` (with a stand-in GET request: Fetch cannot carry the real one), and drops the body unread. */
function refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal, onError: WebhookHandlerOptions['onError']): void {
  try {
    onError?.(new DeliveryError(refusal.message), new Request('http://localhost/'));
  } catch {
    // A failing logger must not change the answer.
  }
  if (!res.headersSent) {
    res.statusCode = refusal.status;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    if (refusal.status === 405) res.setHeader('allow', 'POST');
    res.setHeader('connection', 'close');
  }
  res.end(JSON.stringify({ error: refusal.message }));
  req.resume();
}

function toFetchRequest(req: NodeWebhookRequest, body: NodeBody): Request {
  const method = (req.method ?? 'GET').toUpperCase();
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // Without the stream the Request has no body: a length would describe bytes it does not carry. The handler reads the declared one as sent.
    if (value === undefined || (body.init === null && name === 'transfer-encoding')) continue;
    for (const part of Array.isArray(value) ? value : [value]) headers.append(name, part);
  }
  // The host is not the handler's concern (the Host header is the client's to forge); the scheme and
  // the path are what its telemetry records (`url.scheme`, `url.path`): the path as the app got it,
  // before Express's mounting stripped its prefix.
  const { originalUrl } = req as { originalUrl?: unknown };
  const target = typeof originalUrl === 'string' ? originalUrl : req.url;
  const path = target?.startsWith('/') ? target : '/';
  const origin = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true ? 'https://localhost' : 'http://localhost';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method !== 'GET' && method !== 'HEAD' && body.init !== null) {
    init.body = body.init;
    init.duplex = 'half';
  } else {
    body.discard();
  }
  return new Request(new URL(path, origin), init);
}

function writeResponse(response: Response, res: ServerResponse, body: NodeBody): void {
  const finish = (text: string): void => {
    body.discard();
    // Another middleware (a timeout) may have answered already: setting headers now would throw
    // inside a promise callback, an unhandled rejection that ends the process.
    if (res.headersSent) return;
    res.statusCode = response.status;
    response.headers.forEach((value, name) => res.setHeader(name, value));
    // An unread upload (401, 413, 415) would otherwise be read to its end before the next request.
    if (response.status === 401 || response.status === 413 || response.status === 415) res.setHeader('connection', 'close');
    res.end(text);
  };
  response.text().then(finish, () => finish(''));
}

function respondWithError(err: unknown, res: ServerResponse, next: NodeNext | undefined): void {
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
