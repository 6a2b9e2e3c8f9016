/** Fulfillment orders (FXF_SEND), their customer returns (CUSTOMER_RETURN_PICKUP), and bulky uploads. */

import { FulfillmentType } from '../catalogue/order-types.js';
import type { APIPromise } from '../core/api-promise.js';
import { ValidationError, type ValidationIssue } from '../errors/index.js';
import { checkReturnItemsSubset } from '../schemas/fulfillment-return.js';
import type { FulfillmentReturnOrder, FulfillmentSendOrder } from '../schemas/order.js';
import { checkedOrder } from '../schemas/order-lazy.js';
import type { FulfillmentItem } from '../schemas/order-parts.js';
import { isRecord } from '../schemas/predicates.js';
import type { ValidateOptions } from '../schemas/skip-rules.js';
import { receiverPhoneOf } from './bulky-merge.js';
import type { DeliveryCore } from './core.js';
import { type CreatedDelivery, orderEndpoint } from './deliveries.js';
import type { RequestOptions } from './options.js';
import { send } from './send.js';
import { createdRecord, issuesAt, listOf, type ResponseContext } from './shared.js';

/** An order created by `createBulky`: one per customer phone. Fields the service adds are kept. */
export interface BulkyCreatedOrder {
  _id: string;
  trackingNumber: string;
  /** The customer phone the elements were merged by. */
  receiverPhone?: string;
  /** Indexes of the input elements merged into this order. */
  mergedFrom?: number[];
  [field: string]: unknown;
}

/** The original fulfillment order of a return: the order itself (as you created it), or its items. */
export type OriginalFulfillment = { fulfillmentInfo: { items: readonly FulfillmentItem[] } } | readonly FulfillmentItem[];

/** Options of `fulfillment.createReturn`. */
export interface CreateReturnOptions extends RequestOptions {
  /** The original order: when given, the returned items must be some or all of its items (spec rule 1), checked before sending. */
  original?: OriginalFulfillment | undefined;
}

function originalItems(original: OriginalFulfillment): readonly FulfillmentItem[] {
  const items: unknown = Array.isArray(original) ? original : (original as { fulfillmentInfo?: { items?: unknown } })?.fulfillmentInfo?.items;
  if (Array.isArray(items) && items.every(isRecord)) return items as unknown[] as FulfillmentItem[];
  throw new ValidationError([{ path: ['original'], message: 'must be the original order (with fulfillmentInfo.items) or its items, each an object' }], {
    subject: 'Invalid argument',
  });
}

/** Every element checked; one error listing the issues of all invalid ones. */
async function checkBulky(body: unknown, options: ValidateOptions): Promise<unknown> {
  // The schemas load on first use (a chunk of their own in a browser bundle): a checkout page never needs them.
  const { orderValidators } = await import('../schemas/on-demand.js');
  const orders = Array.isArray(body) ? body : [];
  const issues: ValidationIssue[] = orders.length === 0 ? [{ path: [], message: 'needs at least one order' }] : [];
  const prepared = orders.map((element: unknown, index) => {
    // The endpoint creates FXF_SEND orders only, merging them per phone: a Deliver or a return sent there would be merged in.
    const type = isRecord(element) ? element['type'] : FulfillmentType.Send;
    if (type !== FulfillmentType.Send) {
      const got = typeof type === 'string' ? `'${type.slice(0, 40)}'` : typeof type === 'number' ? String(type) : type === undefined ? 'none' : typeof type;
      issues.push({ path: [index, 'type'], message: `expected 'FXF_SEND' in a bulky upload, received ${got}` });
      return;
    }
    const checked = orderValidators.check(element, options);
    const found = checked.ok ? [] : issuesAt(index, checked.error);
    // The service merges elements by customer phone: one without a phone cannot be placed (previewBulkyMerge refuses it too).
    if (receiverPhoneOf(element) === undefined && !found.some(({ path }) => path[1] === 'receiver')) {
      found.push({ path: [index, 'receiver', 'phone'], message: 'required: bulky orders are merged by it' });
    }
    issues.push(...found);
    return found.length === 0 && checked.ok ? checked.value : undefined;
  });
  if (issues.length > 0) throw new ValidationError(issues, { subject: 'Invalid bulky upload (nothing was sent)' });
  return prepared;
}

