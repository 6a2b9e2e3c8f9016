// What a sandbox is, apart from how it is made (sandbox.ts): the control endpoints (control.ts)
// and the msw handlers read it without importing the sandbox's machinery.
import type { WebhookOrderType } from '../catalogue/order-types.js';
import type { SandboxRequest } from './activity.js';
import type { FaultOptions, FaultRule, InjectedFault } from './faults.js';
import type { ScenarioName } from './flows.js';
import type { ListenOptions, SandboxServer } from './server.js';
import type { AdvanceOptions } from './state-engine.js';
import type { StateEvent } from './store.js';
import type { WebhookDelivery, WebhookRetryOptions } from './webhook-dispatch.js';

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

/** Options of {@link Sandbox.createMerchant}; every one has a default. */
export interface SandboxMerchantOptions {
  /**
   * The merchant's API key (sent raw in `Authorization`), printable ASCII. Default
   * `'sandbox-merchant-<n>-<random>'`, n counting the merchants this sandbox made (1, 2, ...) and
   * 32 random bytes after it (base64url), which no one can guess: read it from what
   * `createMerchant` returns. Two merchants of a sandbox never share a key.
   */
  readonly apiKey?: string;
  /** Its business's name. Default `'Shop <n>'`. */
  readonly businessName?: string;
  /**
   * Its business's first pickup location, the default every order without `businessLocationId`
   * leaves from. Default: `{ locationName: 'Warehouse', districtId: 'district-eg-cairo-makram-ebeid',
   * firstLine: '5 Makram Ebeid Street' }`; what you give replaces those fields (a district of the
   * seeded lists that allows pickup, a first line of 5 characters or more).
   */
  readonly pickupLocation?: {
    readonly locationName?: string;
    readonly districtId?: string;
    readonly firstLine?: string;
    readonly buildingNumber?: string;
    readonly floor?: string;
    readonly apartment?: string;
    readonly secondLine?: string;
  };
  /** Its account webhook (what `merchant.setWebhook` takes), used for its orders without `webhookUrl`. Default none. */
  readonly webhook?: SandboxWebhookConfig;
}

/**
 * A merchant of the sandbox, made ready to take orders by {@link Sandbox.createMerchant}: its own
 * API key, and under it its own business, pickup locations, orders, pickups, account webhook and
 * subscription. No key sees another's records: another merchant's order, pickup, pickup location
 * or business is answered 404, as an unknown one, and left out of every list and search.
 */
export interface SandboxMerchant {
  /** `'merchant-1'`, `'merchant-2'`, ...: names it in `SandboxOrder.merchantId` and in the control endpoints (`/__sandbox/merchants/<id>/...`). */
  readonly id: string;
  /** Its API key: give it to the client (`apiKey`, or `client.withOptions({ apiKey })`). */
  readonly apiKey: string;
  /** Its business, where its orders go. */
  readonly businessId: string;
  /** Its business's first pickup location, the default. */
  readonly pickupLocationId: string;
  /** Its orders, oldest first. */
  orders(): SandboxOrder[];
  /** Sets (or with `null` clears) its account webhook, as `sandbox.setWebhook` does the default merchant's. */
  setWebhook(config: SandboxWebhookConfig | null): void;
  /** Lapses (`false`) or renews its bundle subscription: without one, its creates answer 403 with errorCode 8000002. */
  setSubscriptionActive(active: boolean): void;
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
  /** The merchant whose key created it: `'default'` for the sandbox's own `apiKey`, else a {@link SandboxMerchant}'s `id`. */
  readonly merchantId: string;
  readonly createdAt: number;
  readonly numberOfAttempts: number;
  /** Every state from creation on. */
  readonly history: readonly SandboxStateEvent[];
  /** The order as received (bulky: after merging). */
  readonly request: Readonly<Record<string, unknown>>;
}

/**
 * The emulated service. Create one per test (or per suite) with {@link createSandbox}. It starts
 * with one merchant, the default, whose key is `apiKey` and who has no business yet (create it
 * through the API, as a new account would); {@link createMerchant} adds merchants, each with a
 * key, a business and a pickup location of its own.
 */
