/**
 * `delivery-sdk/webhooks/node`: the webhook handler for Node's `(req, res)` servers (node:http,
 * Express, Connect, Fastify's raw request). It turns the request into a Fetch `Request` and
 * runs the same handler as `createWebhookHandler`, so both answer alike.
 *
 * @module delivery-sdk/webhooks/node
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConfigurationError } from '../errors/base.js';
import { createWebhookHandler, type WebhookHandlerOptions } from './handler.js';
import { jsonPieces } from './json-pieces.js';

/** A Node request; Express adds `body` when one of its body parsers ran. */
export type NodeWebhookRequest = IncomingMessage & { body?: unknown };

/** Express's `next`: called only when the adapter itself fails, never for a webhook's own answer. */
export type NodeNext = (error?: unknown) => void;

/** The options of `createWebhookHandler`, and the body deadline; the `Request` your callbacks get is built from Node's `req`. */
export interface NodeWebhookHandlerOptions extends WebhookHandlerOptions {
  /**
   * Time the sender has to deliver the whole body, in milliseconds from the moment the adapter
   * gets the request; past it the answer is 408 and the connection closes. Default 10 s (a
   * webhook is under 1 KB). `Infinity` leaves it to Node's own `requestTimeout` (300 s).
   */
  readonly bodyTimeoutMs?: number | undefined;
}

/** The default body deadline of {@link createNodeWebhookHandler}. */
export const DEFAULT_WEBHOOK_BODY_TIMEOUT_MS = 10_000;

/** Past this, Node's timers fire at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * A webhook endpoint for `node:http` and Express, with the same answers as
 * {@link createWebhookHandler} (405, 401, 415, 413, 400, 200, 500), and 408 when the body takes
 * longer than `bodyTimeoutMs`. It reads the raw body itself with the `maxBodyBytes` limit, or
 * takes `req.body` when an Express body parser (`express.json()`, `express.text()`,
 * `express.raw()`) already read it; a parsed body is written back to JSON only once the key
 * was checked, and never past `maxBodyBytes`.
 *
 * @throws {ConfigurationError} at once, for the mistakes `createWebhookHandler` refuses, and when
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
  const { bodyTimeoutMs = DEFAULT_WEBHOOK_BODY_TIMEOUT_MS, ...handlerOptions } = options;
  if (bodyTimeoutMs !== Number.POSITIVE_INFINITY && !(Number.isSafeInteger(bodyTimeoutMs) && bodyTimeoutMs > 0 && bodyTimeoutMs <= LONGEST_TIMER_MS)) {
    throw new ConfigurationError(`bodyTimeoutMs: expected a positive whole number of milliseconds up to ${LONGEST_TIMER_MS}, or Infinity, received ${String(bodyTimeoutMs)}`);
  }
  const handle = createWebhookHandler(handlerOptions);
  return (req, res, next) => {
    let body: NodeBody | undefined;
    const failed = (err: unknown): void => {
      body?.discard();
      fail(err, res, next);
    };
    try {
      const read = (body = requestBody(req, res, bodyTimeoutMs));
      handle(toFetchRequest(req, read)).then((response) => {
        // The handler answered 400 to a body the adapter could not write back: that failure is the adapter's.
        if (read.failure !== undefined) failed(read.failure);
        else send(response, res, read);
      }, failed);
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
  /** Set when writing a parsed body back to JSON failed (a BigInt, a cycle): an error of the adapter, not the sender. */
  readonly failure: unknown;
  /** Stops listening to `req` and lets Node throw away what the handler never read. */
  discard(): void;
}

function requestBody(req: NodeWebhookRequest, res: ServerResponse, timeoutMs: number): NodeBody {
  // A body parser consumed the stream; Express 4 sets `req.body = {}` even when none matched,
  // so `body` counts only once the stream was actually read.
  if (req.readableEnded) return parsedBody(req.body);
  return streamBody(req, res, timeoutMs);
}

/**
 * A body an Express parser already read. Strings and bytes go as they are (bytes, so that Fetch
 * adds no `text/plain` type of its own); anything else is written back to JSON lazily, only when
 * the handler reads it (after the key and the type were checked), and no further than it reads.
 */
function parsedBody(value: unknown): NodeBody {
  const body = { init: null as BodyInit | null, replaced: true, failure: undefined as unknown, discard: ignore };
  if (value === undefined || value === null) return body;
  if (typeof value === 'string') body.init = new TextEncoder().encode(value);
  else if (value instanceof Uint8Array) body.init = new Uint8Array(value);
  else {
    const pieces = jsonPieces(value);
    const encoder = new TextEncoder();
    body.init = new ReadableStream<Uint8Array>({
      pull(controller) {
        let text = '';
        try {
          for (let next = pieces.next(); !next.done; next = pieces.next()) {
            text += next.value;
            if (text.length >= 16 * 1024) {
              controller.enqueue(encoder.encode(text));
              return;
            }
          }
        } catch (err) {
          body.failure = err;
          controller.error(err);
          return;
        }
        if (text !== '') controller.enqueue(encoder.encode(text));
        controller.close();
      },
      cancel() {
        pieces.return();
      },
    });
  }
  return body;
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
  return { init, replaced: false, failure: undefined, discard };
}

function answerTimeout(res: ServerResponse, timeoutMs: number): void {
  if (res.headersSent) return;
  res.statusCode = 408;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('connection', 'close');
  res.end(JSON.stringify({ error: `Request timeout: the body did not arrive within ${timeoutMs} ms` }));
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
    // An unread upload (401, 413, 415) would otherwise be read to its end before the next request.
    if (response.status === 401 || response.status === 413 || response.status === 415) res.setHeader('connection', 'close');
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