const bulkyCreated = (data: unknown, answer: ResponseContext): BulkyCreatedOrder[] =>
  listOf(data, answer).map((entry) => createdRecord(entry, answer, ['_id', 'trackingNumber']) as BulkyCreatedOrder);

/**
 * Creates a fulfillment order (`FXF_SEND`), as `client.fulfillment.create` does.
 *
 * @example
 * ```ts
 * import { DeliveryCore, createFulfillmentOrder } from 'delivery-sdk/functions';
 *
 * const core = new DeliveryCore({ apiKey: process.env.DELIVERY_API_KEY, baseUrl: 'https://api.example.com/v2' });
 * const sent = await createFulfillmentOrder(core, {
 *   type: 'FXF_SEND',
 *   dropOffAddress: { districtId: 'aiJudRHeOt', firstLine: '12 Talaat Harb Street' },
 *   receiver: { firstName: 'Mona', phone: '+201012345678' },
 *   fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 2 }] },
 * });
 * ```
 */
export function createFulfillmentOrder(core: DeliveryCore, order: FulfillmentSendOrder, options?: RequestOptions): APIPromise<CreatedDelivery> {
  return send(core, options, async (validation) => orderEndpoint(validation === false ? order : await checkedOrder('fulfillment', order, validation)));
}

/**
 * Creates the customer return of a fulfillment order (`CUSTOMER_RETURN_PICKUP`), as `client.fulfillment.createReturn` does;
 * with `original`, the returned items are checked to be some or all of its items.
 *
 * @example
 * ```ts
 * import { DeliveryCore, createFulfillmentReturn } from 'delivery-sdk/functions';
 *
 * const core = new DeliveryCore({ apiKey: process.env.DELIVERY_API_KEY, baseUrl: 'https://api.example.com/v2' });
 * await createFulfillmentReturn(
 *   core,
 *   { type: 'CUSTOMER_RETURN_PICKUP', originalFulfillmentTrackingNumber: '70000012', fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 1 }] } },
 *   { original: [{ sku: 'SHIRT-M', quantity: 2 }] },
 * );
 * ```
 */
export function createFulfillmentReturn(core: DeliveryCore, order: FulfillmentReturnOrder, options?: CreateReturnOptions): APIPromise<CreatedDelivery> {
  const { original, ...requestOptions } = options ?? {};
  return send(core, requestOptions, async (validation) => {
    if (validation === false) return orderEndpoint(order);
    const checked = await checkedOrder('fulfillmentReturn', order, validation);
    if (original === undefined) return orderEndpoint(checked);
    const issues = checkReturnItemsSubset(checked.fulfillmentInfo.items, originalItems(original));
    if (issues.length > 0) throw new ValidationError(issues, { subject: "Invalid fulfillment return: the items must be some or all of the original order's" });
    return orderEndpoint(checked);
  });
}

/**
 * Creates fulfillment orders merged per customer phone (`POST /fulfillment/deliveries/bulky`), as `client.fulfillment.createBulky` does.
 *
 * @example
 * ```ts
 * import { DeliveryCore, createBulkyFulfillment } from 'delivery-sdk/functions';
 *
 * const core = new DeliveryCore({ apiKey: process.env.DELIVERY_API_KEY, baseUrl: 'https://api.example.com/v2' });
 * const dropOffAddress = { districtId: 'aiJudRHeOt', firstLine: '12 Talaat Harb Street' };
 * const perCustomer = await createBulkyFulfillment(core, [
 *   { type: 'FXF_SEND', dropOffAddress, receiver: { phone: '+201012345678' }, fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 1 }] } },
 *   { type: 'FXF_SEND', dropOffAddress, receiver: { phone: '+201012345678' }, fulfillmentInfo: { items: [{ sku: 'CAP', quantity: 1 }] } },
 * ]);
 * ```
 */
export function createBulkyFulfillment(core: DeliveryCore, orders: FulfillmentSendOrder[], options?: RequestOptions): APIPromise<BulkyCreatedOrder[]> {
  return send(core, options, async (validation) => ({
    method: 'POST',
    path: '/fulfillment/deliveries/bulky',
    body: validation === false ? orders : await checkBulky(orders, validation),
    transform: bulkyCreated,
    idempotent: false,
  }));
}
