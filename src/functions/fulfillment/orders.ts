/** Fulfillment orders (FXF_SEND), their customer returns (CUSTOMER_RETURN_PICKUP), and bulky uploads. */

import type { RequestOptions } from '../../core/options.js';
import { ConfigurationError, ValidationError } from '../../errors/index.js';
import { isRecord, shown } from '../../internal/guards.js';
import { snapshotOf } from '../../internal/input.js';
import { fulfillmentCheck, fulfillmentReturnCheck, fulfillmentReturnCheckOf, schemaCheck } from '../../schemas/check.js';
import type { FulfillmentReturnOrder, FulfillmentSendOrder } from '../../schemas/order.js';
import type { FulfillmentItem } from '../../schemas/order-parts.js';
import { createdRecord, listOf } from '../answers.js';
import { hasUniqueReference, recoverRepeatedCreate } from '../deliveries/idempotency.js';
import { type CreatedDelivery, createdDelivery } from '../deliveries/records.js';
import { type AnswerContext, endpoint } from '../endpoint.js';

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

/** The original order's items, read once (as JSON reads them, like the return they are compared with). */
function originalItems(original: OriginalFulfillment): readonly FulfillmentItem[] {
  const given: unknown = Array.isArray(original) ? original : (original as { fulfillmentInfo?: { items?: unknown } })?.fulfillmentInfo?.items;
  const items = snapshotOf(given);
  if (Array.isArray(items) && items.every(isRecord)) return items as unknown[] as FulfillmentItem[];
  throw new ValidationError(
    [{ path: ['original'], message: `expected the original order (with fulfillmentInfo.items) or its items, each an object, received ${shown(original)}` }],
    {
      subject: 'Invalid argument',
    },
  );
}

const bulkyCreated = (data: unknown, context: AnswerContext): BulkyCreatedOrder[] =>
  listOf(data, context).map((entry) => createdRecord(entry, context, ['_id', 'trackingNumber']) as BulkyCreatedOrder);

/**
 * Creates a fulfillment order (`POST /deliveries?apiVersion=1` with type `FXF_SEND` and
 * `fulfillmentInfo`): the service ships the items from your stock in its warehouses. Not
 * repeated when the outcome is unknown unless it carries a `uniqueBusinessReference`, as for
 * `deliveries.create`.
 *
 * @chunk fulfillment
 *
 * @throws `ValidationError` before sending, e.g. no `fulfillmentInfo.items` or a `quantity` below 1
 * (paths like `fulfillmentInfo.items[0].quantity`); the coded classes of the shared rules
 * (`CodLimitExceededError` 3007, ...) with `source: 'client'` or `'server'`, as for `deliveries.create`.
 *
 * @example
 * ```ts
 * const order = await client.fulfillment.create({
 *   type: FulfillmentType.Send,
 *   dropOffAddress,
 *   receiver: { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' },
 *   fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 2 }] },
 *   cod: 600,
 * });
 * ```
 */
export const createFulfillmentOrder = /* @__PURE__ */ endpoint<[order: FulfillmentSendOrder], CreatedDelivery>({
  name: 'fulfillment.create',
  method: 'POST',
  route: '/deliveries?apiVersion=1',
  check: fulfillmentCheck,
  answer: createdDelivery,
  idempotent: hasUniqueReference,
  recover: recoverRepeatedCreate,
  createsOrder: true,
});

/**
 * Creates a customer return of a fulfillment order (`POST /deliveries?apiVersion=1` with type
 * `CUSTOMER_RETURN_PICKUP`, `fulfillmentInfo` and `originalFulfillmentTrackingNumber`). With
 * `original`, the returned items are checked to be some or all of the original order's
 * (quantities added up per `sku`) before sending, as part of validation.
 *
 * @chunk fulfillment
 *
 * @throws `ValidationError` an item not in the original order, or more of it than was sent (paths `fulfillmentInfo.items[i]...`).
 * @throws `CrpRefundCodOnlyError` 3005 when `cod` is positive (only a refund, a negative amount, is allowed);
 * `RefundCodLimitExceededError` 3008 when the refund is above 30000 EGP.
 *
 * @example
 * ```ts
 * const original = await client.fulfillment.create(sendOrder);
 * await client.fulfillment.createReturn(
 *   {
 *     type: FulfillmentType.CustomerReturnPickup,
 *     originalFulfillmentTrackingNumber: original.trackingNumber,
 *     pickupAddress: customerAddress,
 *     receiver,
 *     fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 1 }] },
 *     cod: -300, // refund paid to the customer
 *   },
 *   { original: sendOrder }, // checks the items are some of the original's before sending
 * );
 * ```
 */
export const createFulfillmentReturn = /* @__PURE__ */ endpoint<[order: FulfillmentReturnOrder], CreatedDelivery, CreateReturnOptions>({
  name: 'fulfillment.createReturn',
  method: 'POST',
  route: '/deliveries?apiVersion=1',
  check: (options) => {
    let original: OriginalFulfillment | undefined;
    try {
      original = options?.original;
    } catch (cause) {
      throw new ConfigurationError('createReturn options could not be read.', { cause });
    }
    return original === undefined ? fulfillmentReturnCheck : fulfillmentReturnCheckOf(originalItems(original));
  },
  answer: createdDelivery,
  idempotent: hasUniqueReference,
  recover: recoverRepeatedCreate,
  createsOrder: true,
});

/**
 * Creates several fulfillment orders in one call (`POST /fulfillment/deliveries/bulky`, body:
 * the array). The service merges elements with the same `receiver.phone` into one order
 * with all their items, so it creates one order per customer: see `previewBulkyMerge()`
 * to know beforehand (elements need `receiver.phone`). Every element is checked first, as an
 * FXF_SEND order (no other type is taken); one `ValidationError` lists the issues of all
 * invalid ones (paths from the index) and nothing is sent.
 * Never repeated when the outcome is unknown.
 *
 * @chunk fulfillment
 *
 * @throws `ValidationError` an empty list, or invalid elements (paths like `[3].fulfillmentInfo.items`, `[4].type`).
 *
 * @example
 * ```ts
 * const orders = [
 *   { type: FulfillmentType.Send, dropOffAddress, receiver: { phone: '+201012345678' }, fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 1 }] } },
 *   { type: FulfillmentType.Send, dropOffAddress, receiver: { phone: '+201012345678' }, fulfillmentInfo: { items: [{ sku: 'CAP', quantity: 1 }] } },
 * ] satisfies FulfillmentSendOrder[];
 * previewBulkyMerge(orders); // one group: both go to the same phone (no request)
 * const created = await client.fulfillment.createBulky(orders); // one order with both items
 * ```
 */
export const createBulkyFulfillment = /* @__PURE__ */ endpoint<[orders: FulfillmentSendOrder[]], BulkyCreatedOrder[]>({
  name: 'fulfillment.createBulky',
  method: 'POST',
  route: '/fulfillment/deliveries/bulky',
  check: schemaCheck('checkBulkyOrders'),
  answer: bulkyCreated,
  idempotent: false,
});
