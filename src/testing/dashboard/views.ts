// What each view of the dashboard shows, as JSON, and what its buttons do: read from the sandbox
// as its own methods read it, acted on as they act (`advance`, `injectFault`, `resendWebhook`).
// No merchant's key and no webhook header value ever leaves here: merchants are named by id.
import { ExceptionReason } from '../../catalogue/exceptions.js';
import { describeState, STATES } from '../../catalogue/states.js';
import { asRecord } from '../../internal/guards.js';
import { type ActivityLog, MAX_LOGGED_REQUESTS, maskSecrets, type SandboxRequest } from '../activity.js';
import { SandboxError } from '../errors.js';
import { FAULT_KINDS, type FaultInjector, type FaultRule, faultRuleOf, type InjectedFault } from '../faults.js';
import type { Sandbox } from '../sandbox-api.js';
import type { OrderRecord, SandboxStore } from '../store.js';
import { MAX_LOGGED_DELIVERIES, type WebhookDelivery } from '../webhook-dispatch.js';

/** What the dashboard reads: the sandbox's methods, its store (merchants, orders), its faults, its activity log, and its login secret. */
export interface DashboardSource {
  readonly sandbox: Sandbox;
  readonly store: SandboxStore;
  /** For the share of requests `injectFaults` bends, which the sandbox's methods do not list. */
  readonly faults: FaultInjector;
  readonly activity: ActivityLog;
  readonly loginSecret: string;
}

/** A view's query: the merchant it is narrowed to (`''`: every merchant), and its own parameters. */
type Query = URLSearchParams;

const ORDER_TYPES: Readonly<Record<string, string>> = {
  '10': 'Deliver',
  '15': 'Cash collection',
  '25': 'Customer return pickup',
  '30': 'Exchange',
  FXF_SEND: 'Fulfillment send',
  CUSTOMER_RETURN_PICKUP: 'Fulfillment return pickup',
};

/** The spec's state name, and after it the type's own meaning where it differs ("Picked up: Out for delivery"). */
function stateLabel(code: number, type: string): string {
  const { name, meaning } = describeState(code, type);
  return meaning === name ? name : `${name}: ${meaning}`;
}

function typeLabel(type: number | string): string {
  const name = ORDER_TYPES[String(type)];
  return name === undefined ? String(type) : `${name} (${type})`;
}

function merchants(store: SandboxStore): Array<{ id: string; name: string }> {
  return store.allAccounts().map((account) => ({
    id: account.id,
    name: account.currentBusiness()?.name ?? (account.id === 'default' ? 'Default merchant' : account.id),
  }));
}

const merchantFilter = (query: Query): string | undefined => query.get('merchant') || undefined;

function orderRow(order: OrderRecord) {
  return {
    trackingNumber: order.trackingNumber,
    merchantId: order.merchantId,
    type: typeLabel(order.type),
    state: order.state,
    stateLabel: stateLabel(order.state, order.webhookType),
    cod: order.cod ?? null,
    businessReference: order.businessReference ?? null,
    createdAt: order.createdAt,
  };
}

const digits = (text: string): string => text.replace(/\D/g, '');

/** Whether `order` matches a search by tracking number, business reference or receiver phone (any part of each). */
function matches(order: OrderRecord, search: string): boolean {
  const text = search.trim().toLowerCase();
  if (text === '') return true;
  if (order.trackingNumber.includes(text) || (order.businessReference ?? '').toLowerCase().includes(text)) return true;
  const phone = asRecord(order.request['receiver'])['phone'];
  const wanted = digits(text);
  // A phone is searched by its digits with or without the country code: +20 10..., 010...
  return wanted.length >= 3 && typeof phone === 'string' && (digits(phone).includes(wanted) || digits(phone).includes(wanted.replace(/^0/, '')));
}

