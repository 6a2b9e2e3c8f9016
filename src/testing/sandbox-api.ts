// What a sandbox is, apart from how it is made (sandbox.ts): the control endpoints (control.ts)
// and the msw handlers read it without importing the sandbox's machinery.
import type { WebhookOrderType } from '../catalogue/order-types.js';
import type { FaultOptions } from './faults.js';
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
