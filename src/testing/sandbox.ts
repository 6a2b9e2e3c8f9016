import type { WebhookOrderType } from '../catalogue/order-types.js';
import { asciiDigits, isHeaderName } from '../schemas/predicates.js';
import { answerControl, CONTROL_PREFIX } from './control.js';
import { SandboxError } from './errors.js';
import { FaultInjector, type FaultOptions } from './faults.js';
import type { ScenarioName } from './flows.js';
import { isLinkLocalHostname, webhookHostSet, webhookTargetRefusal } from './network.js';
import { route } from './router.js';
import { type ListenOptions, type SandboxServer, startServer } from './server.js';
import { type AdvanceOptions, StateEngine } from './state-engine.js';
import { type OrderRecord, SandboxStore, type StateEvent } from './store.js';
import { type WebhookDelivery, WebhookDispatcher, type WebhookRetryOptions, webhookBody } from './webhook-dispatch.js';
import { preflight } from './wire.js';

/** Options of {@link createSandbox}; every one has a default, so `createSandbox()` is enough for most tests. */
export interface SandboxOptions {
  /** The account's API key (sent raw in `Authorization`). Default `'sandbox-api-key'`. */
  readonly apiKey?: string;
  /** Seed of one-time codes and e-mail tokens. Default 1. */
  readonly seed?: number;
  /** Webhook retries: attempts in all (default 4) and the first backoff delay (default 50 ms, doubled each retry). */
  readonly webhookRetry?: WebhookRetryOptions;
  /**
   * Clock for timestamps (`createdAt`, webhook `timeStamp`, `deliveryPromiseDate`). Default `Date.now`.
   * An order's `timeStamp`s strictly increase: a change within the millisecond of the previous one
   * (or under a clock that stands still) gets the previous `timeStamp` + 1.
   */
  readonly now?: () => number;
  /** Base URL the in-process adapters (`fetch`, and msw's handlers from `delivery-sdk/testing/msw`) answer under. Default `https://sandbox.delivery-sdk.test/v2`. */
  readonly baseUrl?: string;
  /**
   * How webhooks are sent. Default: the global `fetch`, to the order's or the account's URL. To
   * deliver them to a Fetch-API handler in the same process, with no server to start:
   * `webhookFetch: (url, init) => handler(new Request(url, init))`.
   */
  readonly webhookFetch?: (url: string, init: RequestInit) => Promise<Response>;
  /**
   * Hosts the sandbox may send webhooks to (`'hooks.example'`, `'10.0.0.5'`), besides loopback
   * receivers (`localhost`, `127.0.0.1`, `[::1]`), which it always may. Any other target is
   * refused (`setWebhook` throws a `SandboxError` naming the host; an order's `webhookUrl` is
   * logged as not sent), link-local ones (cloud metadata) even when named. Not checked with
   * `webhookFetch`, which sends nothing over the network itself.
   */
  readonly webhookHosts?: readonly string[];
}

/** The account-level webhook of the dashboard: URL, and optionally one header name with its value. */
export interface SandboxWebhookConfig {
  readonly url: string;
  readonly headerName?: string;
  readonly headerValue?: string;
}

/**
 * One state an order reached, as its webhook reports it.
 *
 * @reexport
 */
export type SandboxStateEvent = StateEvent;

/** A read-only view of an order the sandbox holds. */
export interface SandboxOrder {
  readonly _id: string;
  readonly trackingNumber: string;
  /** As created: 10, 15, 25, 30, 'FXF_SEND' or 'CUSTOMER_RETURN_PICKUP'. */
  readonly type: number | string;
  /** The type its webhooks carry now (an FXF_SEND or SEND being returned turns `RTO`). */
  readonly webhookType: WebhookOrderType;
  readonly state: number;
  readonly cod: number | undefined;
  readonly businessReference: string | undefined;
  readonly businessId: string;
  readonly createdAt: number;
  readonly numberOfAttempts: number;
  /** Every state from creation on. */
  readonly history: readonly SandboxStateEvent[];
  /** The order as received (bulky: after merging). */
  readonly request: Readonly<Record<string, unknown>>;
}

