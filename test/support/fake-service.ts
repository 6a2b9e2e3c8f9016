// The one fake of the service, for what the sandbox cannot do: answers scripted to the byte (an
// odd status, a body cut short, a header, a refusal worded as some integration met it), a lost
// answer, a page repeated. A plain node:http server on 127.0.0.1: the SDK's requests go over a real
// socket through the platform's fetch, as they do in production. Behaviour is tested against the
// sandbox (test/support/sandbox.ts); msw only where a test shows users msw (test/sandbox/msw.test.ts).
//
// Routes are written two ways, each answered by the same server:
// - `on('GET /cities/:id/zones', (received) => envelope(...))`: the request read (method, path
//   below `/v2`, query, headers, JSON body), an answer of a status and a body;
// - `use(http.get(`${BASE}/cities`, ({ request }) => Response.json(...)))`: a Fetch Request in, a
//   Fetch Response out (`Response.error()` drops the connection), written as msw handlers are.
// `clientOnFetch` answers in process instead, for the tests whose clock is fake (no socket).
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { BulkCreationError, DeliveryClient, type DeliveryClientOptions } from '../../src/index.js';

export const KEY = 'sk_live_SECRET_do_not_leak_42';

/** A request as the fake received it. */
export interface Received {
  method: string;
  /** Below `/v2`. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** What the fake answers: a status and a JSON body (or text, for a non-JSON answer). */
export interface FakeAnswer {
  status?: number;
  json?: unknown;
  text?: string;
}

export type FakeRoute = (request: Received) => FakeAnswer;

/** A handler written as msw's are: a method, a URL (a `:name` stands for a segment), and the answer to a Fetch Request. */
export interface Handler {
  readonly method: string;
  readonly url: string;
  readonly resolver: (info: { request: Request }) => Response | Promise<Response>;
}

type Resolver = Handler['resolver'];
const handler =
  (method: string) =>
  (url: string, resolver: Resolver): Handler => ({ method, url, resolver });

/** Handlers by method, as msw's `http` writes them. */
export const http = { get: handler('GET'), post: handler('POST'), put: handler('PUT'), patch: handler('PATCH'), delete: handler('DELETE') };

/** A Fetch Response: `HttpResponse.json(...)`, `HttpResponse.error()`, as msw names it. */
export class HttpResponse extends Response {}

export interface FakeService {
  /** Ends in `/v2`. */
  readonly baseUrl: string;
  /** Every request, in order. */
  readonly received: Received[];
  /** The requests no route answered (`unhandled: 'error'`). */
  readonly unhandled: string[];
  on(route: string, answer: FakeRoute): void;
  use(...handlers: Handler[]): void;
  /** Forgets the routes, the handlers and what was received. */
  reset(): void;
  close(): Promise<void>;
}

const patternOf = (path: string): RegExp => new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/:[a-z]+/gi, '[^/]+')}$`, 'i');

/**
 * Starts the fake. A request no route answers gets a 404 in the service's words, or, with
 * `unhandled: 'error'`, its connection dropped and its line in `unhandled`.
 */
export async function startFakeService(options: { unhandled?: 'not-found' | 'error' } = {}): Promise<FakeService> {
  const received: Received[] = [];
  const unhandled: string[] = [];
  let routes: Array<{ method: string; pattern: RegExp; answer: FakeRoute }> = [];
  let handlers: Array<{ method: string; pattern: RegExp; resolver: Resolver }> = [];
  let origin = '';

  const answer = async (req: IncomingMessage, res: ServerResponse, bytes: Buffer): Promise<void> => {
    const url = new URL(req.url ?? '/', origin);
    const method = req.method ?? 'GET';
    const text = bytes.toString('utf8');
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    const request: Received = { method, path: url.pathname.replace(/^\/v2/, ''), query: Object.fromEntries(url.searchParams), headers: req.headers, body };
    received.push(request);
    const written = handlers.find((candidate) => candidate.method === method && candidate.pattern.test(url.pathname));
    if (written !== undefined) {
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
      const fetchRequest = new Request(url, {
        method,
        headers,
        body: method === 'GET' || method === 'HEAD' || bytes.length === 0 ? null : new Uint8Array(bytes),
      });
      const response = await written.resolver({ request: fetchRequest });
      if (response.type === 'error') {
        req.socket.destroy();
        return;
      }
      const head: Record<string, string[]> = {};
      response.headers.forEach((value, name) => {
        head[name] = [...(head[name] ?? []), value];
      });
      res.writeHead(response.status, head).end(Buffer.from(await response.arrayBuffer()));
      return;
    }
    const route = [...routes].reverse().find((candidate) => candidate.method === method && candidate.pattern.test(request.path));
    if (route === undefined && options.unhandled === 'error') {
      unhandled.push(`${method} ${url.pathname}`);
      req.socket.destroy();
      return;
    }
    const given = route?.answer(request) ?? { status: 404, json: { success: false, message: 'Not found' } };
    res
      .writeHead(given.status ?? 200, { 'content-type': given.text === undefined ? 'application/json' : 'text/plain' })
      .end(given.text ?? JSON.stringify(given.json));
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      answer(req, res, Buffer.concat(chunks)).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`the fake's handler threw: ${String(error)}`);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: `${origin}/v2`,
    received,
    unhandled,
    on: (route, given) => {
      const [method = 'GET', path = '/'] = route.split(' ');
      routes.push({ method, pattern: patternOf(path), answer: given });
    },
    // The last handlers used answer first, as msw's do.
    use: (...added) => {
      handlers = [...added.map(({ method, url, resolver }) => ({ method, pattern: patternOf(url.replace(/^https?:\/\/[^/]+/, '')), resolver })), ...handlers];
    },
    reset: () => {
      routes = [];
      handlers = [];
      received.length = 0;
      unhandled.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The service's envelope. */
export const envelope = (data: unknown, message = 'Success'): FakeAnswer => ({ json: { success: true, message, data } });

/** The base URL of the file's fake (`useFakeService`), ending in `/v2`; set before its first test. */
export let BASE = '';
let current: FakeService | undefined;

/**
 * The fake for one test file: started before its tests, its routes and handlers forgotten after
 * each, closed after the last. A request no handler answers fails the test.
 */
export function useFakeService(): FakeService {
  let service: FakeService | undefined;
  const started = (): FakeService => {
    if (service === undefined) throw new Error('the fake starts before the first test');
    return service;
  };
  beforeAll(async () => {
    service = await startFakeService({ unhandled: 'error' });
    current = service;
    BASE = service.baseUrl;
  });
  afterEach(() => {
    const unanswered = [...started().unhandled];
    started().reset();
    expect(unanswered, 'requests no handler answered').toEqual([]);
  });
  afterAll(async () => {
    await service?.close();
    if (current === service) current = undefined;
  });
  return {
    get baseUrl() {
      return started().baseUrl;
    },
    get received() {
      return started().received;
    },
    get unhandled() {
      return started().unhandled;
    },
    on: (route, answer) => started().on(route, answer),
    use: (...handlers) => started().use(...handlers),
    reset: () => started().reset(),
    close: () => started().close(),
  };
}

/** A client of the file's fake (`useFakeService`), or of `options.baseUrl`, with the key and short retry waits. */
export function makeClient(options: Partial<DeliveryClientOptions> = {}): DeliveryClient {
  const baseUrl = options.baseUrl ?? current?.baseUrl;
  if (baseUrl === undefined) throw new Error('makeClient: no baseUrl, and no fake of useFakeService started');
  return new DeliveryClient({ apiKey: KEY, retryDelay: { base: 1, max: 5 }, ...options, baseUrl });
}

export function errorBody(errorCode: number | undefined, message: string) {
  return { success: false, message, ...(errorCode === undefined ? {} : { errorCode }), data: null };
}

/** A request as it went over the wire. */
export interface Sent {
  method: string;
  path: string;
  /** The raw query string, `''` when there is none. */
  search: string;
  headers: Record<string, string>;
  /** The body exactly as sent. */
  text: string;
  /** The body parsed, `undefined` when empty. */
  json: unknown;
}

export async function record(request: Request): Promise<Sent> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const text = await request.text();
  return {
    method: request.method,
    path: url.pathname.replace(/^\/v2/, ''),
    search: url.search,
    headers,
    text,
    json: text === '' ? undefined : JSON.parse(text),
  };
}

