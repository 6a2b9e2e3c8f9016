import type { WithResponse } from '../../core/api-promise.js';
import type { DuplicateOrderError } from '../../errors/index.js';
import { leftOf } from '../../internal/deadline.js';
import { isFilled, isRecord } from '../../internal/guards.js';
import type { RepeatedCall } from '../endpoint.js';
import { findDeliveryByReference, getDelivery } from './reads.js';
import type { CreatedDelivery, DeliveryRecord } from './records.js';

/**
 * How much earlier than the call an order may say it was created and still be the call's own:
 * the service's clock and this machine's may disagree by a few minutes. An order older than that
 * held the reference before the call began (yesterday's checkout), so it is not the answer.
 */
const CLOCK_SKEW_MS = 10 * 60_000;

/**
 * The order a create's first attempt made, once its repeat was refused because that order holds
 * the `uniqueBusinessReference`: a repeated idempotent request answers with the first result (as
 * in Stripe). Found by the tracking number the refusal names, else among the orders carrying the
 * order's `businessReference`, within what is left of the call's `totalTimeout`. Rejects with
 * `refusal` itself (its `mayExist` true) when the order cannot be found, the lookup fails, or the
 * order was created before the call began.
 */
export async function orderHoldingReference(refusal: DuplicateOrderError, call: RepeatedCall): Promise<WithResponse<CreatedDelivery>> {
  // The lookup failing must not hide the order: the caller then gets the refusal, which says `mayExist`.
  const found = await readBack(refusal, call).catch(() => undefined);
  if (found === undefined) throw refusal;
  const { data: order, response } = found;
  const createdAt = typeof order.createdAt === 'string' ? Date.parse(order.createdAt) : Number.NaN;
  if (createdAt < call.startedAt - CLOCK_SKEW_MS) throw refusal;
  const { type, ...rest } = order;
  const created = { ...rest, _id: order._id, trackingNumber: order.trackingNumber, ...(type?.code === undefined ? {} : { type: type.code }) };
  return { data: created as CreatedDelivery, response };
}

/** The order holding the reference, read by the tracking number the refusal names, else found by the order's `businessReference`. */
async function readBack(refusal: DuplicateOrderError, { core, sent, options, deadlineAt }: RepeatedCall): Promise<WithResponse<DeliveryRecord> | undefined> {
  // Both reads end with the call: neither starts once its totalTimeout has passed.
  let trackingNumber = refusal.trackingNumber;
  const reference = isRecord(sent) ? sent['businessReference'] : undefined;
  if (trackingNumber === undefined && isFilled(reference)) {
    const unique = isRecord(sent) ? sent['uniqueBusinessReference'] : undefined;
    const found = await findDeliveryByReference(core, reference, leftOf(options, deadlineAt));
    // A record that shows its unique reference must show this one.
    if (found !== undefined && (found['uniqueBusinessReference'] === undefined || found['uniqueBusinessReference'] === unique))
      trackingNumber = found.trackingNumber;
  }
  if (trackingNumber === undefined) return undefined;
  const read = leftOf(options, deadlineAt);
  return getDelivery(core, trackingNumber, read).withResponse();
}
