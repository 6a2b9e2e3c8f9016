/**
 * `node bench/profile.mjs` (after `npm run build`): where the SDK's per-call time goes over plain ky.
 * In one process, with a `fetch` that answers at once (no socket, no server: only client code runs):
 * `deliveries.create` of the realistic order with validation on and off, and `ky.post(url, { json }).json()`,
 * in alternating blocks. Then the mechanisms the SDK adds, each timed alone as a create runs it, the
 * SDK's own code (src/, bundled here; `npm run build` ships the same): the snapshot (the order read
 * once into a copy the SDK owns, which is what is checked and sent; ky sends the caller's object),
 * the URL check of the order's 10 image URLs (part of the plain check), the body reader against
 * `response.text()`, the answer's redaction (`decodeBody` against `JSON.parse`: the key's forms
 * scrubbed from the text), and the attempt's clock (its timer, signal and race; ky's own `timeout`,
 * which plain ky runs, is off in the SDK's requests). What the parts leave of the SDK's overhead
 * over ky is bookkeeping (options, the request summary, hooks and logging checks, the answer's
 * envelope). Prints the breakdown in µs per call, median of RUNS rounds with min–max. Measures,
 * changes nothing.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { API_KEY } from './lib/callers.mjs';
import { CREATED_ANSWER, realisticOrder } from './lib/order.mjs';
import { median, rotate, spread } from './lib/stats.mjs';
import { ensureKy, prepareTargets, ROOT, TMP } from './lib/targets.mjs';

const RUNS = 7;
const BLOCK = 200;
const BLOCKS = 30;
const MAX_RESPONSE_BYTES = 10 * 2 ** 20;
const answer = () => new Response(CREATED_ANSWER, { status: 200, headers: { 'content-type': 'application/json' } });
const instantFetch = async () => answer();

const targets = await prepareTargets(process.argv.includes('--src') ? 'src' : 'dist');
const kyPath = ensureKy();
if (kyPath === undefined) throw new Error('node_modules/ky is not the ky the bench measures');
const { DeliveryClient } = await import(pathToFileURL(targets.main).href);
const { default: ky } = await import(pathToFileURL(kyPath).href);

/** The SDK's mechanisms, from src/: not exported by any entry, so bundled here to be timed alone. */
async function internals() {
  const outfile = join(TMP, 'profile-internals.mjs');
  mkdirSync(TMP, { recursive: true });
  const src = (path) => JSON.stringify(join(ROOT, 'src', path));
  await build({
    stdin: {
      contents: `export { snapshotOf } from ${src('internal/input.ts')};
        export { isHttpUrl } from ${src('schemas/predicates.ts')};
        export { decodeBody, readTextWithin } from ${src('internal/body.ts')};
        export { AttemptClock } from ${src('internal/attempt-clock.ts')};
        export { secretsOf } from ${src('internal/redaction.ts')};`,
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile,
    logLevel: 'error',
  });
  return import(pathToFileURL(outfile).href);
}
const { snapshotOf, isHttpUrl, decodeBody, readTextWithin, AttemptClock, secretsOf } = await internals();

const order = realisticOrder();
const client = new DeliveryClient({ baseUrl: 'http://127.0.0.1:9/v2', apiKey: API_KEY, fetch: instantFetch });
const kyClient = ky.create({ fetch: instantFetch });
const url = 'http://127.0.0.1:9/v2/deliveries?apiVersion=1';
const images = order.deliveryImages[0].images;
// The client's secrets, as its config holds them: the key, found in the Authorization header.
const secrets = secretsOf({ accept: 'application/json', Authorization: API_KEY }, 'Authorization', [API_KEY]);

/** The attempt's clock as a create runs it: made, raced against the exchange, ended. */
async function attemptClock(work) {
  const clock = new AttemptClock(undefined, 30_000, Number.POSITIVE_INFINITY);
  try {
    return await clock.race(work(clock));
  } finally {
    clock.end();
  }
}

const calls = {
  sdk: () => client.deliveries.create(order),
  sdkUnchecked: () => client.deliveries.create(order, { validate: false }),
  ky: () => kyClient.post(url, { json: order, headers: { authorization: API_KEY } }).json(),
  // The mechanisms, each alone, and what each is compared with.
  snapshot: () => snapshotOf(order),
  urlCheck: () => images.every((image) => isHttpUrl(image)),
  sdkReader: () => attemptClock((clock) => readTextWithin(answer(), MAX_RESPONSE_BYTES, clock)),
  responseText: () => attemptClock(() => answer().text()),
  decode: () => decodeBody(CREATED_ANSWER, secrets),
  parse: () => JSON.parse(CREATED_ANSWER),
  clock: () => attemptClock(async () => undefined),
  noClock: async () => undefined,
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
  snapshot: (r) => r.snapshot,
  check: (r) => r.sdk - r.sdkUnchecked,
  reader: (r) => r.sdkReader - r.responseText,
  redaction: (r) => r.decode - r.parse,
  clock: (r) => r.clock - r.noClock,
};
const rows = {
  'SDK create, validation on (instant fetch)': of((r) => r.sdk),
  'plain ky post().json() (instant fetch)': of((r) => r.ky),
  'SDK over plain ky': of((r) => r.sdk - r.ky),
  '  the snapshot: the order read once into the copy that is checked and sent, alone': of(parts.snapshot),
  '  the plain check (validation on minus off)': of(parts.check),
  '    of which the URL check of the 10 image URLs': of((r) => r.urlCheck),
  '  the body reader over response.text()': of(parts.reader),
  "  the answer's redaction (decodeBody over JSON.parse)": of(parts.redaction),
  "  the attempt's clock (timer, signal, race), alone": of(parts.clock),
  '  bookkeeping: the rest': of((r) => r.sdk - r.ky - Object.values(parts).reduce((sum, part) => sum + part(r), 0)),
};
const cell = ({ median: m, min, max }) => `${m.toFixed(1)} µs (${min.toFixed(1)}–${max.toFixed(1)})`;
console.log(`Per call, µs, median (min–max) of ${RUNS} rounds of ${BLOCKS} alternating blocks of ${BLOCK} calls; ${targets.source}/ (the parts: src/)\n`);
console.log('| Part | µs per call |\n| --- | --- |');
for (const [label, value] of Object.entries(rows)) console.log(`| ${label.replace(/^ +/, (spaces) => '&nbsp;'.repeat(spaces.length))} | ${cell(value)} |`);
