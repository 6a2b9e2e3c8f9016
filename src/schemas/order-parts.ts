/** The parts of an order body other than its addresses, with their schemas. */
import * as z from 'zod/mini';
import { ErrorCode } from '../errors/codes.js';
import { coded, crossField, filledText, httpUrl, object, openObject, rule } from './fields.js';
import { describeValue } from './issues.js';
import { isHeaderName, isSafeHeaderValue } from './predicates.js';

/**
 * `specs.packageType`. The spec lists SMALL, MEDIUM, LARGE, Light Bulky and Heavy Bulky, and
 * its examples also send other letter cases and `Parcel`. Any letter case (and `_` or `-` for
 * the space) is accepted and sent in the spelling below; `Parcel` is kept as its own size,
 * since the service's examples send it and mapping it to another size could change the price.
 */
export type PackageType = 'SMALL' | 'MEDIUM' | 'LARGE' | 'Light Bulky' | 'Heavy Bulky' | 'Parcel';

const PACKAGE_TYPES: ReadonlyMap<string, PackageType> = new Map<string, PackageType>([
  ['small', 'SMALL'],
  ['medium', 'MEDIUM'],
  ['large', 'LARGE'],
  ['light bulky', 'Light Bulky'],
  ['heavy bulky', 'Heavy Bulky'],
  ['parcel', 'Parcel'],
]);
const SEPARATORS = /[\s_-]+/g;

/** The spec's spelling of a package type written in any case, or `undefined` if it is none. */
export function normalisePackageType(value: string): PackageType | undefined {
  return PACKAGE_TYPES.get(value.trim().toLowerCase().replace(SEPARATORS, ' '));
}

/** `specs.packageDetails`. */
export interface PackageDetails {
  description?: string | undefined;
  /** Number of items in the package: a whole number. */
  itemsCount?: number | undefined;
}

/** `specs` of an order. */
export interface PackageSpecs {
  packageType?: PackageType | undefined;
  packageDetails?: PackageDetails | undefined;
}

/** `receiver` (the end customer) or `pickupLocationContact` (marketplace mode). */
export interface Contact {
  firstName?: string | undefined;
  lastName?: string | undefined;
  phone?: string | undefined;
  email?: string | undefined;
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
  amount?: number | undefined;
  [field: string]: unknown;
}

/** `escrowInfo`: the prepaid part of `cod` (deducted from it when paid, not added to it). */
export interface EscrowInfo {
  /** Between 0 and the order's `cod`. */
  amountToBeCollected?: number | undefined;
}

/** One stock item of a fulfillment order. */
export interface FulfillmentItem {
  sku: string;
  /** A whole number of at least 1. */
  quantity: number;
  name?: string | undefined;
}

/**
 * `fulfillmentInfo` of a fulfillment order (FXF_SEND) or return (CUSTOMER_RETURN_PICKUP).
 * Its fields are not shown by the spec: `items` is the team's assumption, other fields are sent as given.
 */
export interface FulfillmentInfo {
  items: FulfillmentItem[];
  [field: string]: unknown;
}

export const COD_LIMIT = 30_000;

const optionalText = () => z.optional(z.string());
const isWholeAtLeast = (minimum: number) => (value: number) => Number.isSafeInteger(value) && value >= minimum;

// A check and an overwrite rather than z.pipe + z.transform: the same result, and about 300 bytes
// less zod in every browser bundle.
/** @internal */
export function packageTypeSchema() {
  return z.string().check(
    rule((value: string) => normalisePackageType(value) !== undefined, 'must be one of SMALL, MEDIUM, LARGE, Light Bulky, Heavy Bulky or Parcel (any letter case)'),
    z.overwrite((value: string) => normalisePackageType(value) ?? value),
  );
}

/** @internal */
export function specsSchema() {
  return object({
    packageType: z.optional(packageTypeSchema()),
    packageDetails: z.optional(
      object({
        description: optionalText(),
        itemsCount: z.optional(z.number().check(rule(isWholeAtLeast(0), 'must be a whole number, 0 or more'))),
      }),
    ),
  });
}

/** @internal */
export function contactSchema() {
  return object({ firstName: optionalText(), lastName: optionalText(), phone: optionalText(), email: optionalText() });
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
  return openObject({ amount: z.optional(z.number().check(rule((value: number) => value >= 0, 'must not be negative'))) });
}

/** @internal */
export function escrowInfoSchema() {
  return object({ amountToBeCollected: z.optional(z.number().check(rule((value: number) => value >= 0, 'must not be negative'))) });
}

/** @internal */
export function fulfillmentInfoSchema() {
  return openObject({
    items: z
      .array(
        object({
          sku: filledText(),
          quantity: z.number().check(rule(isWholeAtLeast(1), 'must be a whole number of at least 1')),
          name: optionalText(),
        }),
      )
      .check(z.minLength(1)),
  });
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
    crossField((headers, report) => {
      for (const [name, value] of Object.entries(headers)) {
        if (!isHeaderName(name)) report([name], 'is not a valid HTTP header name');
        if (typeof value !== 'string') report([name], value === undefined ? 'required' : `must be a string (got ${describeValue(value)})`);
        else if (!isSafeHeaderValue(value)) report([name], 'must not contain CR, LF or NUL');
      }
    }),
  );
}

/** @internal `cod` of orders that collect money (Deliver, Exchange, fulfillment send): 0 to 30000. */
export function collectedCodSchema() {
  return z.number().check(
    rule((cod: number) => cod >= 0, 'must not be negative: a refund (negative cod) is only for Customer Return Pickups'),
    coded((cod: number) => cod <= COD_LIMIT, `must be at most ${COD_LIMIT} EGP`, ErrorCode.CodLimitExceeded),
  );
}

/** @internal `cod` of a Cash Collection: more than 0 (3006, like a missing one) and at most 30000. */
export function cashCollectionCodSchema() {
  return z.number().check(
    coded((cod: number) => cod > 0, 'must be more than 0 for Cash Collection orders', ErrorCode.CodRequired),
    coded((cod: number) => cod <= COD_LIMIT, `must be at most ${COD_LIMIT} EGP`, ErrorCode.CodLimitExceeded),
  );
}

/** @internal `cod` of a return (CRP, fulfillment return): only a refund, a negative amount of at most 30000. */
export function refundCodSchema() {
  return z.number().check(
    coded((cod: number) => cod <= 0, 'must be a refund (a negative amount) or 0 on a return', ErrorCode.CrpRefundCodOnly),
    coded((cod: number) => cod >= -COD_LIMIT, `a refund must be at most ${COD_LIMIT} EGP (cod >= -${COD_LIMIT})`, ErrorCode.RefundCodLimitExceeded),
  );
}
