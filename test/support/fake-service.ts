import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

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

/**
 * A plain node:http server on 127.0.0.1 answering in the shapes of live-service.md: routes are
 * `'METHOD /path'` (with `:id` for one segment), the answer of the last matching route wins.
 */
export async function startFakeService(): Promise<{
  baseUrl: string;
  received: Received[];
  on: (route: string, answer: FakeRoute) => void;
  close: () => Promise<void>;
}> {
  const received: Received[] = [];
  const routes: Array<{ method: string; pattern: RegExp; answer: FakeRoute }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const text = Buffer.concat(chunks).toString('utf8');
      const request: Received = {
        method: req.method ?? 'GET',
        path: url.pathname.replace(/^\/v2/, ''),
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: text === '' ? undefined : JSON.parse(text),
      };
      received.push(request);
      const route = [...routes].reverse().find((r) => r.method === request.method && r.pattern.test(request.path));
      const answer = route?.answer(request) ?? { status: 404, json: { success: false, message: 'Not found' } };
      const body = answer.text ?? JSON.stringify(answer.json);
      res.writeHead(answer.status ?? 200, { 'content-type': answer.text === undefined ? 'application/json' : 'text/plain' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v2`,
    received,
    on: (route, answer) => {
      const [method = 'GET', path = '/'] = route.split(' ');
      routes.push({ method, pattern: new RegExp(`^${path.replace(/:[a-z]+/gi, '[^/]+')}$`), answer });
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
