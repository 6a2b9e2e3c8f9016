/**
 * One page run (bench/lib/bundle-size.mjs): loads a built page in this fresh process, with a
 * module-load hook recording every file of the build as it loads, a `document` as a page has one
 * (unless `inDocument` is false: a server's process, as test/packaging/node-build.test.ts runs),
 * and `fetch` answered in process
 * (a created order for a create, Egypt's cities for the cities list, 404 for anything else), then
 * awaits the page's call. Prints `{ loaded, requests }`: the build's files loaded until the call
 * had answered, in load order, and what the page sent. Exits 1 when the call fails: a page that
 * did not get its answer loaded other code than a page that did.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CREATED_ANSWER } from './order.mjs';

const { entry, outdir, call, inDocument = true } = JSON.parse(process.argv[2]);
const logDir = mkdtempSync(join(tmpdir(), 'delivery-sdk-page-run-'));
const log = join(logDir, 'loaded.txt');
register(new URL('./page-hooks.mjs', import.meta.url), { data: { log, under: `${pathToFileURL(outdir).href}/` } });

const CITIES = JSON.stringify({
  success: true,
  message: 'Success',
  data: { list: [{ _id: 'city-eg-cairo', name: 'Cairo', otherName: 'القاهرة', code: 'EG-01' }] },
});
const ANSWERS = { 'POST /v2/deliveries': CREATED_ANSWER, 'GET /v2/cities': CITIES };

// A page runs in a document: code the SDK loads only outside one (its User-Agent, which a page
// never sends) is not the page's, and a page that loaded it would show here.
if (inDocument) globalThis.document = {};

const requests = [];
globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  const sent = `${request.method} ${new URL(request.url).pathname}`;
  requests.push(sent);
  await request.arrayBuffer();
  const body = ANSWERS[sent];
  if (body === undefined)
    return new Response(JSON.stringify({ success: false, message: 'Not found', data: null }), { status: 404, headers: { 'content-type': 'application/json' } });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
};

try {
  const page = await import(pathToFileURL(entry).href);
  if (call !== undefined) await page[call];
  const loaded = [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))];
  process.stdout.write(JSON.stringify({ loaded, requests }));
  process.exitCode = 0;
} catch (error) {
  process.stderr.write(`${error?.name ?? 'Error'}: ${error?.message ?? error} (sent: ${requests.join(', ') || 'nothing'})\n`);
  process.exitCode = 1;
} finally {
  rmSync(logDir, { recursive: true, force: true });
}
// Timers a page leaves (a sandbox's, a client's keep-alive) must not keep the run waiting.
process.exit();