/** The emulated service. Create one per test (or per suite) with {@link createSandbox}. */
export interface Sandbox {
  readonly apiKey: string;
  /** The base URL `fetch` and msw's handlers (`sandboxHandlers` of `delivery-sdk/testing/msw`) answer under (ends in `/v2`). */
  readonly baseUrl: string;
  /**
   * The whole API as one Fetch-API function. Pass it as the client's `fetch`, or call it with a
   * `Request`. A dropped connection (fault injection) rejects with a TypeError, like `fetch`.
   */
  readonly fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /**
   * Serves the sandbox over HTTP on 127.0.0.1 (Node only); the API under `/v2` answers with CORS.
   * Besides it, the server answers control endpoints under `/__sandbox/` (otp, orders, advance,
   * play, webhook, faults) for tests running in another process or language: to this machine
   * only (loopback peer, `Host` and `Origin`; 403 otherwise), without CORS headers, and only to a
   * request carrying {@link controlToken} in `X-Sandbox-Token` (401 otherwise): another user of the
   * machine must not read one-time codes or the webhook secret, nor re-point the webhook.
   */
  listen(options?: ListenOptions): Promise<SandboxServer>;
  /**
   * The secret the control endpoints of a `listen()` server ask for (header `X-Sandbox-Token`):
   * random, made when the sandbox is created, never the same twice. `listen()` returns it too. The
   * sandbox object's own methods, and `sandbox.fetch`, need none.
   */
  readonly controlToken: string;
  /** The last one-time code "sent" to this phone by `phone/verify` (Arabic-Indic or ASCII digits alike). */
  lastOtp(phone: string): string | undefined;
  /** The e-mail confirmation token "sent" at registration. */
  lastEmailToken(email: string): string | undefined;
  /** Every order created, oldest first. */
  orders(): SandboxOrder[];
  /** One order by tracking number; throws a `SandboxError` when there is none. */
  order(trackingNumber: string): SandboxOrder;
  /** The states `advance` accepts for this order now. */
  nextStates(trackingNumber: string): number[];
  /**
   * Moves an order one step along its flow and sends the webhook(s). Resolves after the first
   * delivery attempt of each; a third failed attempt also yields the automatic 48 or 103.
   * Refuses a transition the flow does not allow with a `SandboxError` naming from and to.
   */
  advance(trackingNumber: string, options: AdvanceOptions): Promise<SandboxStateEvent[]>;
  /**
   * Plays a scenario to its end from where the order is, whatever steps brought it there (a
   * paused order resumes first); returns the events it produced. Refuses (`SandboxError`) an order
   * at a state from which the scenario cannot reach its end.
   */
  play(trackingNumber: string, scenario: ScenarioName): Promise<SandboxStateEvent[]>;
  /** Sets (or with `null` clears) the account-level webhook; used when an order has no `webhookUrl`. */
  setWebhook(config: SandboxWebhookConfig | null): void;
  /** Every webhook sent, with its attempts. */
  webhookLog(): readonly WebhookDelivery[];
  /** Resolves once every pending webhook retry has delivered or given up. */
  drainWebhooks(): Promise<void>;
  /** Makes a share of the following API requests fail; repeatable for a seed. */
  injectFaults(options: FaultOptions): void;
  /** Lapses (`false`) or renews the account's bundle subscription: without one, creates answer 403 with errorCode 8000002. */
  setSubscriptionActive(active: boolean): void;
  /** Stops injecting faults: every following request is answered normally. */
  clearFaults(): void;
  /** Stops retries and timers and closes every `listen()` server. */
  close(): Promise<void>;
}

function snapshot(order: OrderRecord): SandboxOrder {
  return {
    _id: order._id,
    trackingNumber: order.trackingNumber,
    type: order.type,
    webhookType: order.webhookType,
    state: order.state,
    cod: order.cod,
    businessReference: order.businessReference,
    businessId: order.businessId,
    createdAt: order.createdAt,
    numberOfAttempts: order.attempts,
    history: [...order.history],
    request: order.request,
  };
}