export interface Sandbox {
  /** The default merchant's API key (the `apiKey` option). The sandbox's own methods (`setWebhook`, `setSubscriptionActive`) are that merchant's. */
  readonly apiKey: string;
  /** The base URL `fetch` and msw's handlers (`sandboxHandlers` of `delivery-sdk/testing/msw`) answer under (ends in `/v2`). */
  readonly baseUrl: string;
  /**
   * The whole API as one Fetch-API function. Pass it as the client's `fetch`, or call it with a
   * `Request`. A dropped connection (fault injection) rejects with a TypeError, like `fetch`.
   */
  readonly fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /**
   * Serves the sandbox over HTTP on 127.0.0.1 (Node only); the API under `/v2` answers with CORS,
   * and its dashboard (`dashboardUrl`, a page to open in a browser on this machine) at `/__dashboard/`.
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
  /**
   * A new merchant, ready to take orders, in one call: its own API key, a business and that
   * business's first pickup location (its default). Options are checked first: a refused call
   * (`SandboxError`) makes nothing. Synchronous, so a script or a CLI uses it as a test does.
   *
   * @example
   * ```ts
   * const sandbox = createSandbox();
   * const shop = sandbox.createMerchant({ businessName: 'Nile Shop' });
   * const client = new DeliveryClient({ baseUrl: sandbox.baseUrl, apiKey: shop.apiKey, fetch: sandbox.fetch });
   * const other = client.withOptions({ apiKey: sandbox.createMerchant().apiKey }); // a second shop, none of the first's orders
   * ```
   */
  createMerchant(options?: SandboxMerchantOptions): SandboxMerchant;
  /** The merchants {@link createMerchant} made, in order (the default merchant is not one of them). */
  merchants(): readonly SandboxMerchant[];
  /** Every order created, by every merchant, oldest first (`merchantId` says whose). */
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
  /** Sets (or with `null` clears) the default merchant's account-level webhook; used when its order has no `webhookUrl`. */
  setWebhook(config: SandboxWebhookConfig | null): void;
  /** Every webhook sent, with its attempts: the last 1,000 deliveries, oldest first. */
  webhookLog(): readonly WebhookDelivery[];
  /**
   * Sends a delivery of {@link webhookLog} again, as the dashboard's Resend button does: a new
   * delivery (its `resendOf` naming the first) to the same URL with the same headers and body,
   * with attempts and retries of its own. Resolves after its first attempt; a delivery no longer
   * in the log throws a `SandboxError`.
   */
  resendWebhook(id: number): Promise<WebhookDelivery>;
  /**
   * Every API request the sandbox answered, oldest first: the last 1,000 (method, path, merchant,
   * status, errorCode, injected fault, duration, and the body with its secrets masked), in process
   * and over HTTP alike. Control and dashboard requests are not API requests and are not listed.
   */
  requestLog(): readonly SandboxRequest[];
  /** Resolves once every pending webhook retry has delivered or given up. */
  drainWebhooks(): Promise<void>;
  /**
   * Makes a share of the following API requests fail, drawn from a seeded PRNG: the same seed hits
   * the same requests (by their order) with the same kinds. Replaces the share set before.
   */
  injectFaults(options: FaultOptions): void;
  /**
   * Makes the requests it names fail, and no other: by method, path (a string, or a RegExp),
   * API key, the `nth` matching request, `times` of them (default once). Faults add up, and come
   * before `injectFaults`' share; the one returned counts its `matched` and `hits` requests and
   * can be `remove()`d.
   *
   * @example
   * ```ts
   * // A lost answer: the next create IS made, then its connection is reset. With a
   * // uniqueBusinessReference the SDK sends it again, and resolves with the order the first made.
   * const lost = sandbox.injectFault({ kind: 'drop-after', method: 'POST', path: '/deliveries' });
   * const created = await client.deliveries.create({ ...order, uniqueBusinessReference: 'order-1042' });
   * lost.hits; // 1: one order, created.trackingNumber its number
   * ```
   */
  injectFault(fault: FaultRule): InjectedFault;
  /** The faults `injectFault` added (and not removed or cleared), oldest first. */
  injectedFaults(): readonly InjectedFault[];
  /** Lapses (`false`) or renews the default merchant's bundle subscription: without one, its creates answer 403 with errorCode 8000002. */
  setSubscriptionActive(active: boolean): void;
  /** Stops injecting faults, drawn and targeted: every following request is answered normally. */
  clearFaults(): void;
  /** Stops retries and timers and closes every `listen()` server. */
  close(): Promise<void>;
}
