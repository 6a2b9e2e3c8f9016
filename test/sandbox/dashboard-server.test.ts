// The dashboard's server side without a browser: the login exchange, what a request without it
// gets, the checks that keep other origins out, its headers, its event stream, and the logs it
// shows. test/sandbox/request-log.test.ts tests the logs it reads; dashboard-browser.test.ts the page.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboardAssets } from '../../src/testing/dashboard/assets.js';
import { refusalOf } from '../../src/testing/dashboard/serve.js';
import { createSandbox, type SandboxMerchant, type SandboxServer } from '../../src/testing/index.js';
import { dropOff } from '../support/sandbox.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const sandbox = createSandbox({ webhookFetch: async () => new Response(null, { status: 503 }), webhookRetry: { attempts: 1 } });
let server: SandboxServer;
let shop: SandboxMerchant;
let origin: string;
let host: string;
beforeAll(async () => {
  shop = sandbox.createMerchant({
    businessName: 'Nile Shop',
    webhook: { url: 'https://nile.example/hooks', headerName: 'X-Hook-Key', headerValue: 'hook-secret-value' },
  });
  server = await sandbox.listen();
  origin = new URL(server.baseUrl).origin;
  host = new URL(server.baseUrl).host;
});
afterAll(() => sandbox.close());

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request to the server with exactly these headers (Host included). */
function send(method: string, path: string, headers: OutgoingHttpHeaders = {}, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, method, path, headers: { host, ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const loginPath = (): string => new URL(server.dashboardUrl).pathname + new URL(server.dashboardUrl).search;

/** Logs in as a browser does (the URL typed in: Sec-Fetch-Site none) and returns the cookie to send. */
async function logIn(): Promise<string> {
  const answer = await send('GET', loginPath(), { 'sec-fetch-site': 'none' });
  const cookie = (answer.headers['set-cookie'] ?? [])[0] ?? '';
  return cookie.split(';')[0] ?? '';
}

async function createOrder(receiverName = 'Mona'): Promise<string> {
  const response = await sandbox.fetch(`${sandbox.baseUrl}/deliveries?apiVersion=1`, {
    method: 'POST',
    headers: { authorization: shop.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 10, cod: 250, dropOffAddress: dropOff, receiver: { firstName: receiverName, lastName: 'Adel', phone: '+201012345678' } }),
  });
  return ((await response.json()) as { data: { trackingNumber: string } }).data.trackingNumber;
}

describe('listen() gives the dashboard URL', () => {
  it('on the same origin as baseUrl, its login in the query: a secret of its own, neither the control token nor a key', () => {
    const url = new URL(server.dashboardUrl);
    expect(url.origin).toBe(origin);
    expect(url.pathname).toBe('/__dashboard/');
    const secret = url.searchParams.get('login') ?? '';
    expect(secret.length).toBeGreaterThanOrEqual(40);
    expect([server.controlToken, sandbox.apiKey, shop.apiKey]).not.toContain(secret);
    expect(url.pathname).not.toContain(secret);
  });
});

describe('the login', () => {
  it('trades the secret for an HttpOnly, SameSite=Strict cookie and redirects to the address without it', async () => {
    const answer = await send('GET', loginPath(), { 'sec-fetch-site': 'none' });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/__dashboard/');
    const cookie = answer.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\/__dashboard/);
    expect(cookie).not.toContain(new URL(server.dashboardUrl).searchParams.get('login'));
  });

  it('stays valid while the sandbox runs: a second browser logs in with the same URL, and both stay signed in', async () => {
    const first = await logIn();
    const second = await logIn();
    expect(first).not.toBe(second);
    for (const cookie of [first, second]) expect((await send('GET', '/__dashboard/api/orders', { cookie })).status).toBe(200);
  });

  it('refuses a wrong secret: 401, no cookie', async () => {
    const answer = await send('GET', '/__dashboard/?login=not-the-secret', { 'sec-fetch-site': 'none' });
    expect(answer.status).toBe(401);
    expect(answer.headers['set-cookie']).toBeUndefined();
  });

  it('without it, shows no data: the page explains how to sign in, every data route answers 401', async () => {
    const tracking = await createOrder();
    const page = await send('GET', '/__dashboard/');
    expect(page.status).toBe(401);
    expect(page.body).toContain('not signed in');
    expect(page.body).not.toContain(tracking);
    expect(page.body).not.toContain('app.js');
    for (const path of ['/api/orders', `/api/orders/${tracking}`, '/api/requests', '/api/webhooks', '/api/faults', '/api/events']) {
      const answer = await send('GET', `/__dashboard${path}`, { cookie: `delivery_sandbox_dashboard_${server.port}=forged` });
      expect(answer.status, path).toBe(401);
      expect(answer.body, path).not.toContain(tracking);
    }
  });

  it('signs a browser out: its cookie no longer opens anything', async () => {
    const cookie = await logIn();
    expect((await send('POST', '/__dashboard/logout', { cookie, origin })).status).toBe(204);
    expect((await send('GET', '/__dashboard/api/orders', { cookie })).status).toBe(401);
  });
});

