/**
 * What the calls after creation take (live-service.md): changes to an order, pickup requests and
 * fee quotes. The rules are the order's own (cod limits, address rules, phone), reused.
 */
import * as z from 'zod/mini';
import { ErrorCode } from '../errors/codes.js';
import { isRecord, shown } from '../internal/guards.js';
import type { CheckResult } from '../internal/input.js';
import { type OrderAddress, orderAddressSchema, type PickupLocationEntry, pickupLocationShape } from './address.js';
import { changeShape, codedRule, contactPhone, filledText, object, optional, rule } from './fields.js';
import { checkWith, rejected } from './issues.js';
import { lazy } from './lazy.js';
import {
  COD_LIMIT,
  type Contact,
  cashCollectionCodSchema,
  collectedCodSchema,
  contactSchema,
  type GoodsInfo,
  goodsInfoSchema,
  type PackageSpecs,
  refundCodSchema,
  specsSchema,
} from './order-parts.js';
import { isPickupDate, PICKUP_TIME_SLOTS, type PickupDate, type PickupTimeSlot } from './pickup-date.js';

/**
 * What `deliveries.update` may change (the fields the integrations send). A field left out is kept;
 * `null` clears an optional one (`notes`), and is refused for one the order needs.
 */
export interface DeliveryChanges {
  notes?: string | null | undefined;
  /** Left out to keep it; never null, which would wipe the order's customer. */
  receiver?: Contact | undefined;
  /** Left out to keep it; never null, which would wipe the order's address. */
  dropOffAddress?: OrderAddress | undefined;
  /** Checked against the limits of the order's type when you pass the order you read; else against ±30000 EGP. Left out to keep it, never null. */
  cod?: number | undefined;
  goodsInfo?: GoodsInfo | null | undefined;
  specs?: PackageSpecs | null | undefined;
  businessReference?: string | null | undefined;
}

/** Who the courier meets at a pickup. */
export interface PickupContact {
  name: string;
  /** 8 to 15 digits, an optional leading `+`, spaces or dashes between; sent digits only, an Egyptian number as `01…`. */
  phone: string;
  email?: string | null | undefined;
}

/** A pickup location to add (`POST /pickup-locations`): the spec's pickup location entry, and who the courier meets there. */
export interface PickupLocationInput extends PickupLocationEntry {
  contactPerson?: PickupContact | undefined;
}

/**
 * Changes to a pickup location (`PUT /pickup-locations/{id}`): any of its fields. One left out is
 * kept; `locationName` (how lists and the dashboard name it), `districtId`, `firstLine` and
 * `contactPerson`, which a location needs, are never null: the service would store the null.
 */
export type PickupLocationChanges = Omit<Partial<PickupLocationInput>, 'locationName'> & { locationName?: string | undefined };

/** A pickup request (`POST /pickups`). Fields the SDK does not list (`packageType`, `repeatedData`, ...) are sent as given. */
export interface PickupInput {
  /** The pickup location's `_id` (`pickupLocations.list()`). */
  businessLocationId: string;
  scheduledDate: PickupDate;
  scheduledTimeSlot: PickupTimeSlot;
  contactPerson: PickupContact;
  notes?: string | null | undefined;
  /** How many parcels the courier collects: a whole number of at least 1. */
  numberOfParcels?: number | null | undefined;
  [field: string]: unknown;
}

/** Changes to a pickup request (`PUT /pickups/{id}`): any of its fields. */
export type PickupChanges = Partial<PickupInput>;

/** `size` of a fee quote. */
export type PricingSize = 'Normal' | 'Light Bulky' | 'Heavy Bulky';

/** A fee quote (`GET /pricing/shipment/calculator`). */
export interface PriceQuery {
  /** City names, as `lookup.cities` gives them. */
  dropOffCity: string;
  pickupCity: string;
  /** Cash on delivery, 0 to 30000 EGP. Default 0. */
  cod?: number | undefined;
  /** Default `'SEND'`. */
  type?: 'SEND' | (string & {}) | undefined;
  /** Default `'Normal'`. */
  size?: PricingSize | undefined;
}

const DATE_RULE = 'must be a calendar date written YYYY-MM-DD, e.g. 2026-03-14';

/** cod checked by the order's type when it is known (the create rules), else only against the limits both ways. */
function codSchemaFor(typeCode: unknown) {
  if (typeCode === 15) return cashCollectionCodSchema();
  if (typeCode === 25) return refundCodSchema();
  if (typeCode === 10 || typeCode === 30) return collectedCodSchema();
  return z.number().check(
    codedRule((cod: number) => cod <= COD_LIMIT, `must be at most ${COD_LIMIT} EGP`, ErrorCode.CodLimitExceeded, { maximum: COD_LIMIT }),
    codedRule((cod: number) => cod >= -COD_LIMIT, `a refund must be at most ${COD_LIMIT} EGP (cod >= -${COD_LIMIT})`, ErrorCode.RefundCodLimitExceeded, {
      minimum: -COD_LIMIT,
    }),
  );
}

