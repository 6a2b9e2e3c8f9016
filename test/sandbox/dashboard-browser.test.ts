// The sandbox's dashboard in a real browser: Debian's Chromium through playwright-core, one browser
// for the file, a context (a cookie jar of its own) per test. Skipped without Chromium outside CI,
// with one line at the end of the run (test/support/missing-servers.ts); failed without it in CI.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryClient } from '../../src/index.js';
import { createSandbox, type Sandbox, type SandboxMerchant, type SandboxServer } from '../../src/testing/index.js';
import { launchBrowser, SKIP_WITHOUT_CHROMIUM } from '../support/chromium.js';
import { dropOff } from '../support/sandbox.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const VIEWS = ['Orders', 'Requests', 'Webhooks', 'Faults'];

let browser: Browser;
let sandbox: Sandbox;
let server: SandboxServer;
let origin: string;
let nile: SandboxMerchant;
let giza: SandboxMerchant;
/** Every request any page of a test made, by URL: none may leave the dashboard's origin. */
const requested: string[] = [];
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  if (SKIP_WITHOUT_CHROMIUM) return;
  // Webhooks answered in process (no network): 200, except the receiver named flaky.
  sandbox = createSandbox({
    webhookFetch: async (url) => new Response(null, { status: url.includes('flaky') ? 503 : 200 }),
    webhookRetry: { attempts: 2, baseDelayMs: 1 },
  });
  nile = sandbox.createMerchant({ businessName: 'Nile Shop', webhook: { url: 'https://nile.example/hooks' } });
  giza = sandbox.createMerchant({ businessName: 'Giza Gadgets', webhook: { url: 'https://giza.example/flaky' } });
  server = await sandbox.listen();
  origin = new URL(server.baseUrl).origin;
  browser = await launchBrowser();
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
});

/** A fresh browser profile's tab, its requests recorded. */
async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  page.on('request', (request) => requested.push(request.url()));
  return page;
}

/** A tab signed in through the dashboard URL, on the Orders view. */
async function signedIn(): Promise<Page> {
  const page = await newPage();
  await page.goto(server.dashboardUrl);
  await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
  return page;
}

const client = (merchant: SandboxMerchant): DeliveryClient => new DeliveryClient({ baseUrl: server.baseUrl, apiKey: merchant.apiKey, maxRetries: 0 });

async function createOrder(merchant: SandboxMerchant, receiver = { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' }, businessReference?: string) {
  return client(merchant).deliveries.create({
    type: 10,
    cod: 250,
    dropOffAddress: dropOff,
    receiver,
    ...(businessReference === undefined ? {} : { businessReference }),
  });
}

const go = async (page: Page, view: string): Promise<void> => {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: view, exact: true }).click();
  await page.getByRole('heading', { name: view, level: 1 }).waitFor();
};

