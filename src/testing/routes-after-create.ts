/**
 * What comes after creation (live-service.md): read, search, change and cancel orders, print
 * their labels. Answered in the shapes the service's own integrations read.
 */
import { EDITABLE_STATES } from '../catalogue/limits.js';
import { isFinalState, isKnownState, STATES } from '../catalogue/states.js';
import { isFilled } from '../internal/guards.js';
import { checkOrderAddress, findCityByName, findDistrictById } from './addresses.js';
import { labelsPdf } from './pdf.js';
import type { Account, OrderRecord, StateEvent } from './store.js';
import { codedRefusal, invalid, isRecord, notFound, ok, RuleViolation, wrongType } from './wire.js';

/** Called with every state change the API itself makes (terminate), so its webhook goes out. */
export type Announce = (order: OrderRecord, event: StateEvent) => Promise<void>;

/** States in which terminate is accepted: before the parcel is on its way (the official plugin offers it in "Pickup requested" and "Created"). */
const TERMINABLE = [10, 11];
const TERMINATED = 48;
const PAGE_DEFAULT = 50;
const PAGE_MAX = 100;
const MAX_LABELS = 50;

const TYPE_VALUES: Readonly<Record<string, string>> = {
  10: 'Send',
  15: 'Cash Collection',
  25: 'Customer Return Pickup',
  30: 'Exchange',
  FXF_SEND: 'Fulfillment Send',
};
const stateValue = (code: number): string => (code === 46 ? 'Delivered' : isKnownState(code) ? STATES[code].name : String(code));

/** An address as the service reads it back: places as `{ name }`. */
function addressView(value: unknown): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  const out: Record<string, unknown> = { ...value };
  const district = typeof value['districtId'] === 'string' ? findDistrictById(value['districtId']) : undefined;
  const cityName = typeof value['city'] === 'string' ? (findCityByName(value['city'])?.name ?? value['city']) : undefined;
  if (cityName !== undefined) out['city'] = { name: cityName };
  if (district !== undefined) {
    out['zone'] = { _id: district.zoneId, name: district.zoneName };
    out['district'] = { _id: district.districtId, name: district.districtName };
  }
  return out;
}

function receiverView(value: unknown): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  const names = [value['firstName'], value['lastName']].filter(isFilled);
  return { ...value, fullName: names.join(' ') };
}

/** An order as `GET /deliveries/business/{trackingNumber}` answers it. */
function orderView(order: OrderRecord): Record<string, unknown> {
  const last = order.history.at(-1)?.timeStamp ?? order.createdAt;
  const view: Record<string, unknown> = {
    _id: order._id,
    trackingNumber: order.trackingNumber,
    // "Delivered" for 46 too, as the service writes it: read state.code.
    state: { code: order.state, value: stateValue(order.state) },
    maskedState: isKnownState(order.state) ? STATES[order.state].dashboardState : 'Unknown',
    type: { code: order.type, value: TYPE_VALUES[String(order.type)] ?? String(order.type) },
    businessReference: order.businessReference,
    cod: order.cod ?? 0,
    notes: order.request['notes'],
    receiver: receiverView(order.request['receiver']),
    dropOffAddress: addressView(order.request['dropOffAddress']),
    pickupAddress: addressView(order.request['pickupAddress']),
    specs: order.request['specs'],
    goodsInfo: order.request['goodsInfo'],
    timeline: order.history.map((event) => ({ value: stateValue(event.state), code: event.state, date: new Date(event.timeStamp).toISOString(), done: true })),
    deliveryAttemptsLength: order.attempts,
    outboundActionsCount: 0,
    pricing: {},
    createdAt: new Date(order.createdAt).toISOString(),
    // As the service writes it: Date#toString(), not ISO.
    updatedAt: new Date(last).toString(),
  };
  for (const key of Object.keys(view)) if (view[key] === undefined) delete view[key];
  return view;
}

/** The order by tracking number or `_id`, as the integrations pass either. */
function findOrder(account: Account, id: string): OrderRecord {
  const order = account.orders.get(id) ?? account.orderById(id);
  if (order === undefined) throw notFound(`Delivery ${id} not found`);
  return order;
}

