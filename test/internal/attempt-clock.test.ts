// `timeout` bounds one attempt from sending to the last byte of its answer, and a call ends
// with nothing left open: an answer cut off (too large, timed out) frees its connection.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryClient, type DeliveryClientOptions, ResponseTooLargeError, TimeoutError } from '../../src/index.js';

type Handler = (req: IncomingMessage, res: ServerResponse, nth: number) => void;

let handler: Handler = (_req, res) => res.end();
let requests = 0;
/** Connections that carried a request, until they close. (undici may also open an idle spare connection after one is cut: it carries no call.) */
const carrying = new Set<Socket>();
let allClosed: () => void = () => undefined;
const server = createServer((req, res) => {
  if (!carrying.has(req.socket)) {
    carrying.add(req.socket);
    req.socket.once('close', () => {
      carrying.delete(req.socket);
      if (carrying.size === 0) allClosed();
    });
  }
  handler(req, res, ++requests);
});
let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function serve(next: Handler): void {
  requests = 0;
  handler = next;
}

const client = (options: Partial<DeliveryClientOptions> = {}) =>
  new DeliveryClient({ baseUrl, apiKey: 'sk_test_attempt_clock', retryDelay: { base: 1, max: 1 }, ...options });

/** Headers and the start of a body, then nothing more until the client goes away. */
function stallMidBody(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"success":true,"data":"');
}

/** Connections that carried a request and are still open, once there are none or after `ms` of waiting. */
async function connectionsOpenAfter(ms: number): Promise<number> {
  if (carrying.size > 0) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      allClosed = resolve;
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
  }
  return carrying.size;
}

describe('timeout: one attempt, send to last byte', () => {
  it('retries a GET whose body stalls, as it retries any timed-out attempt', async () => {
    serve((_req, res, nth) => (nth === 1 ? stallMidBody(res) : res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":"ok"}')));
    await expect(client({ timeout: 300, totalTimeout: 30_000, maxRetries: 1 }).request({ method: 'GET', path: '/r' })).resolves.toBe('ok');
    expect(requests).toBe(2);
  });

  it('ends a POST whose body stalls with TimeoutError, without sending it again', async () => {
    serve((_req, res) => stallMidBody(res));
    await expect(client({ timeout: 300, totalTimeout: 30_000, maxRetries: 2 }).request({ method: 'POST', path: '/r', body: {} })).rejects.toBeInstanceOf(
      TimeoutError,
    );
    expect(requests).toBe(1);
  });
});

describe('connections', () => {
  it('are all closed after answers cut off at maxResponseBytes', async () => {
    // 64 KB, then nothing more: only the client's cancel can end such a connection.
    serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"success":true,"data":"${'x'.repeat(64 * 1024)}`);
    });
    const small = client({ maxResponseBytes: 4096 });
    for (let i = 0; i < 20; i++) await expect(small.request({ method: 'GET', path: '/big' })).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect(await connectionsOpenAfter(10_000)).toBe(0);
  });

  it('are all closed after attempts cut off by timeout', async () => {
    serve((_req, res) => stallMidBody(res));
    const impatient = client({ timeout: 50, maxRetries: 1 });
    for (let i = 0; i < 5; i++) await expect(impatient.request({ method: 'GET', path: '/stall' })).rejects.toBeInstanceOf(TimeoutError);
    expect(await connectionsOpenAfter(10_000)).toBe(0);
  });
});