// `receiver`, `dropOffAddress` and `cod` may be left out, never null: the service would store null
// over the order's customer, address or amount to collect. The others may be null (cleared).
/** @internal */
export const changesSchema = (typeCode: unknown) =>
  object({
    notes: optional(z.string()),
    receiver: z.optional(contactSchema()),
    dropOffAddress: z.optional(orderAddressSchema()),
    cod: z.optional(codSchemaFor(typeCode)),
    goodsInfo: optional(goodsInfoSchema()),
    specs: optional(specsSchema()),
    businessReference: optional(z.string()),
  });

const CHANGES_SUBJECT = 'Invalid changes';

/**
 * Internal: The changes to send, checked with the create rules that apply to them; `typeCode` (from an
 * order just read) picks the cod rules of its type.
 */
export function checkChanges(input: unknown, typeCode: unknown, skip: ReadonlySet<number>): CheckResult<DeliveryChanges> {
  if (!isRecord(input)) return rejected(CHANGES_SUBJECT, { path: [], message: `expected an object of the fields to change, received ${shown(input)}` });
  // The wire form has no undefined values: an object with none left names nothing.
  if (Object.keys(input).length === 0) return rejected(CHANGES_SUBJECT, { path: [], message: 'names nothing to change' });
  return checkWith(changesSchema(typeCode), input, CHANGES_SUBJECT, skip) as CheckResult<DeliveryChanges>;
}

const contactPersonSchema = lazy(() => object({ name: filledText(), phone: contactPhone(), email: optional(z.string()) }));
const pickupFields = () => ({
  businessLocationId: filledText(),
  scheduledDate: z.string().check(rule(isPickupDate, DATE_RULE, { pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
  scheduledTimeSlot: z.enum(PICKUP_TIME_SLOTS as [PickupTimeSlot, ...PickupTimeSlot[]]),
  contactPerson: contactPersonSchema(),
  notes: optional(z.string()),
  numberOfParcels: optional(
    z.number().check(rule((n: number) => Number.isSafeInteger(n) && n >= 1, 'must be a whole number, 1 or more', { type: 'integer', minimum: 1 })),
  ),
});
/** @internal */
export const pickupSchema = lazy(() => object(pickupFields()));
/** @internal */
export const pickupChangesSchema = lazy(() => object(changeShape(pickupFields())));

/** Internal: A pickup request checked before sending. */
export function checkPickup(input: unknown, skip: ReadonlySet<number>): CheckResult<PickupInput> {
  return checkWith(pickupSchema(), input, 'Invalid pickup', skip) as CheckResult<PickupInput>;
}

// `contactPerson` may be left out of a new location, never null: the courier needs someone to meet.
/** @internal */
export const pickupLocationSchema = lazy(() => object({ ...pickupLocationShape(), contactPerson: z.optional(contactPersonSchema()) }));
// A location keeps its name: a change may rename it, never clear it (a new one may leave it out, and the service names it).
/** @internal */
export const pickupLocationChangesSchema = lazy(() =>
  object(changeShape({ ...pickupLocationShape(), locationName: z.string(), contactPerson: contactPersonSchema() })),
);

/** Internal: A pickup location to add, checked before sending. */
export function checkPickupLocation(input: unknown): CheckResult<PickupLocationInput> {
  return checkWith(pickupLocationSchema(), input, 'Invalid pickup location') as CheckResult<PickupLocationInput>;
}

/** Internal: Changes to a pickup location checked before sending. */
export function checkPickupLocationChanges(input: unknown): CheckResult<PickupLocationChanges> {
  if (isRecord(input) && Object.keys(input).length === 0) return rejected('Invalid pickup location changes', { path: [], message: 'names nothing to change' });
  return checkWith(pickupLocationChangesSchema(), input, 'Invalid pickup location changes') as CheckResult<PickupLocationChanges>;
}

/** Internal: Changes to a pickup request checked before sending. */
export function checkPickupChanges(input: unknown, skip: ReadonlySet<number>): CheckResult<PickupChanges> {
  if (isRecord(input) && Object.keys(input).length === 0) return rejected('Invalid pickup changes', { path: [], message: 'names nothing to change' });
  return checkWith(pickupChangesSchema(), input, 'Invalid pickup changes', skip) as CheckResult<PickupChanges>;
}

/** @internal */
export const priceQuerySchema = lazy(() =>
  object({
    dropOffCity: filledText(),
    pickupCity: filledText(),
    cod: z.optional(collectedCodSchema()),
    type: z.optional(filledText()),
    size: z.optional(z.enum(['Normal', 'Light Bulky', 'Heavy Bulky'])),
  }),
);

/** Internal: A fee query checked before sending. */
export function checkPriceQuery(input: unknown, skip: ReadonlySet<number>): CheckResult<PriceQuery> {
  return checkWith(priceQuerySchema(), input, 'Invalid price query', skip) as CheckResult<PriceQuery>;
}
