import { confirmEmail, confirmPhone, createBusiness, registerAdmin, updatePickupLocations, verifyPhone } from './routes-account.js';
import { type Announce, airwayBills, getDelivery, searchDeliveries, terminateDelivery, trackDelivery, updateDelivery } from './routes-after-create.js';
import { listAllDistricts, listCities, listDistricts, listZones } from './routes-lookup.js';
import { createBulk, createBulky, createDelivery } from './routes-orders.js';
import {
  createPickupLocation,
  deletePickupLocation,
  getPickupLocation,
  listPickupLocations,
  setDefaultPickupLocation,
  updatePickupLocation,
} from './routes-pickup-locations.js';
import { availableDates, calculatePrice, createPickup, deletePickup, getPickup, listPickups, updatePickup } from './routes-pickups.js';
import type { Account, SandboxStore } from './store.js';
import { errorResponse, invalid, preflight, RuleViolation, readJson } from './wire.js';

interface RouterContext {
  readonly store: SandboxStore;
  readonly now: () => number;
  /** Sends the webhooks of a state change the API makes itself (terminate). */
  readonly announce?: Announce | undefined;
}

interface Call {
  readonly ctx: RouterContext;
  readonly url: URL;
  readonly params: readonly string[];
  readonly request: Request;
}

type Answer = Response | Promise<Response>;

/**
 * Lookup and registration are public; everything else needs an API key (wire contract), and is
 * answered from that key's account alone.
 */
type Route = { readonly method: string; readonly path: RegExp } & (
  | { readonly needsKey: false; readonly handle: (call: Call) => Answer }
  | { readonly needsKey: true; readonly handle: (call: Call, account: Account) => Answer }
);

function param(call: Call, i: number): string {
  const segment = call.params[i] ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalid(`Malformed %-escape in the path: ${segment}`);
  }
}

const ROUTES: readonly Route[] = [
  { method: 'GET', path: /^\/cities$/, needsKey: false, handle: (c) => listCities(c.url) },
  { method: 'GET', path: /^\/cities\/getAllDistricts$/, needsKey: false, handle: (c) => listAllDistricts(c.url) },
  { method: 'GET', path: /^\/cities\/([^/]+)\/districts$/, needsKey: false, handle: (c) => listDistricts(param(c, 0)) },
  { method: 'GET', path: /^\/cities\/([^/]+)\/zones$/, needsKey: false, handle: (c) => listZones(param(c, 0)) },
  { method: 'POST', path: /^\/users\/business\/admin$/, needsKey: false, handle: async (c) => registerAdmin(c.ctx.store, await readJson(c.request)) },
  {
    method: 'POST',
    path: /^\/users\/business-admin\/phone\/verify$/,
    needsKey: false,
    handle: async (c) => verifyPhone(c.ctx.store, await readJson(c.request)),
  },
  {
    method: 'POST',
    path: /^\/users\/business-admin\/phone\/confirm$/,
    needsKey: false,
    handle: async (c) => confirmPhone(c.ctx.store, await readJson(c.request)),
  },
  { method: 'POST', path: /^\/users\/mail\/confirm$/, needsKey: false, handle: async (c) => confirmEmail(c.ctx.store, await readJson(c.request)) },
  { method: 'POST', path: /^\/businesses$/, needsKey: true, handle: async (c, account) => createBusiness(account, await readJson(c.request)) },
  {
    method: 'PUT',
    path: /^\/businesses\/([^/]+)$/,
    needsKey: true,
    handle: async (c, account) => updatePickupLocations(account, param(c, 0), await readJson(c.request)),
  },
  {
    method: 'POST',
    path: /^\/deliveries$/,
    needsKey: true,
    handle: async (c, account) => createDelivery(account, c.url, await readJson(c.request), c.ctx.now()),
  },
  {
    method: 'POST',
    path: /^\/deliveries\/bulk$/,
    needsKey: true,
    handle: async (c, account) => createBulk(account, c.url, await readJson(c.request), c.ctx.now()),
  },
  {
    method: 'POST',
    path: /^\/fulfillment\/deliveries\/bulky$/,
    needsKey: true,
    handle: async (c, account) => createBulky(account, await readJson(c.request), c.ctx.now()),
  },
  // After creation (live-service.md)
  { method: 'GET', path: /^\/deliveries\/business\/([^/]+)$/, needsKey: true, handle: (c, account) => getDelivery(account, param(c, 0)) },
  { method: 'GET', path: /^\/deliveries\/([^/]+)\/tracking$/, needsKey: true, handle: (c, account) => trackDelivery(account, param(c, 0)) },
  { method: 'POST', path: /^\/deliveries\/search$/, needsKey: true, handle: async (c, account) => searchDeliveries(account, c.url, await readJson(c.request)) },
  {
    method: 'PUT',
    path: /^\/deliveries\/business\/([^/]+)$/,
    needsKey: true,
    handle: async (c, account) => updateDelivery(account, param(c, 0), await readJson(c.request)),
  },
  {
    method: 'DELETE',
    path: /^\/deliveries\/business\/([^/]+)\/terminate$/,
    needsKey: true,
    handle: (c, account) => terminateDelivery(account, param(c, 0), c.ctx.now(), c.ctx.announce),
  },
  { method: 'POST', path: /^\/deliveries\/mass-awb$/, needsKey: true, handle: async (c, account) => airwayBills(account, await readJson(c.request)) },
  { method: 'GET', path: /^\/pickups\/available-dates$/, needsKey: true, handle: (c) => availableDates(c.url, c.ctx.now()) },
  { method: 'POST', path: /^\/pickups$/, needsKey: true, handle: async (c, account) => createPickup(account, await readJson(c.request), c.ctx.now()) },
  { method: 'GET', path: /^\/pickups$/, needsKey: true, handle: (_c, account) => listPickups(account) },
  { method: 'GET', path: /^\/pickups\/([^/]+)$/, needsKey: true, handle: (c, account) => getPickup(account, param(c, 0)) },
  {
    method: 'PUT',
    path: /^\/pickups\/([^/]+)$/,
    needsKey: true,
    handle: async (c, account) => updatePickup(account, param(c, 0), await readJson(c.request), c.ctx.now()),
  },
  { method: 'DELETE', path: /^\/pickups\/([^/]+)$/, needsKey: true, handle: (c, account) => deletePickup(account, param(c, 0)) },
  { method: 'GET', path: /^\/pickup-locations$/, needsKey: true, handle: (_c, account) => listPickupLocations(account) },
  { method: 'POST', path: /^\/pickup-locations$/, needsKey: true, handle: async (c, account) => createPickupLocation(account, await readJson(c.request)) },
  { method: 'GET', path: /^\/pickup-locations\/([^/]+)$/, needsKey: true, handle: (c, account) => getPickupLocation(account, param(c, 0)) },
  {
    method: 'PUT',
    path: /^\/pickup-locations\/([^/]+)$/,
    needsKey: true,
    handle: async (c, account) => updatePickupLocation(account, param(c, 0), await readJson(c.request)),
  },
  { method: 'DELETE', path: /^\/pickup-locations\/([^/]+)$/, needsKey: true, handle: (c, account) => deletePickupLocation(account, param(c, 0)) },
  { method: 'PUT', path: /^\/pickup-locations\/([^/]+)\/default$/, needsKey: true, handle: (c, account) => setDefaultPickupLocation(account, param(c, 0)) },
  { method: 'GET', path: /^\/pricing\/shipment\/calculator$/, needsKey: true, handle: (c) => calculatePrice(c.url) },
];

