/** A customer's record by phone: the cash-on-delivery risk. */
import { DeliveryState, isFinalState } from '../../catalogue/states.js';
import { ConfigurationError, DeliveryError, PartialResultError, ValidationError } from '../../errors/index.js';
import { totalDeadline } from '../../internal/deadline.js';
import { isPhoneNumber, PHONE_RULE } from '../../schemas/predicates.js';
import { coreInternals, type DeliveryCore, requireCore } from '../delivery-core.js';
import { type PagedReadOptions, type PagingTally, searchPages } from './reads.js';

/**
 * What a customer did with the orders sent to their phone: the cash-on-delivery risk a checkout
 * weighs before offering COD.
 */
export interface CustomerHistory {
  /** Every order found for the phone, in any spelling of it. */
  total: number;
  /** Orders delivered (45). */
  delivered: number;
  /** Orders returned to the business (46): refused, or not collected. */
  returned: number;
  /** Orders still on their way (not in a final state). */
  pending: number;
  /** `delivered / (delivered + returned)`, from 0 to 1; undefined while the customer has neither. */
  rate: number | undefined;
  /**
   * Orders the service answered again on a later page (it repeated pages), each counted once:
   * 0 when the paging was clean. Not in `total`.
   */
  repeated: number;
}

/** Pages read at most by default: 1,000 orders at 50 a page, more than any one customer's. */
const DEFAULT_MAX_PAGES = 20;

/**
 * A customer's history by phone (`POST /deliveries/search` with `mobilePhones`, every page), for
 * the cash-on-delivery risk: `{ total, delivered, returned, pending, rate }`, `rate` being
 * delivered over delivered and returned (undefined for a new customer). The phone is searched in
 * each of its spellings (`01011112222`, `+201011112222`, Arabic digits), as the service stores it
 * as typed. Bounded by `maxPages` (default 20) and by `totalTimeout`, the whole read. Each order
 * is counted once: when the service answers an order again on a later page, `repeated` says how
 * many were skipped.
 *
 * @operation deliveries.customerHistory
 * @chunk afterCreate
 * @calls deliveries.search
 *
 * @throws `ValidationError` for a phone that is not one, before sending.
 * @throws `PartialResultError` when a page fails after others were read: `partial` is the history
 * of the orders counted so far, `cause` the failure (a `PagingError` past `maxPages`, a `TimeoutError`).
 *
 * @example
 * ```ts
 * const history = await client.deliveries.customerHistory('01012345678');
 * if (history.rate !== undefined && history.rate < 0.5) console.warn('Ask this customer to pay online');
 * ```
 */
export async function customerHistory(core: DeliveryCore, phone: string, options?: PagedReadOptions): Promise<CustomerHistory> {
  requireCore(core);
  if (typeof phone !== 'string' || !isPhoneNumber(phone)) {
    throw new ValidationError([{ path: ['phone'], message: PHONE_RULE }], {
      subject: 'Invalid customer phone',
    });
  }
  const history: CustomerHistory = { total: 0, delivered: 0, returned: 0, pending: 0, rate: undefined, repeated: 0 };
  let read: PagedReadOptions;
  try {
    read = { maxPages: DEFAULT_MAX_PAGES, ...options };
  } catch (cause) {
    throw new ConfigurationError('Request options could not be read.', { cause });
  }
  const tally: PagingTally = { pages: 0, repeated: 0 };
  const deadlineAt = totalDeadline(coreInternals(core), read);
  try {
    for await (const order of searchPages(core, { mobilePhones: [phone] }, read, deadlineAt, tally)) {
      const state = order.state?.code;
      history.total += 1;
      if (state === DeliveryState.Delivered) history.delivered += 1;
      else if (state === DeliveryState.ReturnedToBusiness) history.returned += 1;
      else if (typeof state !== 'number' || !isFinalState(state)) history.pending += 1;
    }
  } catch (error) {
    // The pages read are a result too: a history of the orders counted so far, marked as such.
    if (!(error instanceof DeliveryError) || tally.pages === 0) throw error;
    throw new PartialResultError(`customerHistory counted ${history.total} orders on ${tally.pages} pages, then stopped`, {
      partial: finished(history, tally),
      cause: error,
    });
  }
  return finished(history, tally);
}

function finished(history: CustomerHistory, tally: PagingTally): CustomerHistory {
  const settled = history.delivered + history.returned;
  return { ...history, rate: settled === 0 ? undefined : history.delivered / settled, repeated: tally.repeated };
}
