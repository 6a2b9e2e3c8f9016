import { isKnownState, STATES } from '../catalogue/states.js';
import { errorCodeMeaning } from '../errors/codes.js';
import { isFilled } from '../internal/guards.js';
import { startOf } from './flows.js';
import { type AcceptedOrder, checkOrder } from './order-rules.js';
import type { Account, BusinessRecord, FulfillmentItem, OrderRecord } from './store.js';
import { formatPromiseDate } from './webhook-dispatch.js';
import { codedRefusal, errorResponse, invalid, isRecord, ok, RuleViolation } from './wire.js';

const DAY_MS = 86_400_000;
/** Promise: three days after creation (the spec shows only the date format). */
const PROMISE_DAYS = 3;

/** Spec rule 4: orders need a business with a pickup location (1073); they belong to the key's account's latest business. */
function businessWithLocation(account: Account): BusinessRecord {
  const business = account.currentBusiness();
  if (business === undefined) throw codedRefusal(1073, 'create a business and its pickup location first');
  if (business.pickupLocations.length === 0) throw codedRefusal(1073, `business ${business._id} has no pickup location`);
  // As a merchant integration guide quotes it: the code and text of an account whose plan lapsed.
  if (!account.subscriptionActive) throw new RuleViolation(403, 'Active bundle subscription required', 8_000_002);
  return business;
}

function requireApiVersion(url: URL): void {
  if (url.searchParams.get('apiVersion') !== '1') throw invalid('The query parameter apiVersion=1 is required');
}

/** The service refuses a second order of the merchant with the same `uniqueBusinessReference` (one source says so; see docs/assumptions.md). */
function refuseRepeatedUniqueReference(account: Account, request: Readonly<Record<string, unknown>>): void {
  const reference = request['uniqueBusinessReference'];
  if (!isFilled(reference) || typeof reference !== 'string') return;
  const holder = account.orderByUniqueReference(reference);
  if (holder !== undefined) throw invalid(`uniqueBusinessReference '${reference}' is already used by order ${holder.trackingNumber}`);
}

function insert(account: Account, accepted: AcceptedOrder, business: BusinessRecord, now: number): OrderRecord {
  refuseRepeatedUniqueReference(account, accepted.request);
  const start = startOf(accepted.kind);
  const order: OrderRecord = {
    _id: account.nextId(),
    trackingNumber: account.nextTrackingNumber(),
    type: accepted.type,
    kind: accepted.kind,
    businessId: business._id,
    merchantId: account.id,
    createdAt: now,
    deliveryPromiseDate: formatPromiseDate(now + PROMISE_DAYS * DAY_MS),
    request: accepted.request,
    cod: accepted.cod,
    businessReference: accepted.businessReference,
    webhookUrl: accepted.webhookUrl,
    webhookCustomHeaders: accepted.webhookCustomHeaders,
    fulfillmentItems: accepted.fulfillmentItems,
    webhookType: start.type,
    state: start.state,
    leg: start.leg,
    attempts: 0,
    failures: 0,
    resumeState: undefined,
    history: [{ state: start.state, type: start.type, timeStamp: now, numberOfAttempts: 0 }],
  };
  account.addOrder(order);
  return order;
}

function createdView(order: OrderRecord) {
  return {
    _id: order._id,
    trackingNumber: order.trackingNumber,
    type: order.type,
    state: { code: order.state, value: isKnownState(order.state) ? STATES[order.state].name : String(order.state) },
    ...(order.cod === undefined ? {} : { cod: order.cod }),
    ...(order.businessReference === undefined ? {} : { businessReference: order.businessReference }),
    createdAt: new Date(order.createdAt).toISOString(),
  };
}

const contextOf = (account: Account, business: BusinessRecord) => ({ business, findOrder: (tn: string) => account.orders.get(tn) });

/** POST /deliveries?apiVersion=1. */
export function createDelivery(account: Account, url: URL, body: unknown, now: number): Response {
  requireApiVersion(url);
  const business = businessWithLocation(account);
  const order = insert(account, checkOrder(body, contextOf(account, business)), business, now);
  return ok(createdView(order), 201, 'Delivery created');
}

