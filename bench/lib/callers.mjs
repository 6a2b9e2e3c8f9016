/**
 * The ways of creating the same order that the per-call and heap benchmarks compare: the SDK
 * (`deliveries.create`, validation on, and off for reference), a raw `fetch` POST, and plain ky
 * (with its defaults, and without retry and timeout for reference).
 */
import { pathToFileURL } from 'node:url';
import { realisticOrder } from './order.mjs';
import { runPool } from './pool.mjs';

export const API_KEY = 'bench-api-key';

/** Resolves to `{ callers: { sdk?, fetch?, ky? }, notes }`; `only` loads just one of them. */
export async function makeCallers({ targets, kyPath, baseUrl, only }) {
  const wanted = (name) => only === undefined || only === name;
  const order = realisticOrder();
  const url = `${baseUrl}/deliveries?apiVersion=1`;
  const callers = {};
  const notes = [];

  if (wanted('sdk')) {
    const { DeliveryClient } = await import(pathToFileURL(targets.main).href);
    const client = new DeliveryClient({ baseUrl, apiKey: API_KEY });
    if (typeof client.deliveries?.create === 'function') {
      callers.sdk = () => client.deliveries.create(order);
      // Where the SDK's time goes: the same call without the client-side rule checks.
      callers.sdkUnvalidated = () => client.deliveries.create(order, { validate: false });
    } else {
      notes.push('`deliveries.create` has not landed: measured `client.request` (POST /deliveries, no validation) in its place');
      callers.sdk = () => client.request({ method: 'POST', path: '/deliveries', query: { apiVersion: 1 }, body: order });
    }
  }
  if (wanted('fetch')) {
    const headers = { accept: 'application/json', 'content-type': 'application/json', authorization: API_KEY };
    callers.fetch = async () => {
      const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(order) });
      if (!response.ok) throw new Error(`raw fetch: HTTP ${response.status}`);
      return (await response.json()).data;
    };
  }
  if (wanted('ky') && kyPath !== undefined) {
    const { default: ky } = await import(pathToFileURL(kyPath).href);
    callers.ky = () => ky.post(url, { json: order, headers: { authorization: API_KEY } }).json();
    if (only === undefined) {
      // Where ky's time goes: without its retry and timeout plumbing, what is left is its per-call
      // pipeline (options merged, a Request built and cloned, hooks run, the body read by .json()).
      callers.kyBare = () => ky.post(url, { json: order, headers: { authorization: API_KEY }, retry: 0, timeout: false }).json();
    }
  }
  return { callers, notes };
}

/** Makes `count` calls with at most `concurrency` in flight; pushes each call's duration (ms) to `durations`. */
export async function runConcurrent(call, count, concurrency, durations) {
  await runPool(count, concurrency, async () => {
    const t0 = performance.now();
    await call();
    durations.push(performance.now() - t0);
  });
}
