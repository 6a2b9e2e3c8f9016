import * as z from 'zod/mini';
import { ErrorCode } from '../errors/codes.js';
import { isFilled, isRecord } from '../internal/guards.js';
import type { CheckResult } from '../internal/input.js';
import { onWire } from '../internal/input.js';
import { crossField, filledText, object, optional, rule } from './fields.js';
import { checkWith, unwrap } from './issues.js';
import { lazy } from './lazy.js';

/**
 * Fields every address format shares besides its location. `null` means "not given", as for
 * every optional field. Building, floor and apartment may be numbers, as the service's own PHP
 * and Python SDKs send them; they are sent as given.
 */
export interface AddressDetails {
  /** Nearby landmark. */
  secondLine?: string | null | undefined;
  buildingNumber?: string | number | null | undefined;
  floor?: string | number | null | undefined;
  /** Apartment number. */
  apartment?: string | number | null | undefined;
  isWorkAddress?: boolean | null | undefined;
}

/**
 * An order address in the spec's first format: the district by id.
 *
 * `city` is listed as required by the spec's table, yet the service's own rule (3009) asks only
 * for one of `city`, `zoneId` or `districtId`; the SDK refuses nothing the service accepts, so
 * `city` is optional here. Sending it (from `lookup.cities`) is still the safe choice.
 */
export interface Address extends AddressDetails {
  /** From the district lists (`lookup.districts`, `lookup.allDistricts`). */
  districtId: string;
  /** Address line 1; longer than 5 characters. */
  firstLine: string;
  /** City name from `lookup.cities`. */
  city?: string | null | undefined;
  /** From the city's zones list. */
  zoneId?: string | null | undefined;
}

/**
 * An order address in the spec's second format: the district by name, within `cityId`.
 * The service also needs `city` or `zoneId` here (errorCode 3009 otherwise), which the type
 * already requires.
 */
export type AddressByDistrictName = AddressDetails & {
  cityId: string;
  districtName: string;
  /** Address line 1; longer than 5 characters. */
  firstLine: string;
  /** Not used in this format. */
  districtId?: null | undefined;
} & ({ city: string; zoneId?: string | null | undefined } | { zoneId: string; city?: string | null | undefined });

/** An address of a delivery (`dropOffAddress`, `pickupAddress`), in either format. */
export type OrderAddress = Address | AddressByDistrictName;

/**
 * The `pickupAddress` of an order in marketplace mode (business created with
 * `autoCreatePickups: true`): `firstLine` and `city` are enough, the service creates the pickup
 * location itself.
 */
export interface MarketplacePickupAddress extends AddressDetails {
  city: string;
  /** Longer than 5 characters. */
  firstLine: string;
  districtId?: string | null | undefined;
  zoneId?: string | null | undefined;
  /** Zone name, as in the spec's marketplace example. */
  zone?: string | null | undefined;
  /** District name, as in the spec's marketplace example. */
  district?: string | null | undefined;
}

/** One entry of `pickupAddress` when updating a business: a pickup location. */
export interface PickupLocationEntry {
  locationName?: string | null | undefined;
  /** From the all-districts list (`lookup.allDistricts`). */
  districtId: string;
  /** At least 5 characters. */
  firstLine: string;
  buildingNumber?: string | number | null | undefined;
  floor?: string | number | null | undefined;
  apartment?: string | number | null | undefined;
  /** Landmarks and further detail. */
  secondLine?: string | null | undefined;
}

const optionalText = () => optional(z.string());
/** Building, floor, apartment: a string, or a number as the service's own SDKs send it. */
const optionalTextOrNumber = () => optional(z.union([z.string(), z.number()]));

/** Every field of both formats and of the marketplace shape; which ones are needed is the rules' business. */
function addressShape() {
  return {
    city: optionalText(),
    cityId: optionalText(),
    districtId: optionalText(),
    districtName: optionalText(),
    zoneId: optionalText(),
    zone: optionalText(),
    district: optionalText(),
    firstLine: z.string().check(rule<string>((line) => line.trim().length > 5, 'must be longer than 5 characters', { minLength: 6 })),
    secondLine: optionalText(),
    buildingNumber: optionalTextOrNumber(),
    floor: optionalTextOrNumber(),
    apartment: optionalTextOrNumber(),
    isWorkAddress: optional(z.boolean()),
  };
}

/**
 * The location rules of the spec's address formats. 3009 first: with none of city, zoneId and
 * districtId nothing else can be judged. Then the district: by id, or by name with `cityId`;
 * a marketplace pickup address may name only its city.
 */
