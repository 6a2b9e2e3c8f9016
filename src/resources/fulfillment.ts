import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/config.js';
import type { DeliveryCore } from '../functions/core.js';
import { send } from '../functions/send.js';
import { FulfillmentType } from '../catalogue/order-types.js';
import { ValidationError, type ValidationIssue } from '../errors/index.js';
import {
  checkReturnItemsSubset,
  type FulfillmentItem,
  type FulfillmentReturnOrder,
  type FulfillmentSendOrder,
  type ValidateOptions,
} from '../schemas/index.js';
import { orderRulesWithout } from '../schemas/order.js';
import { isRecord } from '../schemas/predicates.js';
import { receiverPhoneOf } from './bulky-merge.js';
import { type CreatedDelivery, orderEndpoint } from './deliveries.js';
import { type Answer, createdRecord, issuesAt, listOf } from '../functions/shared.js';

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
  throw new ValidationError([{ path: ['original'], message: 'must be the original order (with fulfillmentInfo.items) or its items, each an object' }], { subject: 'Invalid argument' });
}

/** Every element checked; one error listing the issues of all invalid ones. */
function checkBulky(body: unknown, options: ValidateOptions): unknown {
  const orders = Array.isArray(body) ? body : [];
  const issues: ValidationIssue[] = orders.length === 0 ? [{ path: [], message: 'needs at least one order' }] : [];
  const prepared = orders.map((element: unknown, index) => {
    // The endpoint creates FXF_SEND orders only, merging them per phone: a Deliver or a return sent there would be merged in.
    const type = isRecord(element) ? element['type'] : FulfillmentType.Send;
    if (type !== FulfillmentType.Send) {
      const got = typeof type === 'string' ? `'${type.slice(0, 40)}'` : typeof type === 'number' ? String(type) : type === undefined ? 'none' : typeof type;
      issues.push({ path: [index, 'type'], message: `must be 'FXF_SEND' in a bulky upload (got ${got})` });
      return;
    }
    const checked = orderRulesWithout.check(element, options);
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

const bulkyCreated = (data: unknown, answer: Answer): BulkyCreatedOrder[] =>
  listOf(data, answer).map((entry) => createdRecord(entry, answer, ['_id', 'trackingNumber']) as BulkyCreatedOrder);

/**
 * Fulfillment orders: shipped from your stock in the service's warehouses (`FXF_SEND`), and
 * customer returns of them (`CUSTOMER_RETURN_PICKUP`).
 *
 * @example
 * ```ts
 * const items = [{ sku: 'SHIRT-M', quantity: 2 }];
 * const sent = await client.fulfillment.create({ type: FulfillmentType.Send, dropOffAddress, receiver, fulfillmentInfo: { items } });
 * await client.fulfillment.createReturn(
 *   { type: FulfillmentType.CustomerReturnPickup, pickupAddress, receiver, originalFulfillmentTrackingNumber: sent.trackingNumber,
 *     fulfillmentInfo: { items: [{ sku: 'SHIRT-M', quantity: 1 }] } },
 *   { original: { fulfillmentInfo: { items } } },
 * );
 * ```
 */
export class FulfillmentResource {
  // Private, so util.inspect of the client never reaches the headers (and the key) through here.
  readonly #core: DeliveryCore;

  /** @hidden The client builds it. */
  constructor(core: DeliveryCore) {
    this.#core = core;
  }

  /**
   * Creates a fulfillment order (`POST /deliveries?apiVersion=1` with type `FXF_SEND` and
   * `fulfillmentInfo`): the service ships the items from your stock in its warehouses. Never
   * repeated when the outcome is unknown.
   *
   * @throws {ValidationError} before sending, e.g. no `fulfillmentInfo.items` or a `quantity` below 1
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
  create(order: FulfillmentSendOrder, options?: RequestOptions): APIPromise<CreatedDelivery> {
    return send(this.#core, options, (validation) => orderEndpoint(validation === false ? order : orderRulesWithout.fulfillment(order, validation)));
  }

  /**
   * Creates a customer return of a fulfillment order (`POST /deliveries?apiVersion=1` with type
   * `CUSTOMER_RETURN_PICKUP`, `fulfillmentInfo` and `originalFulfillmentTrackingNumber`). With
   * `original`, the returned items are checked to be some or all of the original order's
   * (quantities added up per `sku`) before sending, as part of validation.
   *
   * @throws {ValidationError} an item not in the original order, or more of it than was sent (paths `fulfillmentInfo.items[i]...`).
   * @throws {CrpRefundCodOnlyError} 3005 when `cod` is positive (only a refund, a negative amount, is allowed);
   * {@link RefundCodLimitExceededError} 3008 when the refund is above 30000 EGP.
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
  createReturn(order: FulfillmentReturnOrder, options?: CreateReturnOptions): APIPromise<CreatedDelivery> {
    const { original, ...requestOptions } = options ?? {};
    return send(this.#core, requestOptions, (validation) => {
      if (validation === false) return orderEndpoint(order);
      const checked = orderRulesWithout.fulfillmentReturn(order, validation);
      if (original === undefined) return orderEndpoint(checked);
      const issues = checkReturnItemsSubset(checked.fulfillmentInfo.items, originalItems(original));
      if (issues.length > 0) throw new ValidationError(issues, { subject: "Invalid fulfillment return: the items must be some or all of the original order's" });
      return orderEndpoint(checked);
    });
  }

  /**
   * Creates several fulfillment orders in one call (`POST /fulfillment/deliveries/bulky`, body:
   * the array). The service merges elements with the same `receiver.phone` into one order
   * with all their items, so it creates one order per customer: see `previewBulkyMerge()`
   * to know beforehand (elements need `receiver.phone`). Every element is checked first, as an
   * FXF_SEND order (no other type is taken); one `ValidationError` lists the issues of all
   * invalid ones (paths from the index) and nothing is sent.
   * Never repeated when the outcome is unknown.
   *
   * @throws {ValidationError} an empty list, or invalid elements (paths like `[3].fulfillmentInfo.items`, `[4].type`).
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
  createBulky(orders: FulfillmentSendOrder[], options?: RequestOptions): APIPromise<BulkyCreatedOrder[]> {
    return send(this.#core, options, (validation) => ({ method: 'POST', path: '/fulfillment/deliveries/bulky', body: validation === false ? orders : checkBulky(orders, validation), transform: bulkyCreated, idempotent: false }));
  }
}
