/** The parts of an order body other than its addresses, with their schemas. */
import * as z from 'zod/mini';
import { ErrorCode } from '../errors/codes.js';
import { isFilled, isHeaderName, isRecord, isSafeHeaderValue, shown } from '../internal/guards.js';
import { codedRule, contactPhone, crossField, dropUndefined, FILLED, httpUrl, object, openObject, optional, rule, stating } from './fields.js';
import { MAX_LISTED_ISSUES, unlistedIssue } from './issues.js';
import { COD_LIMIT } from './predicates.js';

/**
 * `specs.packageType`: the kind of package. The service's own integrations send `Parcel`,
 * `Document`, `Light Bulky` and `Heavy Bulky`, with the size in `specs.size`; the spec's single
 * list merges the two fields. The known values are suggestions: any other string is sent as
 * written, never respelled.
 */
export type PackageType = 'Parcel' | 'Document' | 'Light Bulky' | 'Heavy Bulky' | (string & {});

/** `specs.size`: the package size. Known values are suggestions; any string is sent as written (the service's docs also write `Small`). */
export type PackageSize = 'SMALL' | 'MEDIUM' | 'LARGE' | (string & {});

/** `specs.packageDetails`. */
export interface PackageDetails {
  description?: string | null | undefined;
  /** Number of items in the package: a whole number. */
  itemsCount?: number | null | undefined;
}

/** `specs` of an order. `null` for a field means "not given", as for every optional field. */
export interface PackageSpecs {
  packageType?: PackageType | null | undefined;
  size?: PackageSize | null | undefined;
  packageDetails?: PackageDetails | null | undefined;
}

/** `receiver` (the end customer) or `pickupLocationContact` (marketplace mode). */
export interface Contact {
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  /**
   * 8 to 15 digits, an optional leading `+`, spaces or dashes between: `01012345678`, `+20 10 1234 5678`,
   * `+966501234567`. Sent in one form, digits only, an Egyptian number as `01…` (`01012345678`, `966501234567`).
   */
  phone?: string | null | undefined;
  email?: string | null | undefined;
}

/** One entry of `deliveryImages`: 1 to 10 absolute http(s) URLs of the product. */
export interface DeliveryImageEntry {
  /** The only type the spec allows. */
  type: 'ALLOW_TO_OPEN_THE_PACKAGE';
  images: string[];
}

/** `deliveryImages`: required (non-empty) when `allowToOpenPackage` is true. */
export type DeliveryImages = DeliveryImageEntry[];

/**
 * `goodsInfo`: the declared goods, used for insurance. Its fields are not shown by the spec;
 * `amount` (declared value in EGP) is the team's assumption, and any other field is sent as given.
 */
export interface GoodsInfo {
  amount?: number | null | undefined;
  [field: string]: unknown;
}

/** `escrowInfo`: the prepaid part of `cod` (deducted from it when paid, not added to it). */
export interface EscrowInfo {
  /** Between 0 and the order's `cod`. */
  amountToBeCollected?: number | null | undefined;
}

/** One stock item of a fulfillment order. */
export interface FulfillmentItem {
  sku: string;
  /** A whole number of at least 1. */
  quantity: number;
  name?: string | null | undefined;
}

/**
 * `fulfillmentInfo` of a fulfillment order (FXF_SEND) or return (CUSTOMER_RETURN_PICKUP).
 * Its fields are not shown by the spec: `items` is the team's assumption, other fields are sent as given.
 */
export interface FulfillmentInfo {
  items: FulfillmentItem[];
  [field: string]: unknown;
}

export { COD_LIMIT } from './predicates.js';

const optionalText = () => optional(z.string());
const isWholeAtLeast = (minimum: number) => (value: number) => Number.isSafeInteger(value) && value >= minimum;

/** @internal */
export function specsSchema() {
  return object({
    packageType: optionalText(),
    size: optionalText(),
    packageDetails: optional(
      object({
        description: optionalText(),
        itemsCount: optional(z.number().check(rule(isWholeAtLeast(0), 'must be a whole number, 0 or more', { type: 'integer', minimum: 0 }))),
      }),
    ),
  });
}

/** @internal */
export function contactSchema() {
  return object({
    firstName: optionalText(),
    lastName: optionalText(),
    phone: optional(contactPhone()),
    email: optionalText(),
  });
}

/** @internal */
export function deliveryImagesSchema() {
  return z.array(
    object({
      type: z.literal('ALLOW_TO_OPEN_THE_PACKAGE'),
      images: z.array(httpUrl('is not an absolute http(s) URL', ErrorCode.InvalidDeliveryImageUrl)).check(z.minLength(1), z.maxLength(10)),
    }),
  );
}

/** @internal */
export function goodsInfoSchema() {
  return openObject({ amount: optional(z.number().check(rule((value: number) => value >= 0, 'must not be negative', { minimum: 0 }))) });
}

/** @internal */
export function escrowInfoSchema() {
  return object({ amountToBeCollected: optional(z.number().check(rule((value: number) => value >= 0, 'must not be negative', { minimum: 0 }))) });
}

/** What {@link itemProblems} asks of each item, in JSON Schema. */
const FULFILLMENT_ITEM = {
  items: {
    type: 'object',
    properties: { sku: { type: 'string', ...FILLED }, quantity: { type: 'integer', minimum: 1 }, name: { type: ['string', 'null'] } },
    required: ['sku', 'quantity'],
  },
};

