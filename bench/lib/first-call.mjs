/**
 * Cold start to the first answered call, in this fresh process: import the module, build a
 * client, await one create of the realistic order answered by the loopback server at `baseUrl`.
 * `node bench/lib/first-call.mjs '{"variant":"sdk","module":"delivery-sdk","baseUrl":"http://127.0.0.1:PORT/v2"}'`
 * (`module`: a package's name, resolved as its users' processes resolve it, or a file URL)
 * prints `{ importMs, firstCallMs, sinceStartMs, firstCallCpuMs }`: the import alone, from before
 * the import to the answer, from the process's start (Node's own start-up included) to the answer,
 * and the process's CPU time (user + system) from before the import to the answer, which moves
 * less than wall time with what else the machine runs.
 * Variants: `sdk` (`new DeliveryClient(...).deliveries.create(order)`, validation on), `ky`
 * (`ky.post(url, { json: order, headers: { authorization: key } }).json()`), `fetch` (a raw
 * POST: the floor, Node's own first `fetch` included), `octokit` and `openai` (their `post`).
 */
import { API_KEY } from './callers.mjs';
import { realisticOrder } from './order.mjs';

const { variant, module, baseUrl } = JSON.parse(process.argv[2]);
const order = realisticOrder();
const url = `${baseUrl}/deliveries?apiVersion=1`;

/** What each variant does once its module is imported: build its client, send the create, read the answer. */
const FIRST_CALL = {
  sdk: ({ DeliveryClient }) => new DeliveryClient({ baseUrl, apiKey: API_KEY }).deliveries.create(order),
  ky: ({ default: ky }) => ky.post(url, { json: order, headers: { authorization: API_KEY } }).json(),
  fetch: async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', authorization: API_KEY },
      body: JSON.stringify(order),
    });
    if (!response.ok) throw new Error(`raw fetch: HTTP ${response.status}`);
    return (await response.json()).data;
  },
  octokit: async ({ Octokit }) =>
    (await new Octokit({ baseUrl }).request('POST /deliveries{?apiVersion}', { apiVersion: 1, data: order, headers: { authorization: API_KEY } })).data.data,
  openai: async ({ default: OpenAI }) =>
    (await new OpenAI({ apiKey: API_KEY, baseURL: baseUrl }).post('/deliveries', { body: order, query: { apiVersion: 1 } })).data,
};

/** This process's CPU time so far, user and system, in ms. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const cpu0 = cpuMs();
const t0 = performance.now();
const imported = variant === 'fetch' ? {} : await import(module);
const t1 = performance.now();
const answer = await FIRST_CALL[variant](imported);
const t2 = performance.now();
const cpu2 = cpuMs();
if ((answer?.trackingNumber ?? answer?.data?.trackingNumber) === undefined) throw new Error(`${variant}: the create's answer has no trackingNumber`);
// performance.now() counts from the process's time origin, its start.
process.stdout.write(JSON.stringify({ importMs: t1 - t0, firstCallMs: t2 - t0, sinceStartMs: t2, firstCallCpuMs: cpu2 - cpu0 }));
// Keep-alive sockets must not hold the process: it is timed to its answer, and ended here.
process.exit(0);
