import * as z from 'zod/mini';
import type { DeliveryType, FulfillmentType } from '../catalogue/order-types.js';
import { issuesAt, ValidationError, type ValidationIssue } from '../errors/base.js';
import { ErrorCode } from '../errors/codes.js';
import { isRecord, shown } from '../internal/guards.js';
import type { CheckResult } from '../internal/input.js';
import { onWire } from '../internal/input.js';
import { NONE } from '../internal/skip-rules.js';
import { type MarketplacePickupAddress, type OrderAddress, orderAddressSchema, pickupAddressSchema } from './address.js';
import { crossField, filledText, object, optional } from './fields.js';
import { checkReturnItemsSubset } from './fulfillment-return.js';
import { checkWith, rejected, unreadable, unwrap } from './issues.js';
import { lazy } from './lazy.js';
import { type OrderFamily, orderTypesOf } from './order-fast.js';
import {
  type Contact,
  cashCollectionCodSchema,
  collectedCodSchema,
  contactSchema,
  type DeliveryImages,
  deliveryImagesSchema,
  type EscrowInfo,
  escrowInfoSchema,
  type FulfillmentInfo,
  type FulfillmentItem,
  fulfillmentInfoSchema,
  type GoodsInfo,
  goodsInfoSchema,
  type PackageSpecs,
  refundCodSchema,
  specsSchema,
  webhookHeadersSchema,
  webhookUrlSchema,
} from './order-parts.js';
import { receiverPhoneOf } from './predicates.js';

/** The fields every order type may carry. */
export interface OrderFields {
  /** Package size and contents. */
  specs?: PackageSpecs | null | undefined;
  /** Free text for the courier. */
  notes?: string | null | undefined;
  /**
   * The business's pickup location (Deliver) or the location a return goes back to (CRP);
   * the default location when omitted.
   */
  businessLocationId?: string | null | undefined;
  /** Marketplace mode: who to meet at the pickup address. */
  pickupLocationContact?: Contact | null | undefined;
  /** The end customer. */
  receiver?: Contact | null | undefined;
  /** Your own reference, echoed back in webhooks. */
  businessReference?: string | null | undefined;
  /**
   * A reference the service refuses to see twice: a second order with the same value is not
   * created. So a create that carries one is safe to repeat after an unknown outcome. Only one
   * source (the live service's integrations, docs/assumptions.md) confirms the refusal.
   * `createBulk` refuses two orders with the same value in one call before sending.
   */
  uniqueBusinessReference?: string | null | undefined;
  /** Where this order's state changes are posted (absolute http(s) URL), instead of the account's webhook. */
  webhookUrl?: string | null | undefined;
  /** Headers sent with each webhook of this order, e.g. `{ Authorization: 'secret' }`. */
  webhookCustomHeaders?: Record<string, string> | null | undefined;
  /** Declared goods, for insurance (none is calculated without it). */
  goodsInfo?: GoodsInfo | null | undefined;
  /** Lets the customer open the package; needs `deliveryImages` (errorCode 2150). */
  allowToOpenPackage?: boolean | null | undefined;
  /** Product images the customer can check the package against; required when `allowToOpenPackage` is true. */
  deliveryImages?: DeliveryImages | null | undefined;
  /** The prepaid part of `cod` (deducted from it once paid, never added to it). */
  escrowInfo?: EscrowInfo | null | undefined;
}

/** A pickup address: an order address, or in marketplace mode the shorter marketplace shape. */
export type PickupAddress = OrderAddress | MarketplacePickupAddress;

/** Deliver (10): the service delivers a product to the customer. */
export interface DeliverOrder extends OrderFields {
  type: typeof DeliveryType.Deliver;
  dropOffAddress: OrderAddress;
  /** Defaults to the business location. */
  pickupAddress?: PickupAddress | null | undefined;
  /** Cash to collect on delivery: 0 to 30000 EGP. */
  cod?: number | null | undefined;
}

