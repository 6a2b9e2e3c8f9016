import { isFilled, isHeaderName, shown } from '../internal/guards.js';
import { asciiDigits } from '../schemas/predicates.js';
import { checkOrderAddress } from './addresses.js';
import type { BusinessRecord, FlowKind, FulfillmentItem, OrderRecord } from './store.js';
import { codedRefusal, invalid, isRecord, wrongType } from './wire.js';

/**
 * Host of the sandbox's "dashboard uploads". An image URL on this host counts as uploaded from the
 * dashboard, any other http(s) URL as an external link; mixing both in one image type answers 2152.
 */
export const SANDBOX_UPLOAD_HOST = 'uploads.sandbox.delivery-sdk.test';

const COD_LIMIT = 30_000;
const KIND_OF_TYPE: ReadonlyMap<unknown, FlowKind> = new Map<unknown, FlowKind>([
  [10, 'SEND'],
  [15, 'CASH_COLLECTION'],
  [25, 'CUSTOMER_RETURN_PICKUP'],
  [30, 'EXCHANGE'],
  ['FXF_SEND', 'FXF_SEND'],
  ['CUSTOMER_RETURN_PICKUP', 'FXF_CUSTOMER_RETURN_PICKUP'],
]);
const TYPE_NAMES: Readonly<Record<string, string>> = { 10: 'Deliver', 15: 'Cash Collection', 25: 'CRP', 30: 'Exchange' };

/** An order that passed every server-side rule. */
export interface AcceptedOrder {
  readonly type: number | string;
  readonly kind: FlowKind;
  readonly cod: number | undefined;
  readonly businessReference: string | undefined;
  readonly webhookUrl: string | undefined;
  readonly webhookCustomHeaders: Readonly<Record<string, string>> | undefined;
  readonly fulfillmentItems: readonly FulfillmentItem[] | undefined;
  readonly request: Readonly<Record<string, unknown>>;
}

interface OrderContext {
  readonly business: BusinessRecord;
  readonly findOrder: (trackingNumber: string) => OrderRecord | undefined;
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw wrongType(key, 'string');
  return value;
}

/** null is "not given": PHP and Python clients send every empty field as null. */
const isGiven = (value: unknown): boolean => value !== undefined && value !== null;

const PHONE_CHARACTERS = /^\+?[0-9 ().-]+$/;

/** 8 to 15 digits (Arabic-Indic and Persian ones too), an optional leading +, and spaces, dashes, dots or brackets between them. */
function isPhoneNumber(typed: string): boolean {
  const value = asciiDigits(typed);
  const digits = value.replace(/[^0-9]/g, '').length;
  return PHONE_CHARACTERS.test(value.trim()) && digits >= 8 && digits <= 15;
}

function checkContact(body: Record<string, unknown>, key: string): void {
  const value = body[key];
  if (!isGiven(value)) return;
  if (!isRecord(value)) throw wrongType(key, 'object');
  for (const field of ['firstName', 'lastName', 'phone', 'email']) {
    if (isGiven(value[field]) && typeof value[field] !== 'string') throw wrongType(`${key}.${field}`, 'string');
  }
  const phone = value['phone'];
  if (typeof phone === 'string' && !isPhoneNumber(phone)) throw invalid(`${key}.phone must be a phone number of 8 to 15 digits`);
}

/** 3005 to 3008: a CRP takes only a refund (negative cod); every other cod is at most 30000; Cash Collection needs one. */
function checkCod(body: Record<string, unknown>, kind: FlowKind): number | undefined {
  const raw = body['cod'];
  if (raw !== undefined && raw !== null && (typeof raw !== 'number' || !Number.isFinite(raw))) throw wrongType('cod', 'number');
  const cod = typeof raw === 'number' ? raw : undefined;
  if (kind === 'CUSTOMER_RETURN_PICKUP' || kind === 'FXF_CUSTOMER_RETURN_PICKUP') {
    if (cod !== undefined && cod > 0) throw codedRefusal(3005, `cod ${cod} is positive; send a negative amount (a refund) or none`);
    if (cod !== undefined && -cod > COD_LIMIT) throw codedRefusal(3008, `refund ${-cod} is above ${COD_LIMIT}`);
    return cod;
  }
  if (kind === 'CASH_COLLECTION' && (cod === undefined || cod <= 0)) throw codedRefusal(3006, 'a Cash Collection order needs a positive cod');
  if (cod !== undefined && cod < 0) throw invalid('cod must not be negative: refunds (negative cod) are for CRP orders only');
  if (cod !== undefined && cod > COD_LIMIT) throw codedRefusal(3007, `cod ${cod} is above ${COD_LIMIT}`);
  const escrow = body['escrowInfo'];
  if (isGiven(escrow)) {
    if (!isRecord(escrow)) throw wrongType('escrowInfo', 'object');
    const prepaid = escrow['amountToBeCollected'];
    if (isGiven(prepaid) && (typeof prepaid !== 'number' || prepaid < 0 || prepaid > (cod ?? 0))) {
      throw invalid('escrowInfo.amountToBeCollected must be a number between 0 and cod (it is a portion of cod)');
    }
  }
  return cod;
}

