// The merchants of a sandbox: each an API key with its own account (store.ts), made ready in one
// call by `createMerchant`, and the account webhook each may have.
import { isHeaderName } from '../internal/guards.js';
import { checkPickupLocation } from './addresses.js';
import { SandboxError } from './errors.js';
import { isLinkLocalHostname, webhookTargetRefusal } from './network.js';
import { randomToken } from './random.js';
import { addBusiness } from './routes-account.js';
import { pickupLocationRecord } from './routes-pickup-locations.js';
import type { SandboxMerchant, SandboxMerchantOptions, SandboxOrder, SandboxWebhookConfig } from './sandbox-api.js';
import type { Account, OrderRecord, SandboxStore } from './store.js';
import { RuleViolation } from './wire.js';

/** Where a ready merchant's first pickup location is when its options name none: a real seeded district. */
const DEFAULT_PICKUP_LOCATION = { locationName: 'Warehouse', districtId: 'district-eg-cairo-makram-ebeid', firstLine: '5 Makram Ebeid Street' };

/** What the sandbox shows of an order (a copy: the test cannot change the record). */
export function snapshot(order: OrderRecord): SandboxOrder {
  return {
    _id: order._id,
    trackingNumber: order.trackingNumber,
    type: order.type,
    webhookType: order.webhookType,
    state: order.state,
    cod: order.cod,
    businessReference: order.businessReference,
    businessId: order.businessId,
    merchantId: order.merchantId,
    createdAt: order.createdAt,
    numberOfAttempts: order.attempts,
    history: [...order.history],
    request: order.request,
  };
}

/** Refuses (`SandboxError`) an account webhook the sandbox would not, or could not, call. */
export function checkWebhookConfig(config: SandboxWebhookConfig, webhookHosts: ReadonlySet<string> | undefined, what = 'setWebhook'): void {
  let url: URL;
  try {
    url = new URL(config.url);
  } catch {
    throw new SandboxError(`${what}: '${config.url}' is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SandboxError(`${what}: the URL must be http(s)`);
  if (isLinkLocalHostname(url.hostname))
    throw new SandboxError(
      `${what}: ${url.hostname} is a link-local address (169.254.0.0/16, fe80::/10: cloud metadata, the host's neighbours); the sandbox sends no webhooks there`,
    );
  const refusal = webhookHosts === undefined ? undefined : webhookTargetRefusal(config.url, webhookHosts);
  if (refusal !== undefined) throw new SandboxError(`${what}: ${refusal}`);
  if ((config.headerName === undefined) !== (config.headerValue === undefined)) {
    throw new SandboxError(`${what}: headerName and headerValue go together, never one alone (spec, Authentication 3)`);
  }
  if (config.headerName !== undefined && !isHeaderName(config.headerName)) throw new SandboxError(`${what}: '${config.headerName}' is not a valid header name`);
  // Refused here, not left to fetch: every delivery would otherwise fail and only show in webhookLog().
  if (config.headerValue !== undefined && (typeof config.headerValue !== 'string' || config.headerValue.trim() === '' || /[\r\n\0]/.test(config.headerValue))) {
    throw new SandboxError(`${what}: headerValue must be a non-empty string without CR, LF or NUL`);
  }
}

/**
 * Refuses a key a client could not send as the raw `Authorization` value, or one an account
 * already has (two merchants with one key would see each other's records).
 */
function checkApiKey(store: SandboxStore, apiKey: unknown): asserts apiKey is string {
  if (typeof apiKey !== 'string' || apiKey === '' || apiKey !== apiKey.trim() || /[^\x20-\x7e]/.test(apiKey)) {
    throw new SandboxError('createMerchant: apiKey must be a non-empty string of printable ASCII, without spaces around it');
  }
  if (store.accountByKey(apiKey) !== undefined) throw new SandboxError('createMerchant: another merchant of this sandbox already has this apiKey');
}

/** The account's own view, as `createMerchant` returns it and `sandbox.merchants()` lists it. */
function merchantOf(account: Account, businessId: string, pickupLocationId: string, webhookHosts: ReadonlySet<string> | undefined): SandboxMerchant {
  return {
    id: account.id,
    apiKey: account.apiKey,
    businessId,
    pickupLocationId,
    orders: () => [...account.orders.values()].map(snapshot),
    setWebhook: (config) => {
      if (config !== null) checkWebhookConfig(config, webhookHosts);
      account.accountWebhook = config === null ? undefined : { ...config };
    },
    setSubscriptionActive: (active) => {
      account.subscriptionActive = active === true;
    },
  };
}

/**
 * A new merchant, ready to take orders: its own key and account, a business, and that business's
 * first pickup location (its default). Every option is checked before anything is made, so a
 * refused call (`SandboxError`) leaves the sandbox as it was.
 */
export function createMerchant(
  store: SandboxStore,
  number: number,
  options: SandboxMerchantOptions,
  webhookHosts: ReadonlySet<string> | undefined,
): SandboxMerchant {
  if (typeof options !== 'object' || options === null) throw new SandboxError('createMerchant: the options must be an object');
  // Random, as the control token is: another user of the machine cannot act as a merchant of a listening sandbox by guessing its key.
  const apiKey = options.apiKey ?? `sandbox-merchant-${number}-${randomToken()}`;
  checkApiKey(store, apiKey);
  const businessName = options.businessName ?? `Shop ${number}`;
  if (typeof businessName !== 'string' || businessName.trim() === '') throw new SandboxError('createMerchant: businessName must be a non-empty string');
  let location: ReturnType<typeof checkPickupLocation>;
  try {
    location = checkPickupLocation({ ...DEFAULT_PICKUP_LOCATION, ...(options.pickupLocation ?? {}) }, 'pickupLocation');
  } catch (err) {
    if (err instanceof RuleViolation) throw new SandboxError(`createMerchant: ${err.message}`);
    throw err;
  }
  if (options.webhook !== undefined) checkWebhookConfig(options.webhook, webhookHosts, 'createMerchant: webhook');

  const account = store.addAccount(`merchant-${number}`, apiKey);
  const business = addBusiness(account, { name: businessName });
  const pickupLocation = pickupLocationRecord(account, business, location.district, location.entry);
  business.pickupLocations.push(pickupLocation);
  if (options.webhook !== undefined) account.accountWebhook = { ...options.webhook };
  return merchantOf(account, business._id, pickupLocation._id, webhookHosts);
}
