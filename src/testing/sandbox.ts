import { asciiDigits } from '../schemas/predicates.js';
import { ActivityLog } from './activity.js';
import { answerControl } from './control.js';
import { FaultInjector } from './faults.js';
import { checkWebhookConfig, createMerchant, snapshot } from './merchants.js';
import { webhookHostSet } from './network.js';
import { randomToken } from './random.js';
import { route } from './router.js';
import type { Sandbox, SandboxMerchant, SandboxOptions } from './sandbox-api.js';
import { type SandboxServer, startServer } from './server.js';
import { StateEngine } from './state-engine.js';
import { type OrderRecord, SandboxStore, type StateEvent } from './store.js';
import { WebhookDispatcher, webhookBody } from './webhook-dispatch.js';
import { CONTROL_PREFIX, DASHBOARD_PREFIX, preflight } from './wire.js';

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
  // The dashboard's login: a secret of its own, so that its URL opens no control endpoint and carries no merchant's key.
  const dashboardSecret = randomToken();
  const baseUrl = (options.baseUrl ?? 'https://sandbox.delivery-sdk.test/v2').replace(/\/+$/, '');
  const store = new SandboxStore(options.seed ?? 1);
  const faults = new FaultInjector();
  // With webhookFetch the sandbox itself calls no network: only its link-local refusal stays.
  const webhookHosts = options.webhookFetch === undefined ? webhookHostSet(options.webhookHosts) : undefined;
  const webhooks = new WebhookDispatcher(options.webhookRetry ?? {}, now, options.webhookFetch, webhookHosts);
  const servers = new Set<Pick<SandboxServer, 'close'>>();
  const defaultMerchant = store.addAccount('default', apiKey);
  const merchants: SandboxMerchant[] = [];
  const activity = new ActivityLog({
    now,
    merchantOfKey: (key) => store.accountByKey(key)?.id,
    secrets: () => [controlToken, dashboardSecret, ...store.allAccounts().map((account) => account.apiKey)],
  });
  webhooks.onChange = () => activity.notify('webhooks');
  faults.onChange = () => activity.notify('faults');

  const announce = async (order: OrderRecord, event: StateEvent): Promise<void> => {
    activity.notify('orders');
    const account = store.accountOf(order)?.accountWebhook;
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
    return activity.record(request, (onFault) => faults.apply(request, () => route({ store, now, announce }, request), onFault));
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
      // Node only, as the server itself: loaded here, so the entry still loads in a browser.
      const { openDashboard } = await import('./dashboard/serve.js');
      const dashboard = openDashboard({ sandbox, store, faults, activity, loginSecret: dashboardSecret });
      const server = await startServer((request, peer) => {
        const { pathname } = new URL(request.url);
        if (pathname.startsWith(`${CONTROL_PREFIX}/`)) return answerControl(sandbox, request, peer);
        if (pathname === DASHBOARD_PREFIX || pathname.startsWith(`${DASHBOARD_PREFIX}/`)) return dashboard.answer(request, peer);
        return handle(request);
      }, listenOptions);
      servers.add(server);
      return {
        baseUrl: server.baseUrl,
        dashboardUrl: dashboard.url(server.baseUrl),
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
    createMerchant: (merchantOptions = {}) => {
      const merchant = createMerchant(store, merchants.length + 1, merchantOptions, webhookHosts);
      merchants.push(merchant);
      return merchant;
    },
    merchants: () => [...merchants],
    orders: () => [...store.orders.values()].map(snapshot),
    order: (trackingNumber) => snapshot(engine.order(trackingNumber)),
    nextStates: (trackingNumber) => engine.nextStates(trackingNumber),
    advance: (trackingNumber, advanceOptions) => engine.advance(trackingNumber, advanceOptions),
    play: (trackingNumber, scenario) => engine.play(trackingNumber, scenario),
    setWebhook: (config) => {
      if (config !== null) checkWebhookConfig(config, webhookHosts);
      defaultMerchant.accountWebhook = config === null ? undefined : { ...config };
    },
    webhookLog: () => webhooks.log(),
    resendWebhook: (id) => webhooks.resend(id),
    requestLog: () => activity.list(),
    drainWebhooks: () => webhooks.drain(),
    injectFaults: (faultOptions) => faults.configure(faultOptions),
    injectFault: (rule) => faults.target(rule),
    injectedFaults: () => faults.targeted(),
    clearFaults: () => faults.clear(),
    setSubscriptionActive: (active) => {
      defaultMerchant.subscriptionActive = active === true;
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
