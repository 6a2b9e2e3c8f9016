/**
 * What makes a create safe to repeat: the order's `uniqueBusinessReference`, and the read-back of
 * the order a first attempt made when the service refuses the repeat. Shared by every create of
 * one order (`deliveries.create`, `fulfillment.create`, `fulfillment.createReturn`).
 */
import type { WithResponse } from '../../core/api-promise.js';
import { type DeliveryError, DuplicateOrderError } from '../../errors/index.js';
import { isFilled, isRecord } from '../../internal/guards.js';
import { onFirstUse } from '../../internal/on-first-use.js';
import type { RepeatedCall } from '../endpoint.js';
import type { CreatedDelivery } from './records.js';

/**
 * Whether the order, as it is sent, carries a `uniqueBusinessReference`: the service refuses a
 * second order with the same one (one source says so), so sending it again after an unknown
 * outcome cannot create a second order.
 */
export const hasUniqueReference = (sent: unknown): boolean => isRecord(sent) && isFilled(sent['uniqueBusinessReference']);

/** The read-back of a repeated create: loaded only when a repeat is refused. */
const repeatedCreate = onFirstUse(() => import('./repeated-create.js'));

/**
 * A create the SDK repeated after an unknown outcome, refused because the order's
 * `uniqueBusinessReference` is taken: the first attempt made it, and the call resolves with that
 * order (repeated-create.ts). Any other failure, or one the read-back cannot settle, is the
 * caller's, saying `mayExist`.
 */
export function recoverRepeatedCreate(refusal: DeliveryError, call: RepeatedCall): Promise<WithResponse<CreatedDelivery>> {
  if (!(refusal instanceof DuplicateOrderError)) return Promise.reject(refusal);
  return repeatedCreate.load().then(
    ({ orderHoldingReference }) => orderHoldingReference(refusal, call),
    () => Promise.reject(refusal),
  );
}