/** Cash Collection (15): the service collects cash from a customer. */
export interface CashCollectionOrder extends OrderFields {
  type: typeof DeliveryType.CashCollection;
  /** Where the cash is collected. */
  pickupAddress: PickupAddress;
  dropOffAddress?: OrderAddress | null | undefined;
  /** The amount to collect: more than 0, at most 30000 EGP. */
  cod: number;
}

/** Customer Return Pickup (25): the customer returns an order. */
export interface CustomerReturnPickupOrder extends OrderFields {
  type: typeof DeliveryType.CustomerReturnPickup;
  /** Where the return is picked up. */
  pickupAddress: PickupAddress;
  dropOffAddress?: OrderAddress | null | undefined;
  /** Only a refund: a negative amount (paid to the customer), at most 30000 EGP. */
  cod?: number | null | undefined;
}

/** Exchange (30): a new package goes out, the exchanged one comes back. */
export interface ExchangeOrder extends OrderFields {
  type: typeof DeliveryType.Exchange;
  dropOffAddress: OrderAddress;
  pickupAddress?: PickupAddress | null | undefined;
  /** 0 to 30000 EGP. */
  cod?: number | null | undefined;
}

/** A fulfillment order (FXF_SEND): shipped from your stock in the service's warehouses. */
export interface FulfillmentSendOrder extends OrderFields {
  type: typeof FulfillmentType.Send;
  fulfillmentInfo: FulfillmentInfo;
  dropOffAddress?: OrderAddress | null | undefined;
  pickupAddress?: PickupAddress | null | undefined;
  /** 0 to 30000 EGP. */
  cod?: number | null | undefined;
}

/** A customer return of a fulfillment order (CUSTOMER_RETURN_PICKUP): back into stock. */
export interface FulfillmentReturnOrder extends OrderFields {
  type: typeof FulfillmentType.CustomerReturnPickup;
  /** Some or all of the items of the original order. */
  fulfillmentInfo: FulfillmentInfo;
  /** Tracking number of the original FXF_SEND order. */
  originalFulfillmentTrackingNumber: string;
  pickupAddress?: PickupAddress | null | undefined;
  dropOffAddress?: OrderAddress | null | undefined;
  /** Only a refund: a negative amount, at most 30000 EGP. */
  cod?: number | null | undefined;
}

/** An order of one of the numeric types (`DeliveryType`), discriminated on `type`. */
export type DeliveryOrder = DeliverOrder | CashCollectionOrder | CustomerReturnPickupOrder | ExchangeOrder;

/** A fulfillment order or return (`FulfillmentType`), discriminated on `type`. */
export type FulfillmentOrder = FulfillmentSendOrder | FulfillmentReturnOrder;

/** Any order `POST /deliveries` takes. */
export type OrderInput = DeliveryOrder | FulfillmentOrder;

const commonShape = lazy(() => ({
  specs: optional(specsSchema()),
  notes: optional(z.string()),
  businessLocationId: optional(z.string()),
  pickupLocationContact: optional(contactSchema()),
  receiver: optional(contactSchema()),
  businessReference: optional(z.string()),
  uniqueBusinessReference: optional(z.string()),
  webhookUrl: optional(webhookUrlSchema()),
  webhookCustomHeaders: optional(webhookHeadersSchema()),
  goodsInfo: optional(goodsInfoSchema()),
  allowToOpenPackage: optional(z.boolean()),
  deliveryImages: optional(deliveryImagesSchema()),
  escrowInfo: optional(escrowInfoSchema()),
}));

function hasImageUrl(images: unknown): boolean {
  if (images === undefined || images === null) return false;
  if (!Array.isArray(images)) return true; // a wrong type is reported on its own
  return images.some((entry) => isRecord(entry) && Array.isArray(entry['images']) && entry['images'].length > 0);
}

