import { asciiDigits, isHeaderName } from '../schemas/predicates.js';
import { answerControl } from './control.js';
import { SandboxError } from './errors.js';
import { FaultInjector } from './faults.js';
import { isLinkLocalHostname, webhookHostSet, webhookTargetRefusal } from './network.js';
import { route } from './router.js';
import type { Sandbox, SandboxOptions, SandboxOrder, SandboxWebhookConfig } from './sandbox-api.js';
import { type SandboxServer, startServer } from './server.js';
import { StateEngine } from './state-engine.js';
import { type OrderRecord, SandboxStore, type StateEvent } from './store.js';
import { WebhookDispatcher, webhookBody } from './webhook-dispatch.js';
import { CONTROL_PREFIX, preflight } from './wire.js';

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
