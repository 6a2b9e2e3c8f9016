/**
 * `node bench/profile.mjs` (after `npm run build`): where the SDK's per-call time goes over plain ky.
 * In one process, with a `fetch` that answers at once (no socket, no server: only client code runs):
 * `deliveries.create` of the realistic order with validation on and off, and `ky.post(url, { json }).json()`,
 * in alternating blocks. Then the mechanisms the SDK adds, each timed alone as the SDK uses it: its body
 * reader against `response.text()`, reading the order's JSON back (the wire form: what is checked is
 * what is sent), `URL.canParse` for the order's 10 image URLs, and the attempt's own timer (ky's
 * `timeout`, which aborts the request, plain ky runs too). What the parts leave of the SDK's overhead
 * over ky is bookkeeping (options, the request summary, hooks and logging checks, the answer's
 * envelope). Prints the breakdown in µs per call, median of RUNS rounds with min–max. Measures,
 * changes nothing.
 */
import { pathToFileURL } from 'node:url';
import { API_KEY } from './lib/callers.mjs';
import { CREATED_ANSWER, realisticOrder } from './lib/order.mjs';
import { median, rotate, spread } from './lib/stats.mjs';
import { ensureKy, prepareTargets } from './lib/targets.mjs';

const RUNS = 7;
const BLOCK = 200;
const BLOCKS = 30;
const answer = () => new Response(CREATED_ANSWER, { status: 200, headers: { 'content-type': 'application/json' } });
const instantFetch = async () => answer();

const targets = await prepareTargets(process.argv.includes('--src') ? 'src' : 'dist');
const kyPath = ensureKy();
if (kyPath === undefined) throw new Error('node_modules/ky is not the ky the bench measures');
const { DeliveryClient } = await import(pathToFileURL(targets.main).href);
const { default: ky } = await import(pathToFileURL(kyPath).href);
const order = realisticOrder();
const client = new DeliveryClient({ baseUrl: 'http://127.0.0.1:9/v2', apiKey: API_KEY, fetch: instantFetch });
const kyClient = ky.create({ fetch: instantFetch });
const url = 'http://127.0.0.1:9/v2/deliveries?apiVersion=1';

/** The SDK's body reader (src/internal/body.ts, readTextWithin): a reader, a byte count, one decode at the end. */
const utf8 = new TextDecoder();
async function readLikeTheSdk(response, maxBytes) {
  const reader = response.body.getReader();
  const chunks = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? utf8.decode(chunks[0]) : utf8.decode(new Uint8Array(await new Blob(chunks).arrayBuffer()));
}

const images = order.deliveryImages[0].images;
const orderJson = JSON.stringify(order);
const calls = {
  sdk: () => client.deliveries.create(order),
  sdkUnchecked: () => client.deliveries.create(order, { validate: false }),
  ky: () => kyClient.post(url, { json: order, headers: { authorization: API_KEY } }).json(),
  // The mechanisms, each alone, and what each is compared with.
  sdkReader: () => readLikeTheSdk(answer(), 10 * 2 ** 20),
  responseText: () => answer().text(),
  canParse: () => images.every((image) => URL.canParse(image)),
  attemptTimer: () => clearTimeout(setTimeout(() => undefined, 30_000)),
  readBack: () => JSON.parse(orderJson),
};

/** Mean µs per call of each of `names` in one round of alternating blocks. */
async function round(names, by) {
  const perCall = Object.fromEntries(names.map((name) => [name, []]));
  for (let block = 0; block < BLOCKS; block++) {
    for (const name of rotate(names, block + by)) {
      const call = calls[name];
      const t0 = performance.now();
      for (let i = 0; i < BLOCK; i++) await call();
      perCall[name].push(((performance.now() - t0) / BLOCK) * 1000);
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(perCall[name])]));
}

const names = Object.keys(calls);
for (const name of names) for (let i = 0; i < 500; i++) await calls[name]();
const rounds = [];
for (let run = 0; run < RUNS; run++) {
  process.stderr.write(`[profile] round ${run + 1} of ${RUNS}\n`);
  rounds.push(await round(names, run));
}
const of = (compute) => spread(rounds.map(compute));
const parts = {
  'SDK create, validation on (instant fetch)': of((r) => r.sdk),
  'plain ky post().json() (instant fetch)': of((r) => r.ky),
  'SDK over plain ky': of((r) => r.sdk - r.ky),
  '  the plain check (validation on minus off)': of((r) => r.sdk - r.sdkUnchecked),
  '    of which URL.canParse of the 10 image URLs': of((r) => r.canParse),
  '  the body reader over response.text()': of((r) => r.sdkReader - r.responseText),
  "  reading the order's JSON back (the wire form), alone": of((r) => r.readBack),
  "  the attempt's own timer, alone": of((r) => r.attemptTimer),
  '  bookkeeping: the rest': of((r) => r.sdk - r.ky - (r.sdk - r.sdkUnchecked) - (r.sdkReader - r.responseText) - r.readBack - r.attemptTimer),
};
const cell = ({ median: m, min, max }) => `${m.toFixed(1)} µs (${min.toFixed(1)}–${max.toFixed(1)})`;
console.log(`Per call, µs, median (min–max) of ${RUNS} rounds of ${BLOCKS} alternating blocks of ${BLOCK} calls; ${targets.source}/\n`);
console.log('| Part | µs per call |\n| --- | --- |');
for (const [label, value] of Object.entries(parts)) console.log(`| ${label.replace(/^ +/, (spaces) => '&nbsp;'.repeat(spaces.length))} | ${cell(value)} |`);