describe('another origin gets nothing', () => {
  it('checks Origin on every change: none, another loopback port or a look-alike are refused with 403, and nothing moves', async () => {
    const cookie = await logIn();
    const tracking = await createOrder();
    const json = { cookie, 'content-type': 'application/json' };
    for (const foreign of [undefined, 'http://127.0.0.1:1', `http://localhost:${server.port}`, 'null', `${origin}.evil.example`]) {
      const headers = foreign === undefined ? json : { ...json, origin: foreign };
      const answer = await send('POST', `/__dashboard/api/orders/${tracking}/advance`, headers, '{"to":20}');
      expect(answer.status, String(foreign)).toBe(403);
    }
    expect(sandbox.order(tracking).state).toBe(10);
    const own = await send('POST', `/__dashboard/api/orders/${tracking}/advance`, { ...json, origin }, '{"to":20}');
    expect(own.status).toBe(200);
    expect(sandbox.order(tracking).state).toBe(20);
  });

  it('refuses a read a browser marks cross-site or same-site (another port of this machine is the same site)', async () => {
    const cookie = await logIn();
    for (const site of ['cross-site', 'same-site']) {
      for (const path of ['/__dashboard/', '/__dashboard/api/orders', '/__dashboard/api/events']) {
        expect((await send('GET', path, { cookie, 'sec-fetch-site': site })).status, `${site} ${path}`).toBe(403);
      }
    }
    expect((await send('GET', '/__dashboard/api/orders', { cookie, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    // A link followed from there gets a page that says why, and no login.
    const followed = await send('GET', loginPath(), { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate' });
    expect([followed.status, followed.headers['content-type'], followed.headers['set-cookie']]).toEqual([403, 'text/html; charset=utf-8', undefined]);
    expect(followed.body).toContain('typed or pasted into the address bar');
  });

  it('answers a loopback Host only (DNS rebinding), and a loopback peer only', async () => {
    const cookie = await logIn();
    expect((await send('GET', '/__dashboard/api/orders', { cookie, host: `rebind.example:${server.port}` })).status).toBe(403);
    const peer = { remoteAddress: '192.168.1.20', host, origin: undefined };
    expect(refusalOf(new Request(`${origin}/__dashboard/api/orders`), peer)).toMatch(/this machine only/);
    expect(refusalOf(new Request(`${origin}/__dashboard/api/orders`), { ...peer, remoteAddress: '::ffff:127.0.0.1' })).toBeUndefined();
  });

  it('sends no CORS header, on any answer, preflights included', async () => {
    const cookie = await logIn();
    const answers = [
      await send('OPTIONS', '/__dashboard/api/orders', { origin: 'http://127.0.0.1:1', 'access-control-request-method': 'POST' }),
      await send('GET', '/__dashboard/api/orders', { cookie, origin: 'http://127.0.0.1:1' }),
      await send('GET', '/__dashboard/app.js', { origin: 'http://127.0.0.1:1' }),
      await send('GET', loginPath(), { origin: 'http://127.0.0.1:1' }),
    ];
    for (const answer of answers) expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('changes nothing on a GET: the action routes answer only POST and DELETE', async () => {
    const cookie = await logIn();
    const tracking = await createOrder();
    expect((await send('GET', `/__dashboard/api/orders/${tracking}/advance?to=20`, { cookie })).status).toBe(404);
    expect(sandbox.order(tracking).state).toBe(10);
  });
});

describe('the headers of every answer', () => {
  it('a CSP whose script-src allows no inline script and no wildcard, frame-ancestors none; nosniff; no referrer', async () => {
    const cookie = await logIn();
    for (const answer of [
      await send('GET', '/__dashboard/', { cookie }),
      await send('GET', '/__dashboard/api/orders', { cookie }),
      await send('GET', '/__dashboard/'),
    ]) {
      const csp = String(answer.headers['content-security-policy']);
      const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
      expect(scriptSrc.trim()).toBe("'self'");
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(csp).toMatch(/default-src 'none'/);
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
    }
    expect((await send('GET', '/__dashboard/api/orders', { cookie })).headers['content-type']).toMatch(/^application\/json/);
  });

  it("a malformed %-escape in a path is the request's mistake: 400, with the dashboard's headers", async () => {
    const cookie = await logIn();
    for (const answer of [
      await send('GET', '/__dashboard/api/orders/%E0', { cookie }),
      await send('POST', '/__dashboard/api/orders/%E0/advance', { cookie, origin, 'content-type': 'application/json' }, '{"to":21}'),
    ]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toMatch(/Malformed %-escape/);
      expect(String(answer.headers['content-security-policy'])).toMatch(/frame-ancestors 'none'/);
    }
  });
});

describe('the event stream', () => {
  /** Opens the event stream as a signed-in page, runs `act` once it is connected, and resolves with what it received up to a change of `kind`. */
  async function streamUntil(kind: string, act: () => void): Promise<string> {
    const cookie = await logIn();
    return new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: server.port, path: '/__dashboard/api/events', headers: { host, cookie, 'sec-fetch-site': 'same-origin' } },
        (res) => {
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
          let text = '';
          res.on('data', (chunk: Buffer) => {
            const connected = !text.includes(': connected');
            text += chunk.toString();
            if (connected && text.includes(': connected')) act();
            if (new RegExp(`event: change\ndata: .*"${kind}"`).test(text)) {
              req.destroy();
              resolve(text);
            }
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  it('tells a signed-in page of each change as it happens (Server-Sent Events), and ends when the page leaves', async () => {
    const received = await streamUntil('requests', () => void createOrder());
    expect(received).toMatch(/^retry: \d+/);
    expect(received).toMatch(/event: change\ndata: \{"kinds":\[[^\]]*"requests"/);
  });

  it("tells the page of a fault taken out with the fault's own remove(), not only through the sandbox's methods", async () => {
    const fault = sandbox.injectFault({ kind: 'unavailable', path: '/nowhere' });
    // A request after the removal marks the end: its change comes with the removal's or after it.
    const received = await streamUntil('requests', () => {
      fault.remove();
      void createOrder();
    });
    expect(received).toMatch(/event: change\ndata: \{"kinds":\[[^\]]*"faults"/);
  });
});

describe('what the dashboard shows', () => {
  it('shows the share of requests injectFaults bends, with its hits, beside the targeted faults', async () => {
    const cookie = await logIn();
    const faults = async (): Promise<any> => JSON.parse((await send('GET', '/__dashboard/api/faults', { cookie })).body);
    expect((await faults()).share).toBeNull();
    sandbox.injectFaults({ rate: 1, kinds: ['unavailable'], seed: 3 });
    await createOrder().catch(() => undefined);
    expect((await faults()).share).toEqual({ rate: 1, kinds: ['unavailable'], seed: 3, hits: 1 });
    expect((await send('DELETE', '/__dashboard/api/faults', { cookie, origin })).status).toBe(204);
    expect((await faults()).share).toBeNull();
  });

  it("injects a fault as the control endpoint does, its refusals in injectFault's words, the merchant by id and never by key", async () => {
    const cookie = await logIn();
    const inject = async (rule: Record<string, unknown>) => {
      const answer = await send('POST', '/__dashboard/api/faults', { cookie, origin, 'content-type': 'application/json' }, JSON.stringify(rule));
      return { status: answer.status, body: JSON.parse(answer.body) as { id?: number; error?: string } };
    };
    for (const [rule, refusal] of [
      [{ kind: 'slow', nth: 0 }, 'injectFault: nth must be a whole number, 1 or more'],
      [{ kind: 'slow', method: 'PO ST' }, 'injectFault: method must be an HTTP method, such as POST'],
      [{ kind: 'slow', path: '/deliveries', pathPattern: '^/deliveries' }, 'injectFault: give path or pathPattern, not both'],
      [{ kind: 'slow', pathPattern: '(' }, "injectFault: pathPattern '(' is not a regular expression"],
      [{ kind: 'sluggish' }, expect.stringMatching(/^injectFault: unknown fault 'sluggish'/)],
    ] as const) {
      expect(await inject(rule), JSON.stringify(rule)).toEqual({ status: 400, body: { error: refusal } });
    }
    expect(await inject({ kind: 'slow', merchantId: 'merchant-none' })).toEqual({
      status: 404,
      body: { error: "No merchant 'merchant-none' in this sandbox" },
    });
    expect(sandbox.injectedFaults()).toEqual([]);
    // A key given in the body is no merchant's: the form names merchants by id.
    expect((await inject({ kind: 'slow', pathPattern: '^/deliveries$', times: null, merchantId: shop.id, apiKey: sandbox.apiKey })).status).toBe(201);
    expect(sandbox.injectedFaults()).toEqual([expect.objectContaining({ path: /^\/deliveries$/, times: Number.POSITIVE_INFINITY, apiKey: shop.apiKey })]);
    sandbox.clearFaults();
  });

  it('narrows every view to one merchant on demand, and shows every merchant by default', async () => {
    const cookie = await logIn();
    const other = sandbox.createMerchant({ businessName: 'Alex Books', webhook: { url: 'https://alex.example/hooks' } });
    await createOrder();
    const otherCreate = await sandbox.fetch(`${sandbox.baseUrl}/deliveries?apiVersion=1`, {
      method: 'POST',
      headers: { authorization: other.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 10, cod: 10, dropOffAddress: dropOff, receiver: { firstName: 'Omar', lastName: 'Said', phone: '+201098765432' } }),
    });
    const otherOrder = ((await otherCreate.json()) as { data: { trackingNumber: string } }).data.trackingNumber;
    await sandbox.advance(otherOrder, { to: 20 });
    sandbox.injectFault({ kind: 'slow', apiKey: other.apiKey, slowMs: 0, times: Number.POSITIVE_INFINITY });
    const view = async (path: string, merchant?: string): Promise<any> =>
      JSON.parse((await send('GET', `/__dashboard/api/${path}${merchant === undefined ? '' : `?merchant=${merchant}`}`, { cookie })).body);
    const merchantsOf = (rows: Array<{ merchantId?: string | null }>): string[] => [...new Set(rows.map((row) => row.merchantId ?? 'none'))].sort();
    expect(merchantsOf((await view('orders', other.id)).orders)).toEqual([other.id]);
    expect(merchantsOf((await view('requests', other.id)).requests)).toEqual([other.id]);
    expect(merchantsOf((await view('webhooks', other.id)).deliveries)).toEqual([other.id]);
    expect(merchantsOf((await view('faults', shop.id)).faults)).toEqual([]);
    expect(merchantsOf((await view('faults', other.id)).faults)).toEqual([other.id]);
    expect(merchantsOf((await view('orders')).orders)).toEqual(expect.arrayContaining([shop.id, other.id]));
    expect(merchantsOf((await view('requests')).requests)).toEqual(expect.arrayContaining([shop.id, other.id]));
    expect(merchantsOf((await view('webhooks')).deliveries)).toEqual(expect.arrayContaining([shop.id, other.id]));
    sandbox.clearFaults();
  });

  it('finds orders by tracking number, business reference or phone (with or without the country code), narrowed to a merchant', async () => {
    const cookie = await logIn();
    const other = sandbox.createMerchant({ businessName: 'Giza Gadgets' });
    const created = await sandbox.fetch(`${sandbox.baseUrl}/deliveries?apiVersion=1`, {
      method: 'POST',
      headers: { authorization: other.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 10,
        cod: 99,
        dropOffAddress: dropOff,
        businessReference: 'Findable-42',
        receiver: { firstName: 'Omar', lastName: 'Said', phone: '+201155512345' },
      }),
    });
    const { trackingNumber } = ((await created.json()) as { data: { trackingNumber: string } }).data;
    const found = async (query: Record<string, string>): Promise<string[]> =>
      (
        JSON.parse((await send('GET', `/__dashboard/api/orders?${new URLSearchParams(query)}`, { cookie })).body) as {
          orders: Array<{ trackingNumber: string }>;
        }
      ).orders.map((order) => order.trackingNumber);
    for (const q of [trackingNumber, 'findable-4', '01155512345', '+20 115 551 2345', '5551234']) expect(await found({ q }), q).toEqual([trackingNumber]);
    expect(await found({ q: 'Findable-42', merchant: shop.id })).toEqual([]);
    expect(await found({ merchant: other.id })).toEqual([trackingNumber]);
  });

  it("shows no merchant's key, no control token and no webhook header value in any page or data route", async () => {
    const cookie = await logIn();
    const tracking = await createOrder();
    await sandbox.advance(tracking, { to: 20 });
    const texts = await Promise.all(
      [
        '/__dashboard/',
        '/__dashboard/api/orders',
        `/__dashboard/api/orders/${tracking}`,
        '/__dashboard/api/requests',
        '/__dashboard/api/webhooks',
        '/__dashboard/api/faults',
      ].map(async (path) => (await send('GET', path, { cookie })).body),
    );
    const requests = JSON.parse(texts[3] ?? '{}') as { requests: Array<{ id: number }> };
    for (const { id } of requests.requests.slice(0, 20)) texts.push((await send('GET', `/__dashboard/api/requests/${id}`, { cookie })).body);
    for (const secret of [
      shop.apiKey,
      sandbox.apiKey,
      server.controlToken,
      'hook-secret-value',
      new URL(server.dashboardUrl).searchParams.get('login') ?? '',
    ]) {
      expect(texts.filter((text) => text.includes(secret))).toEqual([]);
    }
  });
});

describe('its script and style sheet', () => {
  it('are built from the sources whatever folder the process stood in when esbuild first loaded, that folder removed since', async () => {
    // esbuild takes its working directory when first loaded; a process (a doc block's run, in
    // test/docs/run-ts.ts) may load it in a folder it leaves and removes: the build must not need
    // it. A plain Node process (tsx would load esbuild at its start), running this module bundled.
    mkdirSync(join(ROOT, 'test/.tmp'), { recursive: true });
    const folder = mkdtempSync(join(ROOT, 'test/.tmp/assets-'));
    try {
      const assets = join(folder, 'assets.mjs');
      await build({
        entryPoints: [join(ROOT, 'src/testing/dashboard/assets.ts')],
        outfile: assets,
        bundle: true,
        format: 'esm',
        platform: 'node',
        packages: 'external',
        absWorkingDir: ROOT,
        logLevel: 'silent',
      });
      const script = `
        import { mkdtempSync, rmSync } from 'node:fs';
        import { tmpdir } from 'node:os';
        import { join } from 'node:path';
        const home = process.cwd();
        const left = mkdtempSync(join(tmpdir(), 'delivery-sdk-left-'));
        process.chdir(left);
        const { build } = await import('esbuild');
        await build({ stdin: { contents: 'export {}' }, write: false, logLevel: 'silent' });
        process.chdir(home);
        rmSync(left, { recursive: true, force: true });
        const { buildDashboardAssets } = await import(${JSON.stringify(pathToFileURL(assets).href)});
        const built = await buildDashboardAssets(${JSON.stringify(join(ROOT, 'src/testing/dashboard/ui/main.ts'))});
        process.stdout.write(String(built['app.js'].length));
        process.exit(0);`;
      writeFileSync(join(folder, 'run.mjs'), script);
      const { stdout } = await run(process.execPath, [join(folder, 'run.mjs')], { cwd: ROOT, timeout: 60_000 });
      expect(Number(stdout)).toBeGreaterThan(1_000);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('weigh at most 60 KB gzip together, and load nothing from another origin (no URL, no web font, no @import)', async () => {
    const assets = await buildDashboardAssets(new URL('../../src/testing/dashboard/ui/main.ts', import.meta.url).pathname);
    const gzip = gzipSync(Buffer.concat([assets['app.js'], assets['app.css']]), { level: 9 }).length;
    expect(gzip).toBeLessThanOrEqual(60 * 1024);
    const css = new TextDecoder().decode(assets['app.css']);
    expect(css).not.toMatch(/@import|@font-face|url\(/);
    const js = new TextDecoder().decode(assets['app.js']);
    expect(js).not.toMatch(/\bimport\s*\(|https?:\/\/(?!www\.w3\.org\/)/);
  });
});