/** 2150 to 2152, in that order. */
function checkImages(body: Record<string, unknown>): void {
  const allow = body['allowToOpenPackage'];
  if (isGiven(allow) && typeof allow !== 'boolean') throw wrongType('allowToOpenPackage', 'boolean');
  const images = body['deliveryImages'] ?? undefined;
  if (images !== undefined && !Array.isArray(images)) throw wrongType('deliveryImages', 'array');
  const entries: unknown[] = images ?? [];
  const totalUrls = entries.reduce<number>((sum, entry) => sum + (isRecord(entry) && Array.isArray(entry['images']) ? entry['images'].length : 0), 0);
  if (allow === true && totalUrls === 0) throw codedRefusal(2150, 'allowToOpenPackage is true but deliveryImages is missing or empty');
  const sourcesByType = new Map<string, Set<'dashboard' | 'external'>>();
  entries.forEach((entry, i) => {
    if (!isRecord(entry) || !Array.isArray(entry['images'])) throw invalid(`deliveryImages[${i}] must be { type, images: string[] }`);
    if (entry['type'] !== 'ALLOW_TO_OPEN_THE_PACKAGE') throw invalid(`deliveryImages[${i}].type must be ALLOW_TO_OPEN_THE_PACKAGE`);
    const urls: unknown[] = entry['images'];
    if (urls.length > 10) throw invalid(`deliveryImages[${i}].images has ${urls.length} URLs; at most 10`);
    const sources = sourcesByType.get(entry['type']) ?? new Set();
    sourcesByType.set(entry['type'], sources);
    urls.forEach((url, j) => {
      if (!isHttpUrl(url)) throw codedRefusal(2151, `deliveryImages[${i}].images[${j}] is not an http(s) URL`);
      sources.add(new URL(url).hostname === SANDBOX_UPLOAD_HOST ? 'dashboard' : 'external');
    });
  });
  for (const [type, sources] of sourcesByType) {
    if (sources.size > 1) throw codedRefusal(2152, `images of type ${type} mix dashboard uploads and external links`);
  }
}

function checkItems(value: unknown, at: string): FulfillmentItem[] {
  if (!isRecord(value)) throw invalid(`${at} is required for fulfillment orders`);
  const items = value['items'];
  if (!Array.isArray(items) || items.length === 0) throw invalid(`${at}.items must be a non-empty array`);
  return items.map((item: unknown, i) => {
    if (!isRecord(item) || !isFilled(item['sku'])) throw invalid(`${at}.items[${i}].sku is required`);
    const quantity = item['quantity'];
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1)
      throw invalid(`${at}.items[${i}].quantity must be an integer of at least 1`);
    return typeof item['name'] === 'string' ? { sku: item['sku'], quantity, name: item['name'] } : { sku: item['sku'], quantity };
  });
}

function totals(items: readonly FulfillmentItem[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of items) out.set(item.sku, (out.get(item.sku) ?? 0) + item.quantity);
  return out;
}

/** Spec rule 1: a fulfillment CRP returns a subset (or all) of the original FXF_SEND order's items. */
function checkFulfillmentReturn(body: Record<string, unknown>, items: readonly FulfillmentItem[], context: OrderContext): void {
  const original = body['originalFulfillmentTrackingNumber'];
  if (!isFilled(original)) throw invalid('originalFulfillmentTrackingNumber is required for CUSTOMER_RETURN_PICKUP fulfillment orders');
  const order = context.findOrder(original);
  if (order === undefined) throw invalid(`originalFulfillmentTrackingNumber '${original}' is not an order of this account`);
  if (order.type !== 'FXF_SEND') throw invalid(`originalFulfillmentTrackingNumber '${original}' is not a fulfillment (FXF_SEND) order`);
  const sent = totals(order.fulfillmentItems ?? []);
  for (const [sku, quantity] of totals(items)) {
    const available = sent.get(sku) ?? 0;
    if (quantity > available) throw invalid(`fulfillmentInfo.items: ${quantity} x ${sku} returned, but the original order ${original} had ${available}`);
  }
}

