// The dashboard over a `listen()` server, under /__dashboard/: its login, its page, its JSON, its
// event stream and its actions, for a browser on this machine only.
//
// What keeps it from other origins (docs/sandbox.md, "The dashboard"): a loopback peer and `Host`
// (DNS rebinding); a login secret of its own, traded for an HttpOnly, SameSite=Strict cookie;
// another loopback port is the same *site*, so SameSite does not stop a page there from sending
// the cookie: every request that changes something must carry this origin's own `Origin`, every
// other is refused when the browser says it comes from another site or another origin of this one
// (`Sec-Fetch-Site`), and no answer carries a CORS header. A CSP allows no inline script and no
// frame, and the page writes every field as text.
import { constantTimeEqual } from '../../internal/guards.js';
import { SandboxError } from '../errors.js';
import { isLoopbackAddress, isLoopbackHostHeader } from '../network.js';
import { randomToken } from '../random.js';
import { DASHBOARD_PREFIX, decodePathSegment, isRecord, type Peer, RuleViolation, readJson } from '../wire.js';
import { type AssetName, dashboardAssets } from './assets.js';
import { type DashboardSource, dashboardFaultRule, FaultIds, faultsView, ordersView, orderView, requestsView, requestView, webhooksView } from './views.js';

/** Headers of every dashboard answer. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** How many logins (browsers) the dashboard remembers at once; the oldest is forgotten past it. */
const MAX_SESSIONS = 50;

/** How long the event stream gathers changes before it tells the page (a burst of requests is one message). */
const EVENT_GATHER_MS = 100;

function answer(status: number, body: BodyInit | null, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...SECURITY_HEADERS, ...headers } });
}

const json = (status: number, data: unknown, headers: Record<string, string> = {}): Response =>
  answer(status, JSON.stringify(data), { 'content-type': 'application/json; charset=utf-8', ...headers });

const refused = (status: number, message: string): Response => json(status, { error: message });

const page = (status: number, body: string, headers: Record<string, string> = {}): Response =>
  answer(
    status,
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Delivery sandbox</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${DASHBOARD_PREFIX}/app.css"></head>
<body>${body}</body></html>`,
    { 'content-type': 'text/html; charset=utf-8', ...headers },
  );

const APP = `<div id="app"></div><script type="module" src="${DASHBOARD_PREFIX}/app.js"></script>`;
const SIGN_IN = `<main class="signin"><h1>Delivery sandbox</h1><p>This browser is not signed in to the sandbox's dashboard, so it shows no data.</p>
<p>Open the dashboard URL the sandbox gave (<code>dashboardUrl</code> of <code>listen()</code>, or the line <code>delivery-sdk sandbox</code> printed): it carries the login.</p></main>`;

const NOT_FROM_ELSEWHERE = `<main class="signin"><h1>Delivery sandbox</h1><p>The dashboard opens only from its own pages, or from its URL typed or pasted into the address bar: not from a link on another site or another port of this machine, whose pages must not reach it.</p></main>`;

const ASSET_TYPES: Readonly<Record<AssetName, string>> = { 'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8' };

const encoder = new TextEncoder();
const sameSecret = (given: string, expected: string): boolean => constantTimeEqual(encoder.encode(given), encoder.encode(expected));

function cookies(request: Request): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) found.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return found;
}

/**
 * Why a request may not reach the dashboard at all, or `undefined`: a peer or a `Host` that is not
 * loopback, a change without this origin's own `Origin`, or a read a browser says another site or
 * another origin asked for.
 */
export function refusalOf(request: Request, peer: Peer): string | undefined {
  if (peer.remoteAddress === undefined || !isLoopbackAddress(peer.remoteAddress)) return 'the dashboard answers this machine only';
  if (!isLoopbackHostHeader(peer.host)) return 'the dashboard answers a loopback Host only (localhost, 127.0.0.1, [::1])';
  if (request.method === 'GET' || request.method === 'HEAD') {
    const site = request.headers.get('sec-fetch-site');
    if (site === 'cross-site' || site === 'same-site') return `the dashboard answers its own pages only, not a ${site} request`;
    return undefined;
  }
  if (peer.origin !== `http://${peer.host}`) return `a change needs this dashboard's own Origin (http://${peer.host}), not ${peer.origin ?? 'none'}`;
  return undefined;
}

