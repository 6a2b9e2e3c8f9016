import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_TIMER } from '../internal/timer.js';
import { SandboxError } from './errors.js';
import { isConnectionReset } from './faults.js';
import { isIpAddress, isLoopbackHostHeader, isLoopbackName, isLoopbackOrigin } from './network.js';
import { CONTROL_PREFIX, DASHBOARD_PREFIX, errorResponse, type Peer, RuleViolation } from './wire.js';

/** Where {@link Sandbox.listen} serves the sandbox. */
export interface ListenOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  readonly port?: number;
  /**
   * Interface to bind; default 127.0.0.1 (never reachable from outside the machine). Any other
   * (`0.0.0.0`, a LAN address) prints a warning: the API and its test key are then open to the
   * network; the control endpoints still answer this machine only.
   */
  readonly host?: string;
  /** Largest request body read, in bytes; past it the answer is 413 and the rest is not read. Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Time a client has to send a request's whole body, from its headers; past it the answer is 408 and the connection closes. Default 30 s. */
  readonly bodyTimeoutMs?: number;
  /**
   * Web page origins (`'https://app.example:3000'`) allowed to call the API from a browser, besides
   * pages served from this machine (a loopback origin). Any other `Origin` gets 403 and no CORS
   * header, preflights included.
   */
  readonly cors?: readonly string[];
  /**
   * Names the `Host` header may carry besides loopback ones (`localhost`, `127.0.0.1`, `[::1]`)
   * and IP addresses, e.g. a container's name (`'sandbox'`); any other gets 403 (DNS rebinding).
   */
  readonly allowedHosts?: readonly string[];
}

/** The default {@link ListenOptions.bodyTimeoutMs}: a 1 MiB body arrives well within it on any link a test runs on. */
const DEFAULT_SANDBOX_BODY_TIMEOUT_MS = 30_000;

/** The default {@link ListenOptions.maxBodyBytes}: a bulk chunk of 100 orders is well under it. */
const DEFAULT_SANDBOX_MAX_BODY_BYTES = 1024 * 1024;

/** What the server hands each request to, with who sent it. */
type ServedHandler = (request: Request, peer: Peer) => Promise<Response>;

/** A running sandbox HTTP server. */
export interface SandboxServer {
  /** e.g. `http://127.0.0.1:4010/v2`: pass it as the client's `baseUrl`. */
  readonly baseUrl: string;
  /**
   * The dashboard, on the same origin (`http://127.0.0.1:4010/__dashboard/?login=…`): open it in a
   * browser on this machine. The query carries a login secret of its own (neither the control
   * token nor a merchant's key), which the first visit trades for a cookie only the dashboard
   * reads; it stays valid while the sandbox runs.
   */
  readonly dashboardUrl: string;
  readonly port: number;
  /** What the control endpoints under `/__sandbox/` ask for, in the header `X-Sandbox-Token`. */
  readonly controlToken: string;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Methods a Fetch `Request` can carry (TRACE, TRACK and CONNECT it refuses). */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** A request the Fetch API cannot represent, answered here: `OPTIONS *`, absolute-form targets, TRACE. */
function refusal(req: IncomingMessage): Response | undefined {
  const method = req.method ?? '';
  if (!METHODS.includes(method)) return errorResponse(405, `Method not allowed: ${method}`, undefined, null, { allow: METHODS.join(', ') });
  if (req.url?.startsWith('/') !== true) return errorResponse(400, 'Bad request: the request target must be a path, not * or an absolute URL');
  return undefined;
}

/** Who may call the API routes over HTTP: the names their `Host` may carry and the pages (`Origin`) that may call them. */
interface ApiAccess {
  readonly hosts: ReadonlySet<string>;
  readonly origins: ReadonlySet<string>;
}

function apiAccess(options: ListenOptions): ApiAccess {
  const origins = new Set<string>();
  for (const entry of options.cors ?? []) {
    let origin: string | undefined;
    try {
      origin = typeof entry === 'string' ? new URL(entry).origin : undefined;
    } catch {
      origin = undefined;
    }
    if (origin === undefined || origin === 'null' || origin !== entry.replace(/\/$/, '')) {
      throw new SandboxError(`listen: cors: expected origins such as 'https://app.example:3000', received ${JSON.stringify(entry)}`);
    }
    origins.add(origin);
  }
  const hosts = new Set<string>();
  for (const name of options.allowedHosts ?? []) {
    if (typeof name !== 'string' || !/^[a-z0-9.-]+$/i.test(name)) {
      throw new SandboxError(`listen: allowedHosts: expected host names without a port, received ${JSON.stringify(name)}`);
    }
    hosts.add(name.toLowerCase());
  }
  return { hosts, origins };
}

/** A `Host` the API answers: loopback, an IP address (no DNS rebinding reaches one), or a name the developer allowed. */
function isAllowedHost(host: string | undefined, access: ApiAccess): boolean {
  if (isLoopbackHostHeader(host)) return true;
  const name = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+)(?::\d{1,5})?$/.exec(host ?? '')?.[1]?.toLowerCase();
  return name !== undefined && (isIpAddress(name) || access.hosts.has(name));
}

