import { type ApiError, DeliveryError } from './base.js';
import type { ErrorClassByCode } from './coded.js';
import type { ErrorCode } from './codes.js';

// Everything the error modules export, for the SDK's own imports; the entries (src/index.ts,
// webhooks/index.ts) name what they publish.
export * from './base.js';
export * from './coded.js';
export * from './codes.js';
export { OrderStateError } from './order-state.js';
export * from './places.js';

/** The error a code narrows to: its own class for spec codes, an `ApiError` carrying it otherwise. */
export type DeliveryErrorFor<C extends number> = C extends ErrorCode ? ErrorClassByCode[C] : ApiError & { readonly errorCode: C };

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