/** The dashboard of one sandbox, for every `listen()` server it has: its sessions are shared. */
export function openDashboard(source: DashboardSource) {
  const sessions = new Set<string>();
  const faultIds = new FaultIds();

  const signedIn = (request: Request, cookie: string): boolean => {
    const session = cookies(request).get(cookie);
    return session !== undefined && [...sessions].some((known) => sameSecret(session, known));
  };

  /** Trades the login secret for a session cookie, and leaves the address bar clean. */
  const logIn = (given: string, cookie: string): Response => {
    if (!sameSecret(given, source.loginSecret)) return page(401, SIGN_IN.replace('is not signed in', 'has a login link that is not this sandbox’s'));
    const session = randomToken();
    sessions.add(session);
    if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.values().next().value as string);
    return answer(303, null, {
      location: `${DASHBOARD_PREFIX}/`,
      'set-cookie': `${cookie}=${session}; Path=${DASHBOARD_PREFIX}; HttpOnly; SameSite=Strict`,
    });
  };

  const events = (): Response => {
    let stop = (): void => undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('retry: 1000\n: connected\n\n'));
        const pending = new Set<string>();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const unsubscribe = source.activity.subscribe((kind) => {
          pending.add(kind);
          timer ??= setTimeout(() => {
            timer = undefined;
            const kinds = [...pending];
            pending.clear();
            try {
              controller.enqueue(encoder.encode(`event: change\ndata: ${JSON.stringify({ kinds })}\n\n`));
            } catch {
              stop();
            }
          }, EVENT_GATHER_MS);
        });
        stop = () => {
          clearTimeout(timer);
          unsubscribe();
        };
      },
      cancel: () => stop(),
    });
    return answer(200, body, { 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
  };

  const act = async (request: Request, path: string): Promise<Response> => {
    const advance = /^\/api\/orders\/([^/]+)\/advance$/.exec(path);
    const resend = /^\/api\/webhooks\/(\d+)\/resend$/.exec(path);
    const fault = /^\/api\/faults\/(\d+)$/.exec(path);
    const fields = request.method === 'POST' && (advance !== null || path === '/api/faults') ? await readJson(request) : {};
    if (!isRecord(fields)) throw new SandboxError('The body must be a JSON object');
    const body = fields;
    if (request.method === 'POST' && advance !== null) {
      const trackingNumber = decodePathSegment(advance[1] ?? '');
      const { to, exceptionCode } = body;
      if (typeof to !== 'number') throw new SandboxError('`to` must be a state code');
      if (exceptionCode !== undefined && typeof exceptionCode !== 'number') throw new SandboxError('`exceptionCode` must be a number');
      const moved = await source.sandbox.advance(trackingNumber, exceptionCode === undefined ? { to } : { to, exceptionCode });
      return json(200, { events: moved });
    }
    if (request.method === 'POST' && resend !== null) {
      const delivery = await source.sandbox.resendWebhook(Number(resend[1]));
      return json(200, { id: delivery.id, status: delivery.status });
    }
    if (request.method === 'POST' && path === '/api/faults') {
      const added = source.sandbox.injectFault(dashboardFaultRule(body, source.store));
      return json(201, { id: faultIds.of(added) });
    }
    if (request.method === 'DELETE' && fault !== null) {
      const found = source.sandbox.injectedFaults().find((candidate) => faultIds.of(candidate) === Number(fault[1]));
      if (found === undefined) return refused(404, `No fault ${fault[1]} in place`);
      found.remove();
      return answer(204, null);
    }
    if (request.method === 'DELETE' && path === '/api/faults') {
      source.sandbox.clearFaults();
      return answer(204, null);
    }
    return refused(404, `Not Found: ${request.method} ${DASHBOARD_PREFIX}${path}`);
  };

  const read = (url: URL, path: string): Response => {
    const query = url.searchParams;
    if (path === '/api/orders') return json(200, ordersView(source, query));
    const order = /^\/api\/orders\/([^/]+)$/.exec(path);
    if (order !== null) return json(200, orderView(source, decodePathSegment(order[1] ?? '')));
    if (path === '/api/requests') return json(200, requestsView(source, query));
    const request = /^\/api\/requests\/(\d+)$/.exec(path);
    if (request !== null) return json(200, requestView(source, Number(request[1])));
    if (path === '/api/webhooks') return json(200, webhooksView(source, query));
    if (path === '/api/faults') return json(200, faultsView(source, query, faultIds));
    if (path === '/api/events') return events();
    return refused(404, `Not Found: GET ${DASHBOARD_PREFIX}${path}`);
  };

  const serve = async (request: Request, peer: Peer): Promise<Response> => {
    const why = refusalOf(request, peer);
    if (why !== undefined) {
      // A link followed from another page: say what to do, in the page itself.
      if (request.headers.get('sec-fetch-mode') === 'navigate') return page(403, NOT_FROM_ELSEWHERE);
      return refused(403, `Forbidden: ${why}`);
    }
    const url = new URL(request.url);
    // One cookie per port: cookies do not tell ports apart, and two sandboxes must not sign each other out.
    const cookie = `delivery_sandbox_dashboard_${url.port}`;
    const path = url.pathname.slice(DASHBOARD_PREFIX.length);
    const reading = request.method === 'GET' || request.method === 'HEAD';
    if (path === '' && reading) return answer(308, null, { location: `${DASHBOARD_PREFIX}/${url.search}` });
    if (path === '/' && reading) {
      const login = url.searchParams.get('login');
      if (login !== null) return logIn(login, cookie);
      return signedIn(request, cookie) ? page(200, APP) : page(401, SIGN_IN);
    }
    if (reading && (path === '/app.js' || path === '/app.css')) {
      const name = path.slice(1) as AssetName;
      return answer(200, (await dashboardAssets())[name] as Uint8Array<ArrayBuffer>, { 'content-type': ASSET_TYPES[name] });
    }
    if (path === '/logout' && request.method === 'POST') {
      const session = cookies(request).get(cookie);
      if (session !== undefined) sessions.delete(session);
      return answer(204, null, { 'set-cookie': `${cookie}=; Path=${DASHBOARD_PREFIX}; HttpOnly; SameSite=Strict; Max-Age=0` });
    }
    if (!path.startsWith('/api/')) return refused(404, `Not Found: ${request.method} ${url.pathname}`);
    if (!signedIn(request, cookie)) return refused(401, 'Unauthorized: open the dashboard URL the sandbox gave; it signs this browser in');
    try {
      return reading ? read(url, path) : await act(request, path);
    } catch (err) {
      if (err instanceof SandboxError) return refused(err.message.startsWith('No ') ? 404 : 400, err.message);
      if (err instanceof RuleViolation) return refused(err.status, err.message);
      throw err;
    }
  };

  return {
    answer: serve,
    /** The dashboard's URL on the server at `baseUrl`, its login in the query; a server bound to every interface is opened on 127.0.0.1. */
    url: (baseUrl: string): string => {
      const origin = new URL(baseUrl);
      if (origin.hostname === '0.0.0.0' || origin.hostname === '[::]') origin.hostname = '127.0.0.1';
      return `${origin.origin}${DASHBOARD_PREFIX}/?login=${source.loginSecret}`;
    },
  };
}
