/**
 * Every `errorCode` of the spec's Errors table, by name.
 *
 * @example
 * ```ts
 * if (isDeliveryError(err, ErrorCode.CodLimitExceeded)) console.log(err.message);
 * ```
 */
export const ErrorCode = {
  /** 1061: some deliveries of a bulk upload failed; fix them and upload again. */
  BulkCreationFailed: 1061,
  /** 1073: the business needs a pickup location before it can create an order. */
  BusinessLocationRequired: 1073,
  /** 2150: `allowToOpenPackage` is true but `deliveryImages` is missing or empty. */
  DeliveryImagesRequired: 2150,
  /** 2151: a URL in `deliveryImages` is invalid. */
  InvalidDeliveryImageUrl: 2151,
  /** 2152: images of one type mix dashboard uploads and external links. */
  MixedDeliveryImageSources: 2152,
  /** 3001: the city is unknown. */
  CityNotFound: 3001,
  /** 3002: the zone is unknown. */
  ZoneNotFound: 3002,
  /** 3003: the district is unknown. */
  DistrictNotFound: 3003,
  /** 3004: the street code is unknown. */
  StreetCodeNotFound: 3004,
  /** 3005: a Customer Return Pickup accepts only a refund COD (a negative amount). */
  CrpRefundCodOnly: 3005,
  /** 3006: a Cash Collection order needs `cod`. */
  CodRequired: 3006,
  /** 3007: `cod` is above 30000 EGP. */
  CodLimitExceeded: 3007,
  /** 3008: a refund COD is above 30000 EGP. */
  RefundCodLimitExceeded: 3008,
  /** 3009: the address has none of `city`, `zoneId` or `districtId`. */
  AddressLocationRequired: 3009,
} as const;

/** One of the spec's error codes. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The spec's own meaning of each code, for messages and docs. */
export const errorCodeMeaning: Readonly<Record<ErrorCode, string>> = {
  1061: 'Some deliveries failed, fix them and upload again',
  1073: 'A business location is needed before creating an order',
  2150: 'Product images are required when allowToOpenPackage is enabled',
  2151: 'Invalid delivery image URL',
  2152: 'Images for the same type must all be uploaded the same way, all from the dashboard or all external links, not mixed',
  3001: 'City Not Found',
  3002: 'Zone Not Found',
  3003: 'District Not Found',
  3004: 'Street Code Not Found',
  3005: 'CRP orders accept only refund COD values',
  3006: 'COD is required for Cash Collection orders',
  3007: 'COD must be at most 30000 EGP',
  3008: 'Refund COD must be at most 30000 EGP',
  3009: 'city, zoneId, or districtId is required',
};

/** @internal An `errorCode` as the service sends it: digits (`"3007"`) as their number, anything else as it is. */
export function errorCodeFromWire(raw: unknown): unknown {
  return typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
}

/** @internal Whether a number is one of the spec's error codes. */
export function isKnownErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'number' && Object.hasOwn(errorCodeMeaning, code);
}

/**
 * The errorCodes the service answers a pickup request with. They are not in the spec: one public
 * integration maps them by hand (see docs/assumptions.md), so they arrive as an `ApiError`
 * carrying the code, not as classes of their own. Narrow with
 * `isDeliveryError(err, PickupErrorCode.FridayNotAllowed)`.
 *
 * @example
 * ```ts
 * try {
 *   await client.pickups.create(pickup);
 * } catch (err) {
 *   if (isDeliveryError(err, PickupErrorCode.FridayNotAllowed)) console.warn(pickupErrorCodeMeaning[err.errorCode]);
 *   else throw err;
 * }
 * ```
 */
export const PickupErrorCode = {
  /** 1077: the pickup location needs a default contact person. */
  LocationContactRequired: 1077,
  /** 1078: a pickup is already requested for this location and date. */
  DuplicatePickup: 1078,
  /** 1080: no pickups are scheduled on Fridays. */
  FridayNotAllowed: 1080,
  /** 1081: today's cut-off time for pickup requests has passed. */
  CutOffPassed: 1081,
  /** 1083: the date is in the past. */
  DateInPast: 1083,
  /** 2022: the date is a holiday. */
  Holiday: 2022,
  /** 2027: a pickup request was already created today. */
  AlreadyRequestedToday: 2027,
} as const;

/** One of the pickup errorCodes (see {@link PickupErrorCode}). */
export type PickupErrorCode = (typeof PickupErrorCode)[keyof typeof PickupErrorCode];

/** What each pickup errorCode means, as the one integration that maps them words it. */
export const pickupErrorCodeMeaning: Readonly<Record<PickupErrorCode, string>> = {
  1077: 'The pickup location needs a default contact person',
  1078: 'A pickup is already requested for this location and date',
  1080: 'Pickups cannot be scheduled on a Friday',
  1081: "Today's cut-off time for pickup requests has passed",
  1083: 'A pickup cannot be scheduled on a date in the past',
  2022: 'The date is a holiday',
  2027: 'A pickup request was already created today',
};

/** Whether a number is one of the pickup errorCodes. */
export function isPickupErrorCode(code: unknown): code is PickupErrorCode {
  return typeof code === 'number' && Object.hasOwn(pickupErrorCodeMeaning, code);
}

/**
 * The account errorCodes public integrations meet (live-service.md, "A merchant's month"): not in
 * the spec's table, each with a class of its own so `instanceof` and {@link isDeliveryError} narrow.
 *
 * @example
 * ```ts
 * try {
 *   await client.deliveries.create(order);
 * } catch (err) {
 *   if (isDeliveryError(err, AccountErrorCode.SubscriptionRequired)) console.warn('Renew the plan in the dashboard');
 *   else throw err;
 * }
 * ```
 */
export const AccountErrorCode = {
  /** 777: the service refused fields of the request, listed in the answer's `data` (`InvalidRequestError`). */
  InvalidRequest: 777,
  /** 1028: the API key or token is not valid (`AuthenticationError`). */
  InvalidApiKey: 1028,
  /** 8000002: the business has no active bundle subscription (`SubscriptionRequiredError`), seen on order creation. */
  SubscriptionRequired: 8_000_002,
} as const;

/** One of the account errorCodes (see {@link AccountErrorCode}). */
export type AccountErrorCode = (typeof AccountErrorCode)[keyof typeof AccountErrorCode];

/** What each account errorCode means, as the integrations that meet it word it. */
export const accountErrorCodeMeaning: Readonly<Record<AccountErrorCode, string>> = {
  777: 'Validation error',
  1028: 'Invalid token or API key',
  8000002: 'Active bundle subscription required',
};