const isAllowedOrigin = (origin: string, access: ApiAccess): boolean => isLoopbackOrigin(origin) || access.origins.has(origin);

/**
 * The API routes over HTTP: 403 for a foreign `Host` (DNS rebinding) or a foreign `Origin` (any
 * web page the developer visits); CORS headers only for an allowed origin, and naming it.
 */
async function answerApi(handler: ServedHandler, request: Request, peer: Peer, access: ApiAccess): Promise<Response> {
  if (!isAllowedHost(peer.host, access)) {
    const host = JSON.stringify(peer.host ?? '');
    return withoutCors(errorResponse(403, `Forbidden: the sandbox answers Host ${host} only if it is loopback, an IP address or in listen({ allowedHosts })`));
  }
  if (peer.origin !== undefined && !isAllowedOrigin(peer.origin, access)) {
    const message = `Forbidden: the sandbox answers web pages from this machine only, and origins in listen({ cors }) (--cors); not ${peer.origin}`;
    return withoutCors(errorResponse(403, message));
  }
  const response = await handler(request, peer);
  if (peer.origin === undefined) return withoutCors(response);
  if (response.headers.has('access-control-allow-origin')) {
    response.headers.set('access-control-allow-origin', peer.origin);
    response.headers.append('vary', 'Origin');
  }
  return response;
}

function withoutCors(response: Response): Response {
  for (const name of [...response.headers.keys()]) {
    if (name.startsWith('access-control-')) response.headers.delete(name);
  }
  return response;
}

function toRequest(req: IncomingMessage, origin: string, maxBodyBytes: number, bodyTimeoutMs: number): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = cappedBody(req, maxBodyBytes, bodyTimeoutMs);
    init.duplex = 'half';
  }
  return new Request(`${origin}${req.url ?? '/'}`, init);
}

/**
 * `req` as a stream that fails with a 413 `RuleViolation` once past `limit`. It is read as it
 * arrives, not when a route asks: a route checks the key without waiting for it (a request without
 * one gets 401 at once, and the connection closes), and a body that arrived whole is kept even if
 * the client gives up while its answer is slowed down, as a real server would have it. Never more
 * than `limit` bytes of it are held.
 */
function cappedBody(req: IncomingMessage, limit: number, timeoutMs: number): ReadableStream<Uint8Array> {
  const tooLarge = new RuleViolation(413, `Payload too large: the sandbox reads request bodies up to ${limit} bytes`);
  let size = 0;
  let controller: ReadableStreamDefaultController<Uint8Array>;
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const stop = (): void => {
    clearTimeout(deadline);
    req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
  };
  const onData = (chunk: Uint8Array): void => {
    size += chunk.byteLength;
    if (size > limit) {
      stop();
      controller.error(tooLarge);
      return;
    }
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  };
  const onEnd = (): void => {
    stop();
    controller.close();
  };
  const onError = (err: unknown): void => {
    stop();
    controller.error(err);
  };
  const onClose = (): void => onError(new Error('the client closed the connection before the body ended'));
  return new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      if (Number(req.headers['content-length']) > limit) {
        streamController.error(tooLarge);
        return;
      }
      req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
      deadline = setTimeout(() => {
        stop();
        streamController.error(new RuleViolation(408, `Request timeout: the body did not arrive within ${timeoutMs} ms`));
      }, timeoutMs);
      deadline.unref();
    },
    cancel: stop,
  });
}

