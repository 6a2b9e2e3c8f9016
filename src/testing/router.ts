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
import type { SandboxStore } from './store.js';
import { errorResponse, invalid, preflight, RuleViolation, readJson } from './wire.js';

interface RouterContext {
  readonly store: SandboxStore;
  readonly apiKey: string;
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

interface Route {
  readonly method: string;
  readonly path: RegExp;
  /** Lookup and registration are public; everything else needs the API key (wire contract). */
  readonly needsKey: boolean;
  readonly handle: (call: Call) => Response | Promise<Response>;
}

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
  { method: 'POST', path: /^\/businesses$/, needsKey: true, handle: async (c) => createBusiness(c.ctx.store, await readJson(c.request)) },
  {
    method: 'PUT',
    path: /^\/businesses\/([^/]+)$/,
    needsKey: true,
    handle: async (c) => updatePickupLocations(c.ctx.store, param(c, 0), await readJson(c.request)),
  },
  { method: 'POST', path: /^\/deliveries$/, needsKey: true, handle: async (c) => createDelivery(c.ctx.store, c.url, await readJson(c.request), c.ctx.now()) },
  { method: 'POST', path: /^\/deliveries\/bulk$/, needsKey: true, handle: async (c) => createBulk(c.ctx.store, c.url, await readJson(c.request), c.ctx.now()) },
  {
    method: 'POST',
    path: /^\/fulfillment\/deliveries\/bulky$/,
    needsKey: true,
    handle: async (c) => createBulky(c.ctx.store, await readJson(c.request), c.ctx.now()),
  },
  // After creation (live-service.md)
  { method: 'GET', path: /^\/deliveries\/business\/([^/]+)$/, needsKey: true, handle: (c) => getDelivery(c.ctx.store, param(c, 0)) },
  { method: 'GET', path: /^\/deliveries\/([^/]+)\/tracking$/, needsKey: true, handle: (c) => trackDelivery(c.ctx.store, param(c, 0)) },
  { method: 'POST', path: /^\/deliveries\/search$/, needsKey: true, handle: async (c) => searchDeliveries(c.ctx.store, c.url, await readJson(c.request)) },
  {
    method: 'PUT',
    path: /^\/deliveries\/business\/([^/]+)$/,
    needsKey: true,
    handle: async (c) => updateDelivery(c.ctx.store, param(c, 0), await readJson(c.request)),
  },
  {
    method: 'DELETE',
    path: /^\/deliveries\/business\/([^/]+)\/terminate$/,
    needsKey: true,
    handle: (c) => terminateDelivery(c.ctx.store, param(c, 0), c.ctx.now(), c.ctx.announce),
  },
  { method: 'POST', path: /^\/deliveries\/mass-awb$/, needsKey: true, handle: async (c) => airwayBills(c.ctx.store, await readJson(c.request)) },
  { method: 'GET', path: /^\/pickups\/available-dates$/, needsKey: true, handle: (c) => availableDates(c.url, c.ctx.now()) },
  { method: 'POST', path: /^\/pickups$/, needsKey: true, handle: async (c) => createPickup(c.ctx.store, await readJson(c.request), c.ctx.now()) },
  { method: 'GET', path: /^\/pickups$/, needsKey: true, handle: (c) => listPickups(c.ctx.store) },
  { method: 'GET', path: /^\/pickups\/([^/]+)$/, needsKey: true, handle: (c) => getPickup(c.ctx.store, param(c, 0)) },
  {
    method: 'PUT',
    path: /^\/pickups\/([^/]+)$/,
    needsKey: true,
    handle: async (c) => updatePickup(c.ctx.store, param(c, 0), await readJson(c.request), c.ctx.now()),
  },
  { method: 'DELETE', path: /^\/pickups\/([^/]+)$/, needsKey: true, handle: (c) => deletePickup(c.ctx.store, param(c, 0)) },
  { method: 'GET', path: /^\/pickup-locations$/, needsKey: true, handle: (c) => listPickupLocations(c.ctx.store) },
  { method: 'POST', path: /^\/pickup-locations$/, needsKey: true, handle: async (c) => createPickupLocation(c.ctx.store, await readJson(c.request)) },
  { method: 'GET', path: /^\/pickup-locations\/([^/]+)$/, needsKey: true, handle: (c) => getPickupLocation(c.ctx.store, param(c, 0)) },
  {
    method: 'PUT',
    path: /^\/pickup-locations\/([^/]+)$/,
    needsKey: true,
    handle: async (c) => updatePickupLocation(c.ctx.store, param(c, 0), await readJson(c.request)),
  },
  { method: 'DELETE', path: /^\/pickup-locations\/([^/]+)$/, needsKey: true, handle: (c) => deletePickupLocation(c.ctx.store, param(c, 0)) },
  { method: 'PUT', path: /^\/pickup-locations\/([^/]+)\/default$/, needsKey: true, handle: (c) => setDefaultPickupLocation(c.ctx.store, param(c, 0)) },
  { method: 'GET', path: /^\/pricing\/shipment\/calculator$/, needsKey: true, handle: (c) => calculatePrice(c.url) },
];

/** The path after the `/v2` segment of the base URL, or undefined when the URL is not under it. */
function apiPath(url: URL): string | undefined {
  const match = /^(?:.*?)\/v2(\/.*)?$/.exec(url.pathname);
  if (match === null) return undefined;
  const rest = match[1] ?? '/';
  return rest.length > 1 && rest.endsWith('/') ? rest.slice(0, -1) : rest;
}

/**
 * The raw key in `Authorization`, as every public client of the service sends it, and nothing
 * else: no scheme (`Bearer <key>` is refused), no other header. A client set up in a way the
 * service would refuse must fail against the sandbox too.
 */
function hasKey(request: Request, apiKey: string): boolean {
  return request.headers.get('authorization')?.trim() === apiKey;
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
    // errorCode 1028, as WOO4 and a merchant integration guide meet it for an invalid key.
    if (candidate.needsKey && !hasKey(request, ctx.apiKey)) return errorResponse(401, UNAUTHORIZED, 1028);
    try {
      return await candidate.handle({ ctx, url, params: match.slice(1), request });
    } catch (err) {
      if (err instanceof RuleViolation) return err.toResponse();
      return errorResponse(500, `Sandbox internal error: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return errorResponse(404, `Not Found: ${request.method} ${url.pathname}`);
}