describe.skipIf(SKIP_WITHOUT_CHROMIUM)('the dashboard in Chromium', () => {
  it('signs in from its URL: the secret leaves the address bar, no script can read it, the navigation is Orders, Requests, Webhooks, Faults', async () => {
    const { trackingNumber } = await createOrder(nile);
    const page = await signedIn();
    const secret = new URL(server.dashboardUrl).searchParams.get('login') ?? '';
    expect(page.url()).toBe(`${origin}/__dashboard/`);
    expect(await page.getByRole('navigation', { name: 'Views' }).getByRole('link').allTextContents()).toEqual(VIEWS);
    await page.getByRole('link', { name: trackingNumber }).waitFor();
    const seen = await page.evaluate(() => ({
      cookie: document.cookie,
      local: JSON.stringify({ ...localStorage }),
      session: JSON.stringify({ ...sessionStorage }),
      html: document.documentElement.outerHTML,
      history: history.length,
    }));
    expect(seen.cookie).toBe('');
    for (const place of [seen.local, seen.session, seen.html]) expect(place).not.toContain(secret);
    // A second browser opens the same URL and is signed in too.
    const second = await signedIn();
    await second.getByRole('link', { name: trackingNumber }).waitFor();
  });

  it('shows a browser without the login no data, only how to sign in', async () => {
    const { trackingNumber } = await createOrder(nile);
    const page = await newPage();
    await page.goto(`${origin}/__dashboard/`);
    await expect(page.locator('body').textContent()).resolves.toMatch(/not signed in/);
    expect(await page.content()).not.toContain(trackingNumber);
    const api = await page.evaluate(async () => (await fetch('/__dashboard/api/orders')).status);
    expect(api).toBe(401);
  });

  it('shows what happens without a reload, pushed by the server: no polling', async () => {
    const page = await signedIn();
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });
    const apiCalls = (): number => requested.filter((url) => url.startsWith(`${origin}/__dashboard/api/`) && !url.endsWith('/events')).length;
    const { trackingNumber } = await createOrder(giza, undefined, 'LIVE-1');
    await page.getByRole('link', { name: trackingNumber }).waitFor();
    await sandbox.advance(trackingNumber, { to: 20 });
    await page
      .getByRole('row', { name: new RegExp(trackingNumber) })
      .getByText('Route Assigned')
      .waitFor();
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    // Idle, the page asks nothing: it reads again only when the stream announces a change.
    const before = apiCalls();
    await page.waitForTimeout(1500);
    expect(apiCalls()).toBe(before);
  });

  it('writes every field as text: a receiver named <img onerror> or <script> runs nothing', async () => {
    const hostile = { firstName: '<img src=x onerror="window.pwned=1">', lastName: '<script>window.pwned=2</script>', phone: '+201012345678' };
    const { trackingNumber } = await createOrder(nile, hostile, '<b onmouseover="window.pwned=3">ref</b>');
    const page = await signedIn();
    await page.getByRole('link', { name: trackingNumber }).click();
    await page.getByRole('heading', { name: `Order ${trackingNumber}` }).waitFor();
    await page.getByText(hostile.firstName, { exact: true }).waitFor();
    await page.getByText(hostile.lastName, { exact: true }).waitFor();
    expect(
      await page.evaluate(() => ({
        pwned: (window as unknown as { pwned?: number }).pwned,
        images: document.querySelectorAll('main img, main script, main b').length,
      })),
    ).toEqual({
      pwned: undefined,
      images: 0,
    });
  });

  it("keeps a page of another origin on this machine out: it can neither read the dashboard's data nor act with its login", async () => {
    const { trackingNumber } = await createOrder(nile);
    const page = await signedIn();
    // The other origin: another loopback port, the same *site*, so the SameSite cookie goes along.
    const other: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      await page.goto(`http://127.0.0.1:${(other.address() as AddressInfo).port}/`);
      const tried = await page.evaluate(
        async ({ target, tn }) => {
          const attempt = async (run: () => Promise<unknown>): Promise<string> => {
            try {
              return `read: ${String(await run())}`;
            } catch (error) {
              return `refused: ${(error as Error).name}`;
            }
          };
          return {
            read: await attempt(async () => (await fetch(`${target}/__dashboard/api/orders`, { credentials: 'include' })).text()),
            events: await new Promise<string>((resolve) => {
              const source = new EventSource(`${target}/__dashboard/api/events`, { withCredentials: true });
              source.onopen = () => resolve('open');
              source.onerror = () => resolve('refused');
            }),
            act: await attempt(async () => {
              const body = JSON.stringify({ to: 20 });
              const answer = await fetch(`${target}/__dashboard/api/orders/${tn}/advance`, { method: 'POST', mode: 'no-cors', credentials: 'include', body });
              return answer.type;
            }),
            form: await attempt(async () => {
              const frame = document.createElement('iframe');
              frame.name = 'sink';
              document.body.append(frame);
              const form = Object.assign(document.createElement('form'), {
                method: 'POST',
                action: `${target}/__dashboard/api/faults`,
                target: 'sink',
                enctype: 'text/plain',
              });
              form.append(Object.assign(document.createElement('input'), { name: '{"kind":"unavailable","x":"', value: '"}' }));
              document.body.append(form);
              form.submit();
              await new Promise((done) => frame.addEventListener('load', done, { once: true }));
              return 'sent';
            }),
          };
        },
        { target: origin, tn: trackingNumber },
      );
      expect(tried.read).toBe('refused: TypeError');
      expect(tried.events).toBe('refused');
      expect(sandbox.order(trackingNumber).state).toBe(10);
      expect(sandbox.injectedFaults()).toEqual([]);
    } finally {
      other.close();
    }
  });

  it("moves an order with its next-state button, labelled with the spec's state name, webhooks included", async () => {
    const { trackingNumber } = await createOrder(nile);
    const page = await signedIn();
    await page.getByRole('link', { name: trackingNumber }).click();
    const next = page.getByRole('region', { name: 'Move to the next state' });
    await next.getByRole('button', { name: 'Route Assigned', exact: true }).click();
    await page.getByRole('region', { name: 'Timeline' }).getByText('Route Assigned').waitFor();
    expect(sandbox.order(trackingNumber).state).toBe(20);
    await page.getByRole('region', { name: 'Webhook deliveries' }).getByText('HTTP 200').first().waitFor();
    const [sent] = sandbox.webhookLog().filter((delivery) => delivery.trackingNumber === trackingNumber);
    expect(sent?.state).toBe(20);
    await next.getByRole('button', { name: 'Picked up from business', exact: true }).waitFor();
    // The delivery sent again from its Resend button: a new delivery of the same body.
    await page.getByRole('button', { name: `Resend delivery ${sent?.id}` }).click();
    await page.getByText(/Sent again as delivery \d+: delivered/).waitFor();
    expect(sandbox.webhookLog().filter((delivery) => delivery.resendOf === sent?.id)).toMatchObject([{ body: sent?.body, url: sent?.url }]);
  });

  it('shows a refused request (3007) in the request log, standing out, its body to open', async () => {
    const page = await signedIn();
    await go(page, 'Requests');
    await client(giza)
      .withOptions({ validate: false })
      .request({
        method: 'POST',
        path: '/deliveries',
        query: { apiVersion: 1 },
        body: { type: 10, cod: 50_000, dropOffAddress: dropOff, businessReference: 'TOO-MUCH' },
      })
      .catch(() => undefined);
    const row = page.getByRole('row').filter({ hasText: '3007' }).first();
    await row.waitFor();
    await expect(row.getAttribute('class')).resolves.toBe('refused');
    expect(await row.textContent()).toMatch(/Giza Gadgets \(merchant-2\)POST\/deliveries\?apiVersion=1.*400 refused3007/);
    await row.getByRole('button', { name: 'Show body' }).click();
    await row.getByText('"businessReference": "TOO-MUCH"').waitFor();
    await page.getByLabel('Refused requests only').check();
    await expect.poll(() => page.locator('tbody tr:not(.refused)').count()).toBe(0);
    expect(await page.locator('tbody tr.refused').count()).toBeGreaterThan(0);
  });

  it('aims a fault at a route with the faults form, as injectFault does, and counts its hits', async () => {
    const page = await signedIn();
    await go(page, 'Faults');
    const form = page.getByRole('form', { name: 'Inject a fault' });
    await form.getByLabel('Kind').selectOption('unavailable');
    await form.getByLabel('Method').selectOption('POST');
    await form.getByLabel('Route (path under /v2)').fill('/deliveries');
    await form.getByLabel('Merchant').selectOption('merchant-2');
    await form.getByRole('button', { name: 'Inject fault' }).click();
    await page.getByText(/Fault \d+ injected/).waitFor();
    const [fault] = sandbox.injectedFaults();
    expect(fault).toMatchObject({ kind: 'unavailable', method: 'POST', path: '/deliveries', apiKey: giza.apiKey, nth: 1, times: 1, hits: 0 });
    await createOrder(nile); // another merchant's create: not hit
    await expect(createOrder(giza)).rejects.toMatchObject({ status: 503 });
    const row = page.getByRole('row').filter({ hasText: 'Giza Gadgets (merchant-2)' });
    await row.getByRole('cell', { name: '1', exact: true }).nth(3).waitFor();
    await page.getByRole('button', { name: `Remove fault 1` }).click();
    await page.getByText('No targeted fault in place').waitFor();
    expect(sandbox.injectedFaults()).toEqual([]);
  });

  it('can be used from the keyboard alone, and axe finds no serious or critical violation on any view', async () => {
    const { trackingNumber } = await createOrder(giza, undefined, 'AXE-1');
    await sandbox.advance(trackingNumber, { to: 20 });
    await sandbox.drainWebhooks();
    const page = await signedIn();
    const focused: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      focused.push(await page.evaluate(() => document.activeElement?.id || (document.activeElement?.textContent?.trim() ?? '')));
    }
    expect(focused).toEqual(expect.arrayContaining([...VIEWS, 'merchant-filter', 'Sign out', 'order-search']));
    await page.getByRole('link', { name: 'Webhooks', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();

    const serious = async (view: string): Promise<string[]> => {
      await page.evaluate(AXE);
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe;
        return (await axe.run()).violations.map((violation) => ({ id: violation.id, impact: violation.impact, nodes: violation.nodes.length }));
      });
      return violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => `${view}: ${violation.id} (${violation.nodes})`);
    };
    const found: string[] = [];
    for (const view of VIEWS) {
      await go(page, view);
      await page.locator('table, .muted').first().waitFor();
      found.push(...(await serious(view)));
    }
    await page.goto(`${origin}/__dashboard/#/orders/${trackingNumber}`);
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    found.push(...(await serious('an order')));
    const outside = await newPage();
    await outside.goto(`${origin}/__dashboard/`);
    found.push(...(await serious('signed out')));
    expect(found).toEqual([]);
  });

  it("sent no request outside the sandbox's origin, from any page of the dashboard", () => {
    const dashboard = requested.filter((url) => url.startsWith(`${origin}/`));
    expect(dashboard.length).toBeGreaterThan(20);
    // The only other origin is the one the cross-origin test opened itself.
    expect(requested.filter((url) => !url.startsWith(`${origin}/`) && !/^http:\/\/127\.0\.0\.1:\d+\/$/.test(url))).toEqual([]);
  });
});