/** The spec's success envelope. */
export const ok = (data: unknown, status = 200) => Response.json({ success: true, message: 'Success', data }, { status });

/** Answers every request to `method path` with `answer` and records what was sent. */
export function capture(service: FakeService, method: 'get' | 'post' | 'put', path: string, answer: (sent: Sent) => Response | Promise<Response>) {
  const sent: Sent[] = [];
  service.use(
    http[method](`/v2${path}`, async ({ request }) => {
      const one = await record(request);
      sent.push(one);
      return answer(one);
    }),
  );
  return sent;
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Addresses and people as a test would copy them from the lookup lists. */
export const dropOffAddress = { city: 'Giza', districtId: 'district-dokki', firstLine: '12 Tahrir Street, 3rd floor' };
export const pickupAddress = { city: 'Cairo', districtId: 'district-zamalek', firstLine: '7 Brazil Street, Zamalek' };
export const receiver = { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' };

/** The BulkCreationError a bulk upload rejects with (a test fails when it resolves or rejects with anything else). */
export function bulkFailure(promise: Promise<unknown>): Promise<BulkCreationError> {
  return rejection(promise, BulkCreationError);
}

/** The error of class `Class` a call rejects with (the test fails when it resolves or rejects with anything else). */
export async function rejection<E extends Error>(promise: Promise<unknown>, Class: abstract new (...args: never[]) => E): Promise<E> {
  const outcome = await promise.then(
    () => new Error(`expected a ${Class.name}`),
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(Class);
  return outcome as E;
}

/** The base URL `clientOnFetch`'s client calls: no server listens there, its `fetch` answers. */
export const IN_PROCESS = 'https://api.delivery.test/v2';

/**
 * A client whose `fetch` answers each request in process with `answer(request, index)` and keeps
 * every request sent: for tests whose clock is fake (no socket, no timer of a server) and for those
 * that count what reached the service. Retries off unless `options` says otherwise.
 */
export function clientOnFetch(
  answer: (request: Request, index: number) => Response | Promise<Response>,
  options: Partial<DeliveryClientOptions> = {},
): { client: DeliveryClient; sent: Request[] } {
  const sent: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    sent.push(request);
    return answer(request, sent.length - 1);
  };
  return { sent, client: new DeliveryClient({ baseUrl: IN_PROCESS, apiKey: KEY, fetch, maxRetries: 0, ...options }) };
}
