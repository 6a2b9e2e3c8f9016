import { type ApiError, type AuthenticationError, DeliveryError, type InvalidRequestError, type SubscriptionRequiredError } from './base.js';
import type { ErrorClassByCode } from './coded.js';
import type { AccountErrorCode, ErrorCode } from './codes.js';

// Everything the error modules export, for the SDK's own imports; the entries (src/index.ts,
// webhooks/index.ts) name what they publish.
export * from './base.js';
export * from './coded.js';
export * from './codes.js';
export { OrderStateError } from './order-state.js';
export * from './places.js';

/** The class of each account errorCode ({@link AccountErrorCode}). */
export interface AccountErrorClassByCode {
  777: InvalidRequestError;
  1028: AuthenticationError;
  8000002: SubscriptionRequiredError;
}

/** The error a code narrows to: its own class for spec and account codes, an `ApiError` carrying it otherwise. */
export type DeliveryErrorFor<C extends number> = C extends ErrorCode
  ? ErrorClassByCode[C]
  : C extends AccountErrorCode
    ? AccountErrorClassByCode[C] & { readonly errorCode: C }
    : ApiError & { readonly errorCode: C };

/**
 * Whether `err` is an error of this SDK, and with `code`, one carrying that errorCode.
 *
 * @example
 * ```ts
 * try { await client.deliveries.create(order); }
 * catch (err) {
 *   if (isDeliveryError(err, ErrorCode.CodLimitExceeded)) lowerTheCod(err.issues);
 *   else if (isDeliveryError(err)) console.error(err.errorCode, err.message);
 * }
 * ```
 */
export function isDeliveryError<C extends number>(err: unknown, code: C): err is DeliveryErrorFor<C>;
export function isDeliveryError(err: unknown): err is DeliveryError;
export function isDeliveryError(err: unknown, code?: number): boolean {
  try {
    return err instanceof DeliveryError && (code === undefined || err.errorCode === code);
  } catch {
    // A revoked Proxy has no prototype to compare: whatever it is, it is no error of this SDK.
    return false;
  }
}
