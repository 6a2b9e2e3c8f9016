import type { WithResponse } from '../../core/api-promise.js';
import type { RequestOptions } from '../../core/options.js';
import type { DuplicateOrderError } from '../../errors/index.js';
import { leftOf } from '../../internal/deadline.js';
import { isFilled, isRecord } from '../../internal/guards.js';
import type { DeliveryCore } from '../delivery-core.js';
import { type RepeatedCall, sendBuilt } from '../endpoint.js';
import { createdTime, deliveryPage, getDelivery } from './reads.js';
import type { CreatedDelivery, DeliveryRecord } from './records.js';

/**
 * How much earlier than the call an order may say it was created and still be the call's own:
 * the service's clock and this machine's may disagree by a few minutes. An order older than that
 * held the reference before the call began (yesterday's checkout), so it is not the answer.
 */
const CLOCK_SKEW_MS = 10 * 60_000;

/** Orders a page of the search by reference asks for, and the pages it reads at most (within the call's `totalTimeout`). */
const PAGE_SIZE = 50;
const MAX_PAGES = 20;

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
    trackingNumber = (await holderByReference(core, reference, unique, options, deadlineAt))?.trackingNumber;
  }
  if (trackingNumber === undefined) return undefined;
  const read = leftOf(options, deadlineAt);
  return getDelivery(core, trackingNumber, read).withResponse();
}

/**
 * The last created of the orders carrying exactly `reference` whose unique reference, where the
 * record shows one, is `unique`: the search's pages read one after another until a short one.
 * A walk of its own, not `findDeliveryByReference`: that one shares its code with the search the
 * `delivery-sdk/functions` entry exports, so a page that creates an order through that entry
 * would load the whole search at once to keep this rare path ready (docs/performance.md).
 */
async function holderByReference(
  core: DeliveryCore,
  reference: string,
  unique: unknown,
  options: RequestOptions,
  deadlineAt: number,
): Promise<DeliveryRecord | undefined> {
  // The search reads a comma as a separator between references: such a reference cannot be found by it.
  if (reference.includes(',')) return undefined;
  let holder: DeliveryRecord | undefined;
  let previous = '';
  for (let page = 1; page <= MAX_PAGES; page++) {
    const body = JSON.stringify({ businessReference: reference, page, limit: PAGE_SIZE });
    const { data } = await sendBuilt(
      core,
      { method: 'POST', path: '/deliveries/search', json: body, reads: true, idempotent: true, transform: deliveryPage },
      leftOf(options, deadlineAt),
    );
    const numbers = data.deliveries.map((order) => order.trackingNumber).join(',');
    // A page that repeats the one before: the service ignored `page`, and there is nothing more to read.
    if (numbers === previous) break;
    previous = numbers;
    for (const order of data.deliveries) {
      if (order.businessReference !== reference) continue;
      if (order['uniqueBusinessReference'] !== undefined && order['uniqueBusinessReference'] !== unique) continue;
      if (holder === undefined || createdTime(order) > createdTime(holder)) holder = order;
    }
    if (data.deliveries.length < (data.limit ?? PAGE_SIZE)) break;
  }
  return holder;
}
