// The browser leg of the runtime matrix: Debian's Chromium (never a downloaded browser) driven by
// playwright-core loads a page from 127.0.0.1 whose script is the installed package bundled for
// browsers, creates an order against the sandbox's HTTP server on another origin (CORS), and
// renders it. The page is read back, checked against the sandbox, and photographed.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type * as Sdk from '../../src/index.js';
import type * as Testing from '../../src/testing/index.js';
import { type ConsumerProject, PACKAGE_NAME, packageEntries, ROOT } from '../packaging/packed-package.js';
import { launchBrowser } from '../support/chromium.js';

export const SCREENSHOT = join(ROOT, 'test/.tmp/runtimes/chromium.png');

export interface BrowserOutcome {
  runtime: string;
  checks: string[];
}

/** Imports an entry of the installed package (not this repository's dist/) by its ESM file. */
async function importInstalled<T>(project: ConsumerProject, subpath: string): Promise<T> {
  const entry = packageEntries().find((candidate) => candidate.subpath === subpath);
  if (entry === undefined) throw new Error(`package.json exports no ${subpath}`);
  return (await import(pathToFileURL(join(project.dir, 'node_modules', PACKAGE_NAME, entry.esm)).href)) as T;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

const escapeHtml = (text: string): string => text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] ?? c);

function pageHtml(config: object): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>delivery-sdk checkout smoke test</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; margin: 2rem; color: #1d2733; }
  h1 { font-size: 1.3rem; } dl { display: grid; grid-template-columns: 12rem 1fr; gap: .3rem 1rem; }
  dt { color: #5b6b7c; } dd { margin: 0; font-weight: 600; } section { border: 1px solid #d5dde5; border-radius: 8px; padding: 1rem 1.25rem; margin-bottom: 1rem; }
  body[data-status="failed"] #failure { color: #b3261e; }
</style>
<script id="smoke-config" type="application/json">${escapeHtml(JSON.stringify(config))}</script>
</head><body data-status="loading">
<h1>delivery-sdk in the browser: checkout against the sandbox</h1>
<section><h2>Order created</h2><dl>
  <dt>Tracking number</dt><dd id="tracking-number">-</dd>
  <dt>Type</dt><dd id="order-type">-</dd>
  <dt>State</dt><dd id="order-state">-</dd>
  <dt>Cash on delivery</dt><dd id="order-cod">-</dd>
</dl></section>
<section><h2>Order refused before sending (cod 50000)</h2><dl>
  <dt>Error class</dt><dd id="refused-class">-</dd>
  <dt>errorCode</dt><dd id="refused-code">-</dd>
  <dt>Detected by</dt><dd id="refused-source">-</dd>
  <dt>Message</dt><dd id="refused-message">-</dd>
</dl></section>
<section><h2>Headers</h2><dl>
  <dt>User-Agent set by the SDK</dt><dd id="user-agent">-</dd>
</dl></section>
<p id="failure"></p>
<script type="module" src="/page.js"></script>
</body></html>`;
}

/** Runs the checkout page in Chromium; throws with what the page showed when a check fails. */
export async function runInChromium(project: ConsumerProject): Promise<BrowserOutcome> {
  const sdk = await importInstalled<typeof Sdk>(project, '.');
  const { createSandbox } = await importInstalled<typeof Testing>(project, './testing');

  copyFileSync(join(ROOT, 'test/runtimes/page.mjs'), join(project.dir, 'page.mjs'));
  const bundle = await build({
    entryPoints: [join(project.dir, 'page.mjs')],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]?.text ?? '';

  const sandbox = createSandbox({ apiKey: 'browser-smoke-key' });
  const api = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  const pages = createServer();
  try {
    // The account the page's orders go on (the page itself only does what a checkout does).
    const setup = new sdk.DeliveryClient({ baseUrl: api.baseUrl, apiKey: sandbox.apiKey });
    const business = await setup.request<{ _id: string }>({
      method: 'POST',
      path: '/businesses',
      body: { name: 'Nile Shop', salesChannel: 'FACEBOOK_SELLER', website: 'https://nile.example', industry: 'Fashion', interestedInServices: ['SEND'] },
    });
    await setup.request({
      method: 'PUT',
      path: `/businesses/${business._id}`,
      body: { pickupAddress: [{ locationName: 'Warehouse', districtId: 'district-eg-cairo-makram-ebeid', firstLine: '5 Makram Ebeid Street' }] },
    });

    const config = { baseUrl: api.baseUrl, apiKey: sandbox.apiKey, businessReference: 'browser-checkout' };
    pages.on('request', (req, res) => {
      if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml(config));
      else if (req.url === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
      else if (req.url === '/favicon.ico') res.writeHead(204).end();
      else res.writeHead(404).end();
    });
    const pageOrigin = await listen(pages);
    if (new URL(pageOrigin).origin === new URL(api.baseUrl).origin) throw new Error('the page and the API share an origin: CORS would not be exercised');

    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ viewport: { width: 900, height: 620 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      await page.goto(`${pageOrigin}/`);
      await page.waitForSelector('body[data-status="done"], body[data-status="failed"]', { timeout: 20_000 });
      mkdirSync(join(ROOT, 'test/.tmp/runtimes'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });

      const text = async (selector: string): Promise<string> => (await page.textContent(selector))?.trim() ?? '';
      const shown = {
        status: await page.getAttribute('body', 'data-status'),
        failure: await text('#failure'),
        trackingNumber: await text('#tracking-number'),
        type: await text('#order-type'),
        cod: await text('#order-cod'),
        refusedClass: await text('#refused-class'),
        refusedCode: await text('#refused-code'),
        refusedSource: await text('#refused-source'),
        userAgent: await text('#user-agent'),
      };
      const stored = sandbox.orders().find((order) => String(order.trackingNumber) === shown.trackingNumber);
      const checks: Array<[string, boolean]> = [
        ['the page script ran to the end', shown.status === 'done'],
        ['the page shows a tracking number', /^\d+$/.test(shown.trackingNumber)],
        ["the sandbox server holds that order, type 10, with the page's reference", stored?.type === 10 && stored.businessReference === 'browser-checkout'],
        ['the page shows type 10 and the cod', shown.type === '10' && shown.cod === '250 EGP'],
        [
          'the page caught CodLimitExceededError (3007) from the client-side check',
          shown.refusedClass === 'CodLimitExceededError' && shown.refusedCode === '3007' && shown.refusedSource === 'client',
        ],
        ['the refused order never reached the server', sandbox.orders().length === 1],
        ['the client set no User-Agent of its own: in a page it would force a CORS preflight', shown.userAgent === 'none'],
        ['no page error, no console error', problems.length === 0],
      ];
      const failed = checks.filter(([, ok]) => !ok).map(([name]) => name);
      if (failed.length > 0)
        throw new Error(
          `${checks.length - failed.length} of ${checks.length} checks passed; first failure: ${failed[0]}\n  failed: ${failed.join('; ')}\n  page: ${JSON.stringify(shown)}\n  ${problems.join('\n  ')}`,
        );
      const { product } = (await (await context.newCDPSession(page)).send('Browser.getVersion')) as { product: string };
      return { runtime: product.replace(/^\w+\//, 'chromium '), checks: checks.map(([name]) => name) };
    } finally {
      await browser.close();
    }
  } finally {
    pages.close();
    await api.close();
    await sandbox.close();
  }
}
