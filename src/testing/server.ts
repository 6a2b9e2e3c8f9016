import type { IncomingMessage, ServerResponse } from 'node:http';
import { isConnectionReset } from './faults.js';

/** Where {@link Sandbox.listen} serves the sandbox. */
export interface ListenOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Interface to bind; default 127.0.0.1 (never reachable from outside the machine). */
  readonly host?: string;
}

/** A running sandbox HTTP server. */
export interface SandboxServer {
  /** e.g. `http://127.0.0.1:4010/v2`: pass it as the client's `baseUrl`. */
  readonly baseUrl: string;
  readonly port: number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = req.method ?? 'GET';
  const chunks: Uint8Array[] = [];
  for await (const chunk of req) chunks.push(chunk as Uint8Array);
  const size = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  const hasBody = method !== 'GET' && method !== 'HEAD' && size > 0;
  return new Request(`${origin}${req.url ?? '/'}`, { method, headers, ...(hasBody ? { body } : {}) });
}

async function serve(handler: (request: Request) => Promise<Response>, origin: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const response = await handler(await toRequest(req, origin));
    const payload = new Uint8Array(await response.arrayBuffer());
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    res.writeHead(response.status, headers);
    res.end(payload);
  } catch (err) {
    // A dropped connection, for real: the client sees a reset socket, not an answer.
    if (isConnectionReset(err)) {
      req.socket.destroy();
      return;
    }
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: false, message: `Sandbox internal error: ${err instanceof Error ? err.message : String(err)}`, data: null }));
  }
}

/** Serves `handler` over node:http (imported on call, so the testing entry still loads in a browser). */
export async function startServer(handler: (request: Request) => Promise<Response>, options: ListenOptions = {}): Promise<SandboxServer> {
  const http = await import('node:http');
  const host = options.host ?? '127.0.0.1';
  let origin = '';
  const server = http.createServer((req, res) => {
    void serve(handler, origin, req, res);
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
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
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