/** 2150 and the escrow rule: both read more than one field. */
const orderRules = lazy(() =>
  crossField((order, report) => {
    if (order['allowToOpenPackage'] === true && !hasImageUrl(order['deliveryImages'])) {
      report(['deliveryImages'], 'needs at least one image URL when allowToOpenPackage is true', ErrorCode.DeliveryImagesRequired);
    }
    const escrow = order['escrowInfo'];
    const prepaid = isRecord(escrow) ? escrow['amountToBeCollected'] : undefined;
    if (typeof prepaid === 'number' && prepaid >= 0) {
      const cod = order['cod'];
      const collectible = typeof cod === 'number' && cod > 0 ? cod : 0;
      if (prepaid > collectible)
        report(['escrowInfo', 'amountToBeCollected'], `must not be more than cod (${collectible}): it is the prepaid part of cod, not an addition`);
    }
    // The escrow's bound by cod is more than JSON Schema says.
  }, IMAGES_WHEN_OPENED),
);

/** 2150 in JSON Schema: `deliveryImages` given when `allowToOpenPackage` is true. */
const IMAGES_WHEN_OPENED = {
  anyOf: [{ properties: { allowToOpenPackage: { not: { const: true } } } }, { required: ['deliveryImages'] }],
};

// The type requires cod; this is for input that did not go through the compiler.
const cashCollectionRules = lazy(() =>
  crossField(
    (order, report) => {
      if (order['cod'] === undefined || order['cod'] === null) report(['cod'], 'required for Cash Collection orders', ErrorCode.CodRequired);
    },
    { required: ['cod'] },
  ),
);

/** @internal */
export const deliverSchema = lazy(() =>
  object(
    {
      type: z.literal(10),
      dropOffAddress: orderAddressSchema(),
      pickupAddress: optional(pickupAddressSchema()),
      cod: optional(collectedCodSchema()),
      ...commonShape(),
    },
    orderRules(),
  ),
);

/** @internal */
export const cashCollectionSchema = lazy(() =>
  object(
    {
      type: z.literal(15),
      pickupAddress: pickupAddressSchema(),
      dropOffAddress: optional(orderAddressSchema()),
      cod: optional(cashCollectionCodSchema()),
      ...commonShape(),
    },
    cashCollectionRules(),
    orderRules(),
  ),
);

/** @internal */
export const customerReturnPickupSchema = lazy(() =>
  object(
    {
      type: z.literal(25),
      pickupAddress: pickupAddressSchema(),
      dropOffAddress: optional(orderAddressSchema()),
      cod: optional(refundCodSchema()),
      ...commonShape(),
    },
    orderRules(),
  ),
);

/** @internal */
export const exchangeSchema = lazy(() =>
  object(
    {
      type: z.literal(30),
      dropOffAddress: orderAddressSchema(),
      pickupAddress: optional(pickupAddressSchema()),
      cod: optional(collectedCodSchema()),
      ...commonShape(),
    },
    orderRules(),
  ),
);

/** @internal */
export const fulfillmentSendSchema = lazy(() =>
  object(
    {
      type: z.literal('FXF_SEND'),
      fulfillmentInfo: fulfillmentInfoSchema(),
      dropOffAddress: optional(orderAddressSchema()),
      pickupAddress: optional(pickupAddressSchema()),
      cod: optional(collectedCodSchema()),
      ...commonShape(),
    },
    orderRules(),
  ),
);

/** @internal */
export const fulfillmentReturnSchema = lazy(() =>
  object(
    {
      type: z.literal('CUSTOMER_RETURN_PICKUP'),
      fulfillmentInfo: fulfillmentInfoSchema(),
      originalFulfillmentTrackingNumber: filledText(),
      pickupAddress: optional(pickupAddressSchema()),
      dropOffAddress: optional(orderAddressSchema()),
      cod: optional(refundCodSchema()),
      ...commonShape(),
    },
    orderRules(),
  ),
);