/** The Orders view: every order, newest first (`limit` of them), searched and narrowed; and the chart's count per state. */
export function ordersView({ store }: DashboardSource, query: Query) {
  const merchant = merchantFilter(query);
  const mine = [...store.orders.values()].filter((order) => merchant === undefined || order.merchantId === merchant).reverse();
  const found = mine.filter((order) => matches(order, query.get('q') ?? ''));
  const limit = Math.min(Math.max(Number(query.get('limit')) || 100, 1), 5000);
  const counts = new Map<number, number>();
  for (const order of mine) counts.set(order.state, (counts.get(order.state) ?? 0) + 1);
  return {
    merchants: merchants(store),
    total: mine.length,
    found: found.length,
    orders: found.slice(0, limit).map(orderRow),
    byState: [...counts]
      .sort(([a], [b]) => a - b)
      .map(([state, count]) => ({ state, name: STATES[state as keyof typeof STATES]?.name ?? `State ${state}`, count })),
  };
}

function deliveryRow(delivery: WebhookDelivery, store: SandboxStore) {
  const order = store.orders.get(delivery.trackingNumber);
  return {
    id: delivery.id,
    resendOf: delivery.resendOf ?? null,
    trackingNumber: delivery.trackingNumber,
    merchantId: order?.merchantId ?? null,
    state: delivery.state,
    stateLabel: stateLabel(delivery.state, delivery.body.type),
    url: delivery.url,
    status: delivery.status,
    attempts: delivery.attempts.map((attempt) => ({ at: attempt.at, status: attempt.status ?? null, error: attempt.error ?? null })),
    // The body the receiver got; never the headers, which carry the account webhook's secret value.
    body: delivery.body,
  };
}

/** One order's page: as sent, its timeline, its webhooks, and the states its flow allows next. */
export function orderView({ sandbox, store }: DashboardSource, trackingNumber: string) {
  const order = store.orders.get(trackingNumber);
  if (order === undefined) throw new SandboxError(`No order with tracking number ${trackingNumber} in this sandbox`);
  const secrets = store.allAccounts().map((account) => account.apiKey);
  const sent = JSON.parse(maskSecrets(JSON.stringify(order.request), secrets)) as Record<string, unknown>;
  const next = sandbox.nextStates(trackingNumber);
  const direction = order.leg === 'forward' ? 'forward' : 'return';
  return {
    ...orderRow(order),
    merchants: merchants(store),
    receiver: sent['receiver'] ?? null,
    addresses: Object.fromEntries(
      ['dropOffAddress', 'pickupAddress', 'returnAddress'].filter((name) => sent[name] !== undefined).map((name) => [name, sent[name]]),
    ),
    sent,
    history: order.history.map((event) => ({
      state: event.state,
      stateLabel: stateLabel(event.state, event.type),
      type: event.type,
      timeStamp: event.timeStamp,
      numberOfAttempts: event.numberOfAttempts,
      exceptionCode: event.exceptionCode ?? null,
      exceptionReason: event.exceptionReason ?? null,
    })),
    webhooks: sandbox
      .webhookLog()
      .filter((delivery) => delivery.trackingNumber === trackingNumber)
      .reverse()
      .map((delivery) => deliveryRow(delivery, store)),
    next: next.map((state) => ({ state, name: STATES[state as keyof typeof STATES]?.name ?? `State ${state}`, label: stateLabel(state, order.webhookType) })),
    exceptionReasons: next.includes(47) ? Object.entries(ExceptionReason[direction]).map(([code, reason]) => ({ code: Number(code), reason })) : [],
  };
}

/** A request without its body (masked only when opened), and whether it has one. */
function requestRow(request: SandboxRequest) {
  const { id, at, merchantId, method, path, query, status, errorCode, message, fault, durationMs } = request;
  return { id, at, merchantId, method, path, query, status, errorCode, message, fault, durationMs, hasBody: Object.hasOwn(request, 'body') };
}

