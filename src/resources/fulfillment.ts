import type { APIPromise } from '../core/api-promise.js';
import { onFirstUse } from '../core/on-first-use.js';
import type { CreatedDelivery } from '../functions/deliveries.js';
import type { BulkyCreatedOrder, CreateReturnOptions } from '../functions/fulfillment.js';
import type { RequestOptions } from '../functions/options.js';
import type { FulfillmentReturnOrder, FulfillmentSendOrder } from '../schemas/index.js';
import { Resource } from './resource.js';

const fulfillmentCode = onFirstUse(() => import('../functions/fulfillment.js'));

export type { BulkyCreatedOrder, CreateReturnOptions, OriginalFulfillment } from '../functions/fulfillment.js';

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
export class FulfillmentResource extends Resource {
  /**
   * Creates a fulfillment order (`POST /deliveries?apiVersion=1` with type `FXF_SEND` and
   * `fulfillmentInfo`): the service ships the items from your stock in its warehouses. Never
   * repeated when the outcome is unknown.
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
  create(order: FulfillmentSendOrder, options?: RequestOptions): APIPromise<CreatedDelivery> {
    return this.onDemand(fulfillmentCode, (loaded) => loaded.createFulfillmentOrder(this.core, order, options));
  }

  /**
   * Creates a customer return of a fulfillment order (`POST /deliveries?apiVersion=1` with type
   * `CUSTOMER_RETURN_PICKUP`, `fulfillmentInfo` and `originalFulfillmentTrackingNumber`). With
   * `original`, the returned items are checked to be some or all of the original order's
   * (quantities added up per `sku`) before sending, as part of validation.
   *
   * @throws `ValidationError` an item not in the original order, or more of it than was sent (paths `fulfillmentInfo.items[i]...`).
   * @throws `CrpRefundCodOnlyError` 3005 when `cod` is positive (only a refund, a negative amount, is allowed);
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
    return this.onDemand(fulfillmentCode, (loaded) => loaded.createFulfillmentReturn(this.core, order, options));
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
  createBulky(orders: FulfillmentSendOrder[], options?: RequestOptions): APIPromise<BulkyCreatedOrder[]> {
    return this.onDemand(fulfillmentCode, (loaded) => loaded.createBulkyFulfillment(this.core, orders, options));
  }
}
