import { API_ROUTES, type ApiRoute } from './api-routes.js';
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
  /** The route's `{name}`s as the request's path has them, %-escapes still in. */
  readonly params: Readonly<Record<string, string>>;
  readonly request: Request;
}

type Answer = Response | Promise<Response>;

/**
 * Lookup and registration are public; everything else needs an API key (wire contract), and is
 * answered from that key's account alone.
 */
type Handler =
  | { readonly needsKey: false; readonly handle: (call: Call) => Answer }
  | { readonly needsKey: true; readonly handle: (call: Call, account: Account) => Answer };

/** The route's `{name}` in the request's path, decoded. */
function param(call: Call, name: string): string {
  const segment = call.params[name] ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalid(`Malformed %-escape in the path: ${segment}`);
  }
}

/**
 * A handler for each route the SDK sends, keyed as the declarations of src/functions/ write it
 * (api-routes.ts, generated from them): the compiler refuses a route missing here, or one the SDK
 * does not send, so a route is written by hand once, in its declaration.
 */
const HANDLERS: { readonly [R in ApiRoute]: Handler } = {
  'GET /cities': { needsKey: false, handle: (c) => listCities(c.url) },
  'GET /cities/getAllDistricts': { needsKey: false, handle: (c) => listAllDistricts(c.url) },
  'GET /cities/{cityId}/districts': { needsKey: false, handle: (c) => listDistricts(param(c, 'cityId')) },
  'GET /cities/{cityId}/zones': { needsKey: false, handle: (c) => listZones(param(c, 'cityId')) },
  'POST /users/business/admin': { needsKey: false, handle: async (c) => registerAdmin(c.ctx.store, await readJson(c.request)) },
  'POST /users/business-admin/phone/verify': { needsKey: false, handle: async (c) => verifyPhone(c.ctx.store, await readJson(c.request)) },
  'POST /users/business-admin/phone/confirm': { needsKey: false, handle: async (c) => confirmPhone(c.ctx.store, await readJson(c.request)) },
  'POST /users/mail/confirm': { needsKey: false, handle: async (c) => confirmEmail(c.ctx.store, await readJson(c.request)) },
  'POST /businesses': { needsKey: true, handle: async (c, account) => createBusiness(account, await readJson(c.request)) },
  'PUT /businesses/{businessId}': {
    needsKey: true,
    handle: async (c, account) => updatePickupLocations(account, param(c, 'businessId'), await readJson(c.request)),
  },
  'POST /deliveries': { needsKey: true, handle: async (c, account) => createDelivery(account, c.url, await readJson(c.request), c.ctx.now()) },
  'POST /deliveries/bulk': { needsKey: true, handle: async (c, account) => createBulk(account, c.url, await readJson(c.request), c.ctx.now()) },
  'POST /fulfillment/deliveries/bulky': { needsKey: true, handle: async (c, account) => createBulky(account, await readJson(c.request), c.ctx.now()) },
  // After creation (live-service.md)
  'GET /deliveries/business/{trackingNumber}': { needsKey: true, handle: (c, account) => getDelivery(account, param(c, 'trackingNumber')) },
  'GET /deliveries/{trackingNumber}/tracking': { needsKey: true, handle: (c, account) => trackDelivery(account, param(c, 'trackingNumber')) },
  'POST /deliveries/search': { needsKey: true, handle: async (c, account) => searchDeliveries(account, c.url, await readJson(c.request)) },
  'PUT /deliveries/business/{id}': { needsKey: true, handle: async (c, account) => updateDelivery(account, param(c, 'id'), await readJson(c.request)) },
  'DELETE /deliveries/business/{id}/terminate': {
    needsKey: true,
    handle: (c, account) => terminateDelivery(account, param(c, 'id'), c.ctx.now(), c.ctx.announce),
  },
  'POST /deliveries/mass-awb': { needsKey: true, handle: async (c, account) => airwayBills(account, await readJson(c.request)) },
  'GET /pickups/available-dates': { needsKey: true, handle: (c) => availableDates(c.url, c.ctx.now()) },
  'POST /pickups': { needsKey: true, handle: async (c, account) => createPickup(account, await readJson(c.request), c.ctx.now()) },
  'GET /pickups': { needsKey: true, handle: (_c, account) => listPickups(account) },
  'GET /pickups/{pickupId}': { needsKey: true, handle: (c, account) => getPickup(account, param(c, 'pickupId')) },
  'PUT /pickups/{pickupId}': {
    needsKey: true,
    handle: async (c, account) => updatePickup(account, param(c, 'pickupId'), await readJson(c.request), c.ctx.now()),
  },
  'DELETE /pickups/{pickupId}': { needsKey: true, handle: (c, account) => deletePickup(account, param(c, 'pickupId')) },
  'GET /pickup-locations': { needsKey: true, handle: (_c, account) => listPickupLocations(account) },
  'POST /pickup-locations': { needsKey: true, handle: async (c, account) => createPickupLocation(account, await readJson(c.request)) },
  'GET /pickup-locations/{locationId}': { needsKey: true, handle: (c, account) => getPickupLocation(account, param(c, 'locationId')) },
  'PUT /pickup-locations/{locationId}': {
    needsKey: true,
    handle: async (c, account) => updatePickupLocation(account, param(c, 'locationId'), await readJson(c.request)),
  },
  'DELETE /pickup-locations/{locationId}': { needsKey: true, handle: (c, account) => deletePickupLocation(account, param(c, 'locationId')) },
  'PUT /pickup-locations/{locationId}/default': { needsKey: true, handle: (c, account) => setDefaultPickupLocation(account, param(c, 'locationId')) },
  'GET /pricing/shipment/calculator': { needsKey: true, handle: (c) => calculatePrice(c.url) },
};

/** A route ready to match: its method, its path as a pattern with a group per `{name}`, and those names. */
type Route = Handler & { readonly method: string; readonly path: RegExp; readonly names: readonly string[] };

/** The routes, those with fewer `{name}`s first: `/pickups/available-dates` is tried before `/pickups/{pickupId}`. */
const ROUTES: readonly Route[] = API_ROUTES.map((route): Route => {
  const [method, template] = route.split(' ') as [string, string];
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
  const path = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '([^/]+)')}$`);
  return { ...HANDLERS[route], method, path, names };
}).sort((a, b) => a.names.length - b.names.length);

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
    const call: Call = { ctx, url, params: Object.fromEntries(candidate.names.map((name, at) => [name, match[at + 1] as string])), request };
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