/**
 * POST /deliveries/bulk?apiVersion=1 `{ deliveries, deleteFailedDeliveries }`, answered as the
 * service does: `{ createdDeliveriesIds, failedDeliveries: [{ businessReference, errorMessage }] }`
 * (ids in no stated order; failures named only by reference, without errorCode). Valid orders
 * are created even when others fail; then the answer is the spec's 1061 with that `data`.
 * `deleteFailedDeliveries` is accepted and has no effect: the spec does not say what it does.
 */
export function createBulk(account: Account, url: URL, body: unknown, now: number): Response {
  requireApiVersion(url);
  if (!isRecord(body) || !Array.isArray(body['deliveries']) || body['deliveries'].length === 0)
    throw invalid('The body must be { deliveries: [ ...orders ] } with at least one order');
  const business = businessWithLocation(account);
  const createdDeliveriesIds: string[] = [];
  const failedDeliveries: Array<{ businessReference?: string; errorMessage: string }> = [];
  for (const element of body['deliveries'] as unknown[]) {
    try {
      createdDeliveriesIds.push(insert(account, checkOrder(element, contextOf(account, business)), business, now)._id);
    } catch (err) {
      if (!(err instanceof RuleViolation)) throw err;
      const reference = isRecord(element) && isFilled(element['businessReference']) ? element['businessReference'] : undefined;
      failedDeliveries.push({ ...(reference === undefined ? {} : { businessReference: reference }), errorMessage: err.message });
    }
  }
  const data = { createdDeliveriesIds, failedDeliveries };
  if (failedDeliveries.length === 0) return ok(data, 201, 'Deliveries created');
  return errorResponse(
    400,
    `${errorCodeMeaning[1061]} (${failedDeliveries.length} of ${createdDeliveriesIds.length + failedDeliveries.length} failed)`,
    1061,
    data,
  );
}

function mergeItems(elements: ReadonlyArray<Record<string, unknown>>): FulfillmentItem[] {
  const bySku = new Map<string, FulfillmentItem>();
  for (const element of elements) {
    const info = element['fulfillmentInfo'] as { items: FulfillmentItem[] };
    for (const item of info.items) {
      const known = bySku.get(item.sku);
      bySku.set(item.sku, known === undefined ? { ...item } : { ...known, quantity: known.quantity + item.quantity });
    }
  }
  return [...bySku.values()];
}

/**
 * POST /fulfillment/deliveries/bulky `Order[]`: one FXF_SEND order per receiver phone, items combined.
 * All or nothing: one invalid element rejects the call, its index leading the message.
 */
export function createBulky(account: Account, body: unknown, now: number): Response {
  if (!Array.isArray(body) || body.length === 0) throw invalid('The body must be a non-empty array of fulfillment orders');
  const business = businessWithLocation(account);
  const groups = new Map<string, { indexes: number[]; elements: Array<Record<string, unknown>> }>();
  (body as unknown[]).forEach((raw, index) => {
    try {
      if (!isRecord(raw)) throw invalid('An order must be a JSON object');
      if (raw['type'] !== undefined && raw['type'] !== 'FXF_SEND') throw invalid('type must be FXF_SEND in a bulky upload');
      const element: Record<string, unknown> = { ...raw, type: 'FXF_SEND' };
      const receiver = element['receiver'];
      const phone = isRecord(receiver) ? receiver['phone'] : undefined;
      if (!isFilled(phone)) throw invalid('receiver.phone is required: orders are merged by it');
      checkOrder(element, contextOf(account, business));
      const group = groups.get(phone.trim()) ?? { indexes: [], elements: [] };
      group.indexes.push(index);
      group.elements.push(element);
      groups.set(phone.trim(), group);
    } catch (err) {
      if (err instanceof RuleViolation) throw new RuleViolation(err.status, `[${index}] ${err.message}`, err.errorCode);
      throw err;
    }
  });
  const out = [...groups].map(([phone, group]) => {
    const [first = {}] = group.elements;
    const merged = { ...first, fulfillmentInfo: { ...(first['fulfillmentInfo'] as object), items: mergeItems(group.elements) } };
    const order = insert(account, checkOrder(merged, contextOf(account, business)), business, now);
    return { _id: order._id, trackingNumber: order.trackingNumber, receiverPhone: phone, mergedFrom: group.indexes };
  });
  return ok(out, 201, 'Fulfillment orders created');
}