function locationRules(acceptCityAlone: boolean) {
  return crossField((address, report) => {
    const hasDistrictId = isFilled(address['districtId']);
    if (!isFilled(address['city']) && !isFilled(address['zoneId']) && !hasDistrictId) {
      report([], 'needs at least one of city, zoneId or districtId', ErrorCode.AddressLocationRequired);
      return;
    }
    if (hasDistrictId) return;
    // What the service needs of a district by name (its second format): cityId, and city or zoneId besides (3009 otherwise).
    if (isFilled(address['districtName'])) {
      if (!isFilled(address['cityId'])) report(['cityId'], 'required with districtName, as is city (or zoneId)');
      return;
    }
    if (acceptCityAlone && isFilled(address['city'])) return;
    report(['districtId'], `required, or districtName with cityId and city (or zoneId)${acceptCityAlone ? ', or city in marketplace mode' : ''}`);
  }, locationSchema(acceptCityAlone));
}

/** {@link locationRules} in JSON Schema, by the fields present (the rules ask them filled too). */
const locationSchema = (acceptCityAlone: boolean) => ({
  allOf: [
    { anyOf: [{ required: ['city'] }, { required: ['zoneId'] }, { required: ['districtId'] }] },
    { anyOf: [{ required: ['districtId'] }, { required: ['districtName', 'cityId'] }, ...(acceptCityAlone ? [{ required: ['city'] }] : [])] },
  ],
});

/** @internal Fields shared by every order address type, as the schemas produce them. */
export type AddressFields = z.output<ReturnType<typeof orderAddressSchema>>;

/** @internal `dropOffAddress`, and any address given to `validateAddress`. */
export const orderAddressSchema = lazy(() => object(addressShape(), locationRules(false)));

/** @internal `pickupAddress`: an order address, or the marketplace shape (firstLine and city). */
export const pickupAddressSchema = lazy(() => object(addressShape(), locationRules(true)));

/** @internal The fields of a pickup location entry (the spec's), for the array here and the single location of after-create.ts. */
export const pickupLocationShape = () => ({
  locationName: optionalText(),
  districtId: filledText(),
  firstLine: z.string().check(rule<string>((line) => line.trim().length >= 5, 'must be at least 5 characters', { minLength: 5 })),
  buildingNumber: optionalTextOrNumber(),
  floor: optionalTextOrNumber(),
  apartment: optionalTextOrNumber(),
  secondLine: optionalText(),
});

const pickupLocationsSchema = lazy(() => z.array(object(pickupLocationShape())).check(z.minLength(1)));

/**
 * Checks an order address (either format) against the spec's rules and returns it as it
 * will be sent.
 *
 * @throws `AddressLocationRequiredError` (3009) none of `city`, `zoneId`, `districtId`.
 * @throws `ValidationError` any other problem, each with its field path (`firstLine` of 5
 * characters or less, `districtName` without `cityId`, a field of the wrong type, ...).
 *
 * @example
 * ```ts
 * const address = validateAddress({ city: 'Cairo', districtId: 'aiJudRHeOt', firstLine: '12 Talaat Harb Street' });
 * ```
 */
export function validateAddress(input: unknown): OrderAddress {
  return unwrap(onWire(input, (wire) => checkWith(orderAddressSchema(), wire, 'Invalid address'))) as OrderAddress;
}

/**
 * Checks the pickup locations of a business update (`PUT /businesses/<id>`, field
 * `pickupAddress`): a non-empty array, each with `districtId` and a `firstLine` of at least 5
 * characters. Paths in the error start at the array index (`[1].firstLine`).
 *
 * @throws `ValidationError` listing every problem.
 *
 * @example
 * ```ts
 * const locations = validatePickupLocations([{ locationName: 'Main store', districtId: 'aiJudRHeOt', firstLine: '12 Talaat Harb' }]);
 * ```
 */
export function validatePickupLocations(input: unknown): PickupLocationEntry[] {
  return unwrap(onWire(input, checkPickupLocations));
}

const checkPickupLocations = (wire: unknown): CheckResult<PickupLocationEntry[]> => checkWith(pickupLocationsSchema(), wire, 'Invalid pickup locations');

/**
 * Internal: The body of a business update, `{ pickupAddress: [...] }`, on its wire form (see
 * check.ts); paths in the error start at the array index, as {@link validatePickupLocations} gives them.
 */
export function checkPickupLocationsUpdate(wire: unknown): CheckResult<{ pickupAddress: PickupLocationEntry[] }> {
  const checked = checkPickupLocations(isRecord(wire) ? wire['pickupAddress'] : undefined);
  return checked.ok ? { ok: true, value: { ...(wire as Record<string, unknown>), pickupAddress: checked.value } } : checked;
}