type OrderSchema = () => z.ZodMiniType<unknown>;

const SCHEMA_OF_TYPE: ReadonlyMap<unknown, OrderSchema> = new Map<unknown, OrderSchema>([
  [10, deliverSchema],
  [15, cashCollectionSchema],
  [25, customerReturnPickupSchema],
  [30, exchangeSchema],
  ['FXF_SEND', fulfillmentSendSchema],
  ['CUSTOMER_RETURN_PICKUP', fulfillmentReturnSchema],
]);

/** The types of a family as a message lists them: `one of 10, 15 or 25`. */
function listed(family: OrderFamily): string {
  const names = orderTypesOf(family).map(shown);
  return names.length === 1 ? String(names[0]) : `one of ${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

const SUBJECT = 'Invalid order';

/**
 * Internal: An order of `family` checked by the schemas, with the rules `skip` names left out:
 * what the checking step (check.ts) runs on an order's wire form that the plain check refused.
 */
export function checkOrderOf<T = OrderInput>(family: OrderFamily, input: unknown, skip: ReadonlySet<number>): CheckResult<T> {
  let type: unknown;
  try {
    if (!isRecord(input)) return rejected(SUBJECT, { path: [], message: `expected an order object, received ${shown(input)}` });
    type = input['type'];
  } catch (cause) {
    // A revoked Proxy, or a getter on `type` that throws: still the caller's input, still typed.
    return { ok: false, error: unreadable(SUBJECT, cause) };
  }
  const schema = orderTypesOf(family).includes(type) ? SCHEMA_OF_TYPE.get(type) : undefined;
  if (schema === undefined) {
    const message = type === undefined ? `required: ${listed(family)}` : `expected ${listed(family)}, received ${shown(type)}`;
    return rejected(SUBJECT, { path: ['type'], message });
  }
  return checkWith(schema(), input, SUBJECT, skip) as CheckResult<T>;
}

/**
 * Checks any order (`DeliveryType` 10, 15, 25, 30, or a fulfillment order) without throwing:
 * for bulk uploads, where one bad order should not stop the others. What it checks, and returns,
 * is the order as it would be sent: its JSON (a `toJSON` applied, `undefined` fields gone).
 *
 * @example
 * ```ts
 * const results = orders.map(checkOrder);
 * const valid = results.flatMap((result) => (result.ok ? [result.value] : []));
 * ```
 */
export function checkOrder(input: unknown): CheckResult<OrderInput> {
  return onWire(input, (wire) => checkOrderOf('order', wire, NONE));
}

/**
 * Checks an order of any type against every rule of the spec that can be checked before
 * sending, and returns the body `create` sends for it: the order as JSON reads it back (a
 * `toJSON` applied, no `undefined` values), phone digits in ASCII, `specs.packageType` as
 * written, fields the SDK does not know kept.
 *
 * @throws The spec's class for a coded rule, with `source: 'client'`: `CodRequiredError` 3006,
 * `CodLimitExceededError` 3007, `CrpRefundCodOnlyError` 3005, `RefundCodLimitExceededError` 3008,
 * `AddressLocationRequiredError` 3009, `DeliveryImagesRequiredError` 2150,
 * `InvalidDeliveryImageUrlError` 2151; otherwise a `ValidationError`. Either way `issues` lists
 * every problem with its path.
 *
 * @example
 * ```ts
 * try {
 *   const order = validateOrder({
 *     type: DeliveryType.Deliver,
 *     dropOffAddress: { city: 'Cairo', districtId: 'aiJudRHeOt', firstLine: '12 Talaat Harb Street' },
 *     receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01012345678' },
 *     cod: 250,
 *   });
 * } catch (err) {
 *   if (isDeliveryError(err, ErrorCode.CodLimitExceeded)) console.error(err.message); // names the field
 * }
 * ```
 */
export function validateOrder(input: unknown): OrderInput {
  return unwrap(checkOrder(input));
}

/** Like {@link validateOrder}, for the numeric types only (Deliver, Cash Collection, CRP, Exchange). */
export function validateDeliveryOrder(input: unknown): DeliveryOrder {
  return unwrap(onWire(input, (wire) => checkOrderOf<DeliveryOrder>('delivery', wire, NONE)));
}

/** Like {@link validateOrder}, for fulfillment orders (FXF_SEND) and fulfillment returns (CUSTOMER_RETURN_PICKUP). */
export function validateFulfillmentOrder(input: unknown): FulfillmentOrder {
  return unwrap(onWire(input, (wire) => checkOrderOf<FulfillmentOrder>('fulfillment', wire, NONE)));
}

/**
 * Like {@link validateOrder}, for a fulfillment return only: `fulfillmentInfo` and
 * `originalFulfillmentTrackingNumber` required. Whether the items are a subset of the original
 * order's needs that order: see {@link checkReturnItemsSubset}.
 */
export function validateFulfillmentReturn(input: unknown): FulfillmentReturnOrder {
  return unwrap(onWire(input, (wire) => checkOrderOf<FulfillmentReturnOrder>('fulfillmentReturn', wire, NONE)));
}

/**
 * Internal: A fulfillment return whose items must be some or all of `originalItems` (spec rule 1),
 * each an object of `{ sku, quantity }` (as `createReturn`'s `original` gives them).
 */
export function checkFulfillmentReturnOf(input: unknown, originalItems: readonly unknown[], skip: ReadonlySet<number>): CheckResult<FulfillmentReturnOrder> {
  const checked = checkOrderOf<FulfillmentReturnOrder>('fulfillmentReturn', input, skip);
  if (!checked.ok) return checked;
  const issues = checkReturnItemsSubset(checked.value.fulfillmentInfo.items, originalItems as FulfillmentItem[]);
  if (issues.length === 0) return checked;
  return { ok: false, error: new ValidationError(issues, { subject: "Invalid fulfillment return: the items must be some or all of the original order's" }) };
}

/**
 * Internal: The body of `POST /fulfillment/deliveries/bulky`: a non-empty array of FXF_SEND orders,
 * each with `receiver.phone`, since the service merges the elements by it. One error lists the
 * issues of every invalid element (paths start at its index).
 */
export function checkBulkyOrders(input: unknown, skip: ReadonlySet<number>): CheckResult<FulfillmentSendOrder[]> {
  const orders = Array.isArray(input) ? input : [];
  const issues: ValidationIssue[] =
    orders.length === 0
      ? [{ path: [], message: Array.isArray(input) ? 'needs at least one order' : `expected an array of orders, received ${shown(input)}` }]
      : [];
  const prepared = orders.map((element: unknown, index) => {
    // The endpoint creates FXF_SEND orders only, merging them per phone: a Deliver or a return sent there would be merged in.
    const type = isRecord(element) ? element['type'] : 'FXF_SEND';
    if (type !== 'FXF_SEND') {
      issues.push({ path: [index, 'type'], message: `expected 'FXF_SEND' in a bulky upload, received ${shown(type)}` });
      return undefined;
    }
    const checked = checkOrderOf<FulfillmentSendOrder>('fulfillment', element, skip);
    const found = checked.ok ? [] : issuesAt(index, checked.error);
    if (receiverPhoneOf(checked.ok ? checked.value : element) === undefined && !found.some(({ path }) => path[1] === 'receiver')) {
      found.push({ path: [index, 'receiver', 'phone'], message: 'required: bulky orders are merged by it' });
    }
    issues.push(...found);
    return checked.ok ? checked.value : undefined;
  });
  if (issues.length > 0) return { ok: false, error: new ValidationError(issues, { subject: 'Invalid bulky upload (nothing was sent)' }) };
  return { ok: true, value: prepared as FulfillmentSendOrder[] };
}