function checkWebhookConfig(config: SandboxWebhookConfig, webhookHosts: ReadonlySet<string> | undefined): void {
  let url: URL;
  try {
    url = new URL(config.url);
  } catch {
    throw new SandboxError(`setWebhook: '${config.url}' is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SandboxError('setWebhook: the URL must be http(s)');
  if (isLinkLocalHostname(url.hostname))
    throw new SandboxError(
      `setWebhook: ${url.hostname} is a link-local address (169.254.0.0/16, fe80::/10: cloud metadata, the host's neighbours); the sandbox sends no webhooks there`,
    );
  const refusal = webhookHosts === undefined ? undefined : webhookTargetRefusal(config.url, webhookHosts);
  if (refusal !== undefined) throw new SandboxError(`setWebhook: ${refusal}`);
  if ((config.headerName === undefined) !== (config.headerValue === undefined)) {
    throw new SandboxError('setWebhook: headerName and headerValue go together, never one alone (spec, Authentication 3)');
  }
  if (config.headerName !== undefined && !isHeaderName(config.headerName))
    throw new SandboxError(`setWebhook: '${config.headerName}' is not a valid header name`);
  // Refused here, not left to fetch: every delivery would otherwise fail and only show in webhookLog().
  if (config.headerValue !== undefined && (typeof config.headerValue !== 'string' || config.headerValue.trim() === '' || /[\r\n\0]/.test(config.headerValue))) {
    throw new SandboxError('setWebhook: headerValue must be a non-empty string without CR, LF or NUL');
  }
}

/** 32 random bytes as base64url, from the Web Crypto every runtime the sandbox runs in has. */
function randomToken(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * Creates an in-memory emulation of the Delivery Service API: lookup data, accounts, orders with
 * every server-side rule and errorCode, a state engine, webhooks and fault injection.
 *
 * @example
 * ```ts
 * import { createSandbox } from 'delivery-sdk/testing';
 * import { DeliveryClient } from 'delivery-sdk';
 *
 * const sandbox = createSandbox();
 * const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, fetch: sandbox.fetch });
 *
 * // The account needs a business with a pickup location before its first order (else 1073)
 * const business = await client.businesses.create({ name: 'Nile Shop', salesChannel: 'FACEBOOK_SELLER' });
 * const warehouse = await client.lookup.resolveAddress({ city: 'Cairo', district: 'Makram Ebeid', firstLine: '5 Makram Ebeid Street', for: 'pickupAddress' });
 * await client.businesses.updatePickupLocations(business._id, [{ locationName: 'Warehouse', districtId: warehouse.districtId, firstLine: warehouse.firstLine }]);
 *
 * const { trackingNumber } = await client.deliveries.create({
 *   type: DeliveryType.Deliver,
 *   dropOffAddress: await client.lookup.resolveAddress({ city: 'Giza', district: 'Dokki', firstLine: '12 Tahrir Street, 3rd floor', for: 'dropOffAddress' }),
 *   receiver: { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' },
 *   cod: 250,
 *   webhookUrl: 'http://127.0.0.1:3000/webhooks/delivery', // your handler under test
 * });
 * const events = await sandbox.play(trackingNumber, 'success'); // states 20, 21, 24, 30, 24, 41, 45
 * sandbox.order(trackingNumber).state; // 45
 * await sandbox.close();
 * ```
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const now = options.now ?? Date.now;
  const apiKey = options.apiKey ?? 'sandbox-api-key';
  const controlToken = randomToken();
  const baseUrl = (options.baseUrl ?? 'https://sandbox.delivery-sdk.test/v2').replace(/\/+$/, '');
  const store = new SandboxStore(options.seed ?? 1);
  const faults = new FaultInjector();
  // With webhookFetch the sandbox itself calls no network: only its link-local refusal stays.
  const webhookHosts = options.webhookFetch === undefined ? webhookHostSet(options.webhookHosts) : undefined;
  const webhooks = new WebhookDispatcher(options.webhookRetry ?? {}, now, options.webhookFetch, webhookHosts);
  const servers = new Set<Pick<SandboxServer, 'close'>>();

  const announce = async (order: OrderRecord, event: StateEvent): Promise<void> => {
    const account = store.accountWebhook;
    const target =
      order.webhookUrl !== undefined
        ? { url: order.webhookUrl, headers: order.webhookCustomHeaders ?? {} }
        : account === undefined
          ? undefined
          : {
              url: account.url,
              headers: account.headerName === undefined || account.headerValue === undefined ? {} : { [account.headerName]: account.headerValue },
            };
    if (target !== undefined) await webhooks.send(target, webhookBody(order, event));
  };
  const engine = new StateEngine(store, now, announce);

  const handle = async (request: Request): Promise<Response> => {
    if (request.method === 'OPTIONS') return preflight(request);
    return faults.apply(() => route({ store, apiKey, now, announce }, request));
  };
  const fetchFn = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    try {
      return handle(input instanceof Request && init === undefined ? input : new Request(input, init));
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  };

  const sandbox: Sandbox = {
    apiKey,
    baseUrl,
    controlToken,
    fetch: fetchFn,
    listen: async (listenOptions) => {
      const server = await startServer(
        (request, peer) => (new URL(request.url).pathname.startsWith(`${CONTROL_PREFIX}/`) ? answerControl(sandbox, request, peer) : handle(request)),
        listenOptions,
      );
      servers.add(server);
      return {
        baseUrl: server.baseUrl,
        port: server.port,
        controlToken,
        close: () => {
          servers.delete(server);
          return server.close();
        },
      };
    },
    lastOtp: (phone) => store.otps.get(asciiDigits(phone)),
    lastEmailToken: (email) => store.emailTokens.get(email.toLowerCase()),
    orders: () => [...store.orders.values()].map(snapshot),
    order: (trackingNumber) => snapshot(engine.order(trackingNumber)),
    nextStates: (trackingNumber) => engine.nextStates(trackingNumber),
    advance: (trackingNumber, advanceOptions) => engine.advance(trackingNumber, advanceOptions),
    play: (trackingNumber, scenario) => engine.play(trackingNumber, scenario),
    setWebhook: (config) => {
      if (config !== null) checkWebhookConfig(config, webhookHosts);
      store.accountWebhook = config === null ? undefined : { ...config };
    },
    webhookLog: () => webhooks.log(),
    drainWebhooks: () => webhooks.drain(),
    injectFaults: (faultOptions) => faults.configure(faultOptions),
    clearFaults: () => faults.clear(),
    setSubscriptionActive: (active) => {
      store.subscriptionActive = active === true;
    },
    close: async () => {
      faults.clear();
      webhooks.close();
      await webhooks.drain();
      await Promise.all([...servers].map((server) => server.close()));
      servers.clear();
    },
  };
  return sandbox;
}