/** GET /deliveries/business/{trackingNumber}. */
export function getDelivery(account: Account, id: string): Response {
  return ok(orderView(findOrder(account, id)));
}

/**
 * GET /deliveries/{trackingNumber}/tracking, in the shape the merchant API's integrations read
 * (JAVA `DeliveryTrackingData`, RUBY): `CurrentStatus` and `stateHistory`, from the order's real history.
 */
export function trackDelivery(account: Account, id: string): Response {
  const order = findOrder(account, id);
  const event = (state: number, time: number) => ({ state: stateValue(state), code: state, timestamp: new Date(time).toISOString() });
  const last = order.history.at(-1);
  return ok({
    _id: order._id,
    trackingNumber: order.trackingNumber,
    CurrentStatus: event(order.state, last?.timeStamp ?? order.createdAt),
    stateHistory: order.history.map((entry) => event(entry.state, entry.timeStamp)),
    createDate: new Date(order.createdAt).toISOString(),
    updateDate: new Date(last?.timeStamp ?? order.createdAt).toISOString(),
    dropOffAddress: addressView(order.request['dropOffAddress']),
  });
}

/** A comma-separated text (or an array, as one integration sends) as a set of its items. */
function listFilter(value: unknown, field: string): Set<string> | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string')
    return new Set(
      value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    );
  if (Array.isArray(value)) return new Set(value.map(String));
  throw wrongType(field, 'string');
}

function pageNumber(value: unknown, fallback: number, field: string): number {
  if (value === undefined || value === null || value === '') return fallback;
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1) throw invalid(`${field} must be a whole number, 1 or more`);
  return number;
}

const newestFirst = (a: OrderRecord, b: OrderRecord): number => Number(b.trackingNumber) - Number(a.trackingNumber);

/** POST /deliveries/search: filters in the body, paging in the body (or the query), newest first. */
export function searchDeliveries(account: Account, url: URL, body: unknown): Response {
  if (!isRecord(body)) throw invalid('The body must be a JSON object');
  const trackingNumbers = listFilter(body['trackingNumbers'], 'trackingNumbers');
  const references = listFilter(body['businessReference'], 'businessReference');
  const phones = listFilter(body['mobilePhones'], 'mobilePhones');
  const states = body['stateCodes'];
  if (states !== undefined && !(Array.isArray(states) && states.every((code) => typeof code === 'number'))) throw wrongType('stateCodes', 'array');
  const page = pageNumber(body['page'] ?? url.searchParams.get('page'), 1, 'page');
  const limit = Math.min(PAGE_MAX, pageNumber(body['limit'] ?? url.searchParams.get('limit'), PAGE_DEFAULT, 'limit'));
  // The orders a list filter names, found through the account's indexes; every order without one.
  const named =
    trackingNumbers !== undefined
      ? [...trackingNumbers].flatMap((trackingNumber) => account.orders.get(trackingNumber) ?? [])
      : references !== undefined
        ? [...references].flatMap((reference) => account.ordersBy('businessReference', reference))
        : phones !== undefined
          ? [...phones].flatMap((phone) => account.ordersBy('phone', phone))
          : undefined;
  // Newest first: tracking numbers count up in the order the orders were made.
  const candidates = named === undefined ? [...account.orders.values()].reverse() : [...new Set(named)].sort(newestFirst);
  const matches = candidates.filter((order) => {
    const receiver = order.request['receiver'];
    const phone = isRecord(receiver) ? receiver['phone'] : undefined;
    return (
      (trackingNumbers === undefined || trackingNumbers.has(order.trackingNumber)) &&
      (references === undefined || (order.businessReference !== undefined && references.has(order.businessReference))) &&
      (phones === undefined || (typeof phone === 'string' && phones.has(phone))) &&
      (states === undefined || (states as number[]).includes(order.state))
    );
  });
  const deliveries = matches.slice((page - 1) * limit, page * limit).map(orderView);
  return ok({ deliveries, count: matches.length, page, limit });
}