function checkExtras(body: Record<string, unknown>, context: OrderContext): void {
  checkContact(body, 'receiver');
  checkContact(body, 'pickupLocationContact');
  optionalString(body, 'notes');
  const locationId = optionalString(body, 'businessLocationId');
  if (locationId !== undefined && !context.business.pickupLocations.some((location) => location._id === locationId)) {
    throw invalid(`businessLocationId '${locationId}' is not a pickup location of the business`);
  }
  const goods = body['goodsInfo'];
  if (isGiven(goods)) {
    if (!isRecord(goods)) throw wrongType('goodsInfo', 'object');
    const amount = goods['amount'];
    if (isGiven(amount) && (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0))
      throw invalid(`goodsInfo.amount: expected a number >= 0, received ${shown(amount)}`);
  }
  const specs = body['specs'];
  if (isGiven(specs)) {
    if (!isRecord(specs)) throw wrongType('specs', 'object');
    // Parcel, Document, Light Bulky, Heavy Bulky with the size apart (SMALL, MEDIUM, LARGE), in any spelling.
    for (const field of ['packageType', 'size']) {
      if (isGiven(specs[field]) && typeof specs[field] !== 'string') throw wrongType(`specs.${field}`, 'string');
    }
  }
}

function checkWebhook(body: Record<string, unknown>): Pick<AcceptedOrder, 'webhookUrl' | 'webhookCustomHeaders'> {
  const url = optionalString(body, 'webhookUrl');
  if (url !== undefined && !isHttpUrl(url)) throw invalid('webhookUrl must be an http(s) URL');
  const headers = body['webhookCustomHeaders'];
  if (headers === undefined || headers === null) return { webhookUrl: url, webhookCustomHeaders: undefined };
  if (!isRecord(headers)) throw invalid('webhookCustomHeaders must be an object of header names to values');
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!isHeaderName(name) || typeof value !== 'string' || /[\r\n]/.test(value)) throw invalid(`webhookCustomHeaders.${name} is not a valid header`);
    out[name] = value;
  }
  return { webhookUrl: url, webhookCustomHeaders: out };
}

/** Every server-side rule of one order, independent of any client check. Throws a `RuleViolation`. */
export function checkOrder(body: unknown, context: OrderContext): AcceptedOrder {
  if (!isRecord(body)) throw invalid('An order must be a JSON object');
  const type = body['type'];
  const kind = KIND_OF_TYPE.get(type);
  if (kind === undefined) throw invalid('type must be one of 10, 15, 25, 30, FXF_SEND, CUSTOMER_RETURN_PICKUP');
  const typeName = TYPE_NAMES[String(type)] ?? String(type);
  if ((type === 10 || type === 30) && !isGiven(body['dropOffAddress'])) throw invalid(`dropOffAddress is required for ${typeName} orders`);
  if ((type === 15 || type === 25) && !isGiven(body['pickupAddress'])) throw invalid(`pickupAddress is required for ${typeName} orders`);
  if (isGiven(body['dropOffAddress'])) checkOrderAddress(body['dropOffAddress'], 'dropOffAddress');
  if (isGiven(body['pickupAddress'])) checkOrderAddress(body['pickupAddress'], 'pickupAddress', context.business.autoCreatePickups);
  const cod = checkCod(body, kind);
  checkImages(body);
  let fulfillmentItems: FulfillmentItem[] | undefined;
  if (kind === 'FXF_SEND' || kind === 'FXF_CUSTOMER_RETURN_PICKUP') {
    fulfillmentItems = checkItems(body['fulfillmentInfo'], 'fulfillmentInfo');
    if (kind === 'FXF_CUSTOMER_RETURN_PICKUP') checkFulfillmentReturn(body, fulfillmentItems, context);
  }
  checkExtras(body, context);
  return {
    type: type as number | string,
    kind,
    cod,
    businessReference: optionalString(body, 'businessReference'),
    ...checkWebhook(body),
    fulfillmentItems,
    request: body,
  };
}