/** The Requests view: newest first, narrowed to a merchant and, with `refused=1`, to refused requests (status 400 and above, or dropped). */
export function requestsView({ activity, store }: DashboardSource, query: Query) {
  const merchant = merchantFilter(query);
  const refusedOnly = query.get('refused') === '1';
  const rows = activity
    .list()
    .filter((request) => merchant === undefined || request.merchantId === merchant)
    .filter((request) => !refusedOnly || isRefused(request))
    .reverse();
  return { merchants: merchants(store), capacity: MAX_LOGGED_REQUESTS, requests: rows.map(requestRow) };
}

/** A refused request: an answer of 400 or above, or none at all (a dropped connection). */
const isRefused = (request: SandboxRequest): boolean => request.status === undefined || request.status >= 400;

/** One request, its body (secrets masked) included. */
export function requestView({ activity }: DashboardSource, id: number) {
  const request = activity.list().find((candidate) => candidate.id === id);
  if (request === undefined) throw new SandboxError(`No request ${id} in the log (it keeps the last ${MAX_LOGGED_REQUESTS})`);
  return { ...request, body: request.body ?? null };
}

/** The Webhooks view: every delivery kept, newest first, with its attempts. */
export function webhooksView({ sandbox, store }: DashboardSource, query: Query) {
  const merchant = merchantFilter(query);
  const rows = sandbox
    .webhookLog()
    .map((delivery) => deliveryRow(delivery, store))
    .filter((row) => merchant === undefined || row.merchantId === merchant)
    .reverse();
  return { merchants: merchants(store), capacity: MAX_LOGGED_DELIVERIES, deliveries: rows };
}

/** Numbers for the targeted faults, kept with them: the dashboard removes one by its number. */
export class FaultIds {
  private readonly ids = new WeakMap<InjectedFault, number>();
  private counter = 0;

  of(fault: InjectedFault): number {
    let id = this.ids.get(fault);
    if (id === undefined) this.ids.set(fault, (id = ++this.counter));
    return id;
  }
}

/** The Faults view: the targeted faults in place and their counts, narrowed to a merchant, and the share `injectFaults` set. */
export function faultsView({ sandbox, store, faults }: DashboardSource, query: Query, ids: FaultIds) {
  const merchant = merchantFilter(query);
  const rows = sandbox.injectedFaults().map((fault) => ({
    id: ids.of(fault),
    kind: fault.kind,
    method: fault.method ?? null,
    path: typeof fault.path === 'string' ? fault.path : null,
    pathPattern: fault.path instanceof RegExp ? fault.path.source : null,
    merchantId: fault.apiKey === undefined ? null : (store.accountByKey(fault.apiKey)?.id ?? 'unknown'),
    nth: fault.nth,
    times: Number.isFinite(fault.times) ? fault.times : null,
    matched: fault.matched,
    hits: fault.hits,
  }));
  return {
    merchants: merchants(store),
    kinds: FAULT_KINDS,
    faults: rows.filter((row) => merchant === undefined || row.merchantId === null || row.merchantId === merchant),
    share: ((share) => (share === undefined ? null : { rate: share.rate, kinds: share.kinds, seed: share.seed, hits: share.hits }))(faults.share()),
  };
}

/**
 * The Faults form's rule as `injectFault` takes it from JSON (`faultRuleOf`): the merchant named by
 * id, never by key, whatever key the body carries.
 */
export function dashboardFaultRule(fields: Record<string, unknown>, store: SandboxStore): FaultRule {
  const { merchantId, apiKey: _, ...rule } = fields;
  if (merchantId === undefined) return faultRuleOf(rule);
  const account = typeof merchantId === 'string' ? store.allAccounts().find((candidate) => candidate.id === merchantId) : undefined;
  if (account === undefined) throw new SandboxError(`No merchant '${String(merchantId)}' in this sandbox`);
  return faultRuleOf({ ...rule, apiKey: account.apiKey });
}