function peerOf(req: IncomingMessage): Peer {
  const origin = req.headers.origin;
  return { remoteAddress: req.socket.remoteAddress, host: req.headers.host, origin: Array.isArray(origin) ? origin.join(', ') : origin };
}

interface ServeOptions {
  readonly origin: string;
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly access: ApiAccess;
}

async function answer(handler: ServedHandler, options: ServeOptions, req: IncomingMessage): Promise<Response> {
  const refused = refusal(req);
  if (refused !== undefined) return refused;
  let request: Request;
  try {
    request = toRequest(req, options.origin, options.maxBodyBytes, options.bodyTimeoutMs);
  } catch (err) {
    // Something node:http let through but Fetch refuses: the request's fault, not the sandbox's.
    return errorResponse(400, `Bad request: ${err instanceof Error ? err.message : String(err)}`);
  }
  const peer = peerOf(req);
  // The control endpoints and the dashboard make their own, stricter checks (a loopback peer as well).
  const { pathname } = new URL(request.url);
  if (pathname.startsWith(`${CONTROL_PREFIX}/`) || pathname === DASHBOARD_PREFIX || pathname.startsWith(`${DASHBOARD_PREFIX}/`)) return handler(request, peer);
  return answerApi(handler, request, peer, options.access);
}

/** Writes an event stream's chunks as they come, until it ends or the client goes away. */
async function stream(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
  } catch {
    // The stream was cancelled: the client left.
  }
  res.end();
}

async function serve(handler: ServedHandler, options: ServeOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let status: number;
  let payload: Uint8Array;
  const headers: Record<string, string> = {};
  try {
    const response = await answer(handler, options, req);
    // Server-Sent Events (the dashboard's live updates): written as they come, never buffered whole.
    if (response.body !== null && response.headers.get('content-type')?.startsWith('text/event-stream') === true) return await stream(response, res);
    status = response.status;
    payload = new Uint8Array(await response.arrayBuffer());
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
  } catch (err) {
    // A dropped connection, for real: the client sees a reset socket, not an answer.
    if (isConnectionReset(err)) {
      req.socket.destroy();
      return;
    }
    status = 500;
    payload = new TextEncoder().encode(
      JSON.stringify({ success: false, message: `Sandbox internal error: ${err instanceof Error ? err.message : String(err)}`, data: null }),
    );
    headers['content-type'] = 'application/json';
  }
  // A body left unread (401, 404, 413) would otherwise be read to its end before the next request.
  if (!req.complete) headers['connection'] = 'close';
  res.writeHead(status, headers);
  res.end(payload);
}

/**
 * Serves `handler` over node:http (imported on call, so the testing entry still loads in a
 * browser). Binding anything but a loopback interface prints a warning.
 */
export async function startServer(handler: ServedHandler, options: ListenOptions = {}): Promise<Omit<SandboxServer, 'controlToken' | 'dashboardUrl'>> {
  const http = await import('node:http');
  const host = options.host ?? '127.0.0.1';
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_SANDBOX_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0)
    throw new SandboxError(`listen: maxBodyBytes: expected a positive whole number of bytes, received ${String(maxBodyBytes)}`);
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_SANDBOX_BODY_TIMEOUT_MS;
  if (!Number.isSafeInteger(bodyTimeoutMs) || bodyTimeoutMs <= 0 || bodyTimeoutMs > MAX_TIMER) {
    throw new SandboxError(`listen: bodyTimeoutMs: expected a positive whole number of milliseconds, received ${String(bodyTimeoutMs)}`);
  }
  const serveOptions = { origin: '', maxBodyBytes, bodyTimeoutMs, access: apiAccess(options) };
  const server = http.createServer((req, res) => {
    void serve(handler, serveOptions, req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  serveOptions.origin = origin;
  if (!isLoopbackName(host)) {
    process.emitWarning(
      `The delivery sandbox listens on ${origin}, reachable from other machines: its API and test key are open to them (its /__sandbox/ control endpoints still answer this machine only). Bind 127.0.0.1 unless you mean it.`,
      { code: 'DELIVERY_SANDBOX_EXPOSED' },
    );
  }
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `${origin}/v2`,
    port,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
