/**
 * Run by stalled-body.test.ts as `node --expose-gc --import tsx`: calls a server that answers
 * 503, then sends headers and part of a body and stalls, while garbage is collected every 50 ms.
 * Prints the class of each call's error as one JSON line; a call still pending after the
 * watchdog's time is printed as "hung".
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeliveryClient } from '../../../src/index.js';

const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error('run with --expose-gc');
const churn = setInterval(collect, 50);

// Each call has a path of its own, so that a late request of one call cannot shift what another
// meets: a path's first request fails with 503, every later one stalls mid-body.
const seen = new Map<string, number>();
const stalled: ServerResponse[] = [];
/** Called with the path of each request that stalls, once its partial body is written. */
let onStall: (path: string) => void = () => undefined;
const server = createServer((req, res) => {
  const path = req.url ?? '';
  const count = (seen.get(path) ?? 0) + 1;
  seen.set(path, count);
  if (count === 1) {
    res.writeHead(503, { 'content-type': 'application/json' }).end('{"success":false,"message":"busy"}');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"success":true,"data":{"part":"');
  stalled.push(res);
  onStall(path);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;

/**
 * The class of the error `call` rejects with, or "hung" when it has not settled within `ms` of
 * `from` (a moment the call must react to; default: now).
 */
async function outcome(call: Promise<unknown>, ms: number, from: Promise<void> = Promise.resolve()): Promise<string> {
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  const hung = from.then(
    () =>
      new Promise<string>((resolve) => {
        watchdog = setTimeout(() => resolve('hung'), ms);
      }),
  );
  const settled = call.then(
    () => 'resolved',
    (error: unknown) => (error instanceof Error ? error.constructor.name : typeof error),
  );
  const result = await Promise.race([settled, hung]);
  clearTimeout(watchdog);
  return result;
}

const client = new DeliveryClient({
  baseUrl,
  apiKey: 'sk_test_stalled_body',
  timeout: 200,
  totalTimeout: 800,
  maxRetries: 1,
  retryDelay: { base: 1, max: 1 },
});
// 800 ms of deadline; a call not settled 20 s later is hung (a loaded machine runs late, never that late).
const deadline = await outcome(client.request({ method: 'GET', path: '/stall-at-deadline' }), 20_000);

// The caller's abort, with clocks that would not fire for a minute.
const patient = new DeliveryClient({
  baseUrl,
  apiKey: 'sk_test_stalled_body',
  timeout: 60_000,
  totalTimeout: 120_000,
  maxRetries: 1,
  retryDelay: { base: 1, max: 1 },
});
const controller = new AbortController();
// Abort once the retry stalls, with collection running meanwhile: the 503 is handled by then.
onStall = (path) => {
  if (path.endsWith('/stall-then-abort')) setTimeout(() => controller.abort(), 100);
};
const call = patient.request({ method: 'GET', path: '/stall-then-abort' }, { signal: controller.signal });
// The watchdog counts from the abort, not from the call: on a loaded machine the 503 and the
// retry before the stall may take seconds, and that is not the call hanging after its abort.
const aborted = await outcome(call, 20_000, new Promise<void>((resolve) => controller.signal.addEventListener('abort', () => resolve(), { once: true })));

process.stdout.write(`${JSON.stringify({ deadline, aborted })}\n`);
clearInterval(churn);
for (const res of stalled) res.destroy();
server.closeAllConnections();
server.close();
process.exit(0);