/** The path after the `/v2` segment of the base URL, or undefined when the URL is not under it. */
export function apiPath(url: URL): string | undefined {
  const match = /^(?:.*?)\/v2(\/.*)?$/.exec(url.pathname);
  if (match === null) return undefined;
  const rest = match[1] ?? '/';
  return rest.length > 1 && rest.endsWith('/') ? rest.slice(0, -1) : rest;
}

/**
 * The account of the raw key in `Authorization`, as every public client of the service sends it,
 * and nothing else: no scheme (`Bearer <key>` is refused), no other header. A client set up in a
 * way the service would refuse must fail against the sandbox too.
 */
function accountOf(request: Request, store: SandboxStore): Account | undefined {
  const key = request.headers.get('authorization')?.trim();
  return key === undefined ? undefined : store.accountByKey(key);
}

const UNAUTHORIZED = 'Unauthorized: the API key is missing or wrong (send the raw key in Authorization, with no scheme)';

/** Answers one API request from the store. Never throws: every failure is an answer. */
export async function route(ctx: RouterContext, request: Request): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight(request);
  const url = new URL(request.url);
  const path = apiPath(url);
  for (const candidate of path === undefined ? [] : ROUTES) {
    const match = candidate.path.exec(path ?? '');
    if (match === null || candidate.method !== request.method) continue;
    const call: Call = { ctx, url, params: match.slice(1), request };
    if (!candidate.needsKey) return answer(() => candidate.handle(call));
    const account = accountOf(request, ctx.store);
    // errorCode 1028, as WOO4 and a merchant integration guide meet it for an invalid key.
    if (account === undefined) return errorResponse(401, UNAUTHORIZED, 1028);
    return answer(() => candidate.handle(call, account));
  }
  return errorResponse(404, `Not Found: ${request.method} ${url.pathname}`);
}

/** A handler's answer, or its failure as one: a broken rule as the service answers it, anything else as a 500. */
async function answer(handle: () => Answer): Promise<Response> {
  try {
    return await handle();
  } catch (err) {
    if (err instanceof RuleViolation) return err.toResponse();
    return errorResponse(500, `Sandbox internal error: ${err instanceof Error ? err.message : String(err)}`);
  }
}