type ItemProblem = readonly [path: Array<string | number>, message: string];
const NO_PROBLEMS: readonly ItemProblem[] = [];

/** What is wrong with one fulfillment item, as [path within the item, message] pairs. */
function itemProblems(item: unknown): readonly ItemProblem[] {
  if (!isRecord(item)) return [[[], `expected an object, received ${shown(item)}`]];
  const { sku, quantity, name } = item;
  const skuOk = isFilled(sku);
  const quantityOk = typeof quantity === 'number' && isWholeAtLeast(1)(quantity);
  const nameOk = name === undefined || name === null || typeof name === 'string';
  if (skuOk && quantityOk && nameOk) return NO_PROBLEMS;
  const problems: ItemProblem[] = [];
  if (typeof sku !== 'string') problems.push([['sku'], sku === undefined ? 'required' : `expected a string, received ${shown(sku)}`]);
  else if (!skuOk) problems.push([['sku'], 'must not be empty']);
  if (typeof quantity !== 'number')
    problems.push([['quantity'], quantity === undefined ? 'required' : `expected a finite number, received ${shown(quantity)}`]);
  else if (!quantityOk) problems.push([['quantity'], 'must be a whole number of at least 1']);
  if (!nameOk) problems.push([['name'], `expected a string, received ${shown(name)}`]);
  return problems;
}

// A plain object without undefined values is sent as it is; any other is copied, as zod would.
const isPlainAndDefined = (item: Record<string, unknown>): boolean =>
  Object.getPrototypeOf(item) === Object.prototype && !Object.values(item).includes(undefined);

/**
 * `fulfillmentInfo.items`, checked by plain code rather than one zod schema per item: an order
 * may list any number of items, and past {@link MAX_LISTED_ISSUES} problems the rest are only
 * counted, so checking a million bad items takes milliseconds, not seconds.
 */
function fulfillmentItemsSchema() {
  return z.array(z.unknown()).check(
    z.minLength(1),
    stating(
      z.check<unknown[]>((payload) => {
        let listed = 0;
        let unlisted = 0;
        payload.value.forEach((item, index) => {
          for (const [path, message] of itemProblems(item)) {
            if (listed === MAX_LISTED_ISSUES) {
              unlisted++;
              continue;
            }
            payload.issues.push({ code: 'custom', message, path: [index, ...path], input: item, continue: true });
            listed++;
          }
        });
        if (unlisted > 0) payload.issues.push(unlistedIssue(unlisted, payload.value));
      }),
      FULFILLMENT_ITEM,
    ),
    // Sent as copies without undefined values, as every object the schemas check.
    z.overwrite((items: unknown[]) => items.map((item) => (isRecord(item) && !isPlainAndDefined(item) ? dropUndefined({ ...item }) : item))),
  );
}

/** @internal */
export function fulfillmentInfoSchema() {
  return openObject({ items: fulfillmentItemsSchema() });
}

/** @internal */
export function webhookUrlSchema() {
  return httpUrl('must be an absolute http(s) URL');
}

// A cross-field rule over an open object rather than z.record, which alone would add about 600
// bytes of zod to every browser bundle.
/** @internal */
export function webhookHeadersSchema() {
  return openObject(
    {},
    crossField(
      (headers, report) => {
        for (const [name, value] of Object.entries(headers)) {
          if (!isHeaderName(name)) report([name], 'is not a valid HTTP header name');
          if (typeof value !== 'string') report([name], value === undefined ? 'required' : 'expected a string (not shown: it may be a credential)');
          else if (!isSafeHeaderValue(value)) report([name], 'must not contain CR, LF or NUL');
        }
      },
      { additionalProperties: { type: 'string' } },
    ),
  );
}

/** @internal `cod` of orders that collect money (Deliver, Exchange, fulfillment send): 0 to 30000. */
export function collectedCodSchema() {
  return z.number().check(
    rule((cod: number) => cod >= 0, 'must not be negative: a refund (negative cod) is only for Customer Return Pickups', { minimum: 0 }),
    codedRule((cod: number) => cod <= COD_LIMIT, `must be at most ${COD_LIMIT} EGP`, ErrorCode.CodLimitExceeded, { maximum: COD_LIMIT }),
  );
}

/** @internal `cod` of a Cash Collection: more than 0 (3006, like a missing one) and at most 30000. */
export function cashCollectionCodSchema() {
  return z.number().check(
    codedRule((cod: number) => cod > 0, 'must be more than 0 for Cash Collection orders', ErrorCode.CodRequired, { exclusiveMinimum: 0 }),
    codedRule((cod: number) => cod <= COD_LIMIT, `must be at most ${COD_LIMIT} EGP`, ErrorCode.CodLimitExceeded, { maximum: COD_LIMIT }),
  );
}

/** @internal `cod` of a return (CRP, fulfillment return): only a refund, a negative amount of at most 30000. */
export function refundCodSchema() {
  return z.number().check(
    codedRule((cod: number) => cod <= 0, 'must be a refund (a negative amount) or 0 on a return', ErrorCode.CrpRefundCodOnly, { maximum: 0 }),
    codedRule((cod: number) => cod >= -COD_LIMIT, `a refund must be at most ${COD_LIMIT} EGP (cod >= -${COD_LIMIT})`, ErrorCode.RefundCodLimitExceeded, {
      minimum: -COD_LIMIT,
    }),
  );
}
