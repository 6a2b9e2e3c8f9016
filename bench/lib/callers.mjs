/**
 * The ways of creating the same order that the per-call and heap benchmarks compare: the SDK
 * (`deliveries.create`, validation on, and off for reference), a raw `fetch` POST, plain ky with its
 * defaults, and two widely used API clients
 * as anchors: `@octokit/core` (`octokit.request('POST ...', { data })`) and `openai`
 * (`client.post(path, { body, query })`), each with its defaults, pointed at the same server.
 */
import { pathToFileURL } from 'node:url';
import { realisticOrder } from './order.mjs';
import { runPool } from './pool.mjs';

export const API_KEY = 'bench-api-key';

/** Resolves to `{ callers: { sdk?, sdkUnvalidated?, fetch?, ky?, octokit?, openai? }, notes }`; `only` loads just one of them. */
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
  }
  if (wanted('octokit')) {
    const { Octokit } = await import('@octokit/core');
    const octokit = new Octokit({ baseUrl });
    callers.octokit = async () =>
      (await octokit.request('POST /deliveries{?apiVersion}', { apiVersion: 1, data: order, headers: { authorization: API_KEY } })).data.data;
  }
  if (wanted('openai')) {
    const { default: OpenAI } = await import('openai');
    const openai = new OpenAI({ apiKey: API_KEY, baseURL: baseUrl });
    callers.openai = async () => (await openai.post('/deliveries', { body: order, query: { apiVersion: 1 } })).data;
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