/** The changes `PUT` applies, checked as a create checks them: cod limit (3007), the address rules (3001-3009). */
function checkedChanges(body: Record<string, unknown>): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const field of ['notes', 'receiver', 'dropOffAddress', 'cod', 'goodsInfo', 'specs', 'businessReference']) {
    if (body[field] !== undefined && body[field] !== null) changes[field] = body[field];
  }
  if (Object.keys(changes).length === 0) throw invalid('Nothing to update: send notes, receiver, dropOffAddress, cod, goodsInfo, specs or businessReference');
  const cod = changes['cod'];
  if (cod !== undefined && typeof cod !== 'number') throw wrongType('cod', 'number');
  if (typeof cod === 'number' && cod > 30_000) throw codedRefusal(3007);
  if (changes['dropOffAddress'] !== undefined) checkOrderAddress(changes['dropOffAddress'], 'dropOffAddress');
  if (changes['receiver'] !== undefined && !isRecord(changes['receiver'])) throw wrongType('receiver', 'object');
  return changes;
}

/** PUT /deliveries/business/{id}: allowed in states 10, 11, 20, 21, 22, 24, 30, 41, 47. */
export function updateDelivery(account: Account, id: string, body: unknown): Response {
  const order = findOrder(account, id);
  if (!isRecord(body)) throw invalid('The body must be a JSON object');
  if (!EDITABLE_STATES.includes(order.state))
    throw invalid(`Delivery ${order.trackingNumber} cannot be updated in state ${order.state} (${stateValue(order.state)})`);
  const changes = checkedChanges(body);
  const receiver = changes['receiver'];
  account.change(order, () => {
    order.request = { ...order.request, ...changes, ...(isRecord(receiver) ? { receiver: { ...(order.request['receiver'] as object), ...receiver } } : {}) };
    if (typeof changes['businessReference'] === 'string') order.businessReference = changes['businessReference'];
  });
  if (typeof changes['cod'] === 'number') order.cod = changes['cod'];
  return ok({ _id: order._id }, 200, 'Done successfully.');
}

/** DELETE /deliveries/business/{id}/terminate: before the order is on its way only; moves it to Terminated (48) and sends its webhook. */
export async function terminateDelivery(account: Account, id: string, now: number, announce: Announce | undefined): Promise<Response> {
  const order = findOrder(account, id);
  if (!TERMINABLE.includes(order.state)) {
    throw new RuleViolation(
      400,
      `Delivery ${order.trackingNumber} cannot be terminated: it is in state ${order.state} (${stateValue(order.state)}), already on its way`,
    );
  }
  const last = order.history.at(-1)?.timeStamp ?? Number.NEGATIVE_INFINITY;
  const event: StateEvent = { state: TERMINATED, type: order.webhookType, timeStamp: Math.max(now, last + 1), numberOfAttempts: order.attempts };
  order.state = TERMINATED;
  order.resumeState = undefined;
  order.history.push(event);
  await announce?.(order, event);
  return ok({ _id: order._id }, 200, 'Delivery terminated successfully.');
}

/**
 * POST /deliveries/mass-awb `{ trackingNumbers: "a,b", requestedAwbType, lang }`: one PDF page per
 * printable order, base64 in `data`. Orders it will not print (unknown, Cash Collection, Customer
 * Return Pickup, finished) are left out
 * without a word, as the service does; more than 50 are "e-mailed" (no PDF in the answer).
 */
export function airwayBills(account: Account, body: unknown): Response {
  if (!isRecord(body)) throw invalid('The body must be a JSON object');
  const wanted = listFilter(body['trackingNumbers'], 'trackingNumbers');
  if (wanted === undefined || wanted.size === 0) throw invalid('trackingNumbers is required');
  const size = body['requestedAwbType'] ?? 'A4';
  if (size !== 'A4' && size !== 'A6') throw invalid('requestedAwbType must be A4 or A6');
  if (wanted.size > MAX_LABELS) return ok(null, 200, `More than ${MAX_LABELS} airway bills: they will be sent to your e-mail`);
  const printable = [...wanted].filter((tn) => {
    const order = account.orders.get(tn);
    return order !== undefined && order.type !== 15 && order.type !== 25 && !isFinalState(order.state);
  });
  if (printable.length === 0) throw invalid('None of the tracking numbers can be printed');
  return ok(btoa(labelsPdf(printable, size)));
}
