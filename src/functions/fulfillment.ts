/** Fulfillment orders (FXF_SEND), their customer returns (CUSTOMER_RETURN_PICKUP), and bulky uploads. */

import { APIPromise } from '../core/api-promise.js';
import { wireForm } from '../core/endpoint.js';
import { ConfigurationError, ValidationError } from '../errors/index.js';
import { bulkyCheck, fulfillmentCheck, fulfillmentReturnCheck, fulfillmentReturnCheckOf } from '../schemas/check.js';
import type { FulfillmentReturnOrder, FulfillmentSendOrder } from '../schemas/order.js';
import type { FulfillmentItem } from '../schemas/order-parts.js';
import { isRecord, shown } from '../schemas/predicates.js';
import { callApi } from './call-api.js';
import { type CreatedDelivery, sendOrder } from './deliveries.js';
import type { DeliveryCore } from './delivery-core.js';
import type { RequestOptions } from './options.js';
import { createdRecord, listOf, type ResponseContext } from './shared.js';

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
  const items = wireForm(given)?.value;
  if (Array.isArray(items) && items.every(isRecord)) return items as unknown[] as FulfillmentItem[];
  throw new ValidationError(
    [{ path: ['original'], message: `expected the original order (with fulfillmentInfo.items) or its items, each an object, received ${shown(original)}` }],
    {
      subject: 'Invalid argument',
    },
  );
}

const bulkyCreated = (data: unknown, context: ResponseContext): BulkyCreatedOrder[] =>
  listOf(data, context).map((entry) => createdRecord(entry, context, ['_id', 'trackingNumber']) as BulkyCreatedOrder);

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
  return sendOrder(core, order, () => fulfillmentCheck, options);
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
  let original: OriginalFulfillment | undefined;
  let requestOptions: RequestOptions | undefined;
  try {
    ({ original, ...requestOptions } = options ?? {});
  } catch (cause) {
    return new APIPromise(Promise.reject(new ConfigurationError('createReturn options could not be read.', { cause })));
  }
  return sendOrder(core, order, () => (original === undefined ? fulfillmentReturnCheck : fulfillmentReturnCheckOf(originalItems(original))), requestOptions);
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
  return callApi(core, options, () => ({
    input: orders,
    check: bulkyCheck,
    endpoint: ({ json }) => ({ method: 'POST', path: '/fulfillment/deliveries/bulky', json, transform: bulkyCreated, idempotent: false }),
  }));
}
