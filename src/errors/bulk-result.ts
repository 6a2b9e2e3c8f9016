// What createBulk reports, kept beside the errors: BulkCreationError carries it, and an error
// module never imports from namespaces (imports point down).
import type { DeliveryError } from './base.js';

/**
 * An order `createBulk` created, with its index in your input. The service answers a bulk
 * upload with the ids it created, not which id is whose: `_id` is set only when that is
 * certain (one order created by its request, or an answer that names each order); otherwise
 * find the order by its `businessReference`, or among `createdIds` of the result.
 */
export interface BulkCreatedDelivery {
  /** Position of the order in the input of `createBulk`. */
  index: number;
  /** The order's id, when the answer ties one to this order. */
  _id?: string | undefined;
  /** The tracking number, when the answer carries it (the bulk answer usually does not). */
  trackingNumber?: string | undefined;
  /** As you sent it. */
  businessReference?: string | undefined;
  /**
   * True when the service refused the order because its `uniqueBusinessReference` is already
   * held: the order exists (sent again after an upload whose answer was lost), `trackingNumber`
   * is the one the refusal named.
   */
  alreadyExisted?: boolean | undefined;
  [field: string]: unknown;
}

/** An order `createBulk` sent that was not (or not surely) created. */
export interface BulkFailure {
  /** Position of the order in the input of `createBulk`. */
  index: number;
  /**
   * Why: the order's own error when the answer names it (the service's `errorMessage` as the
   * message; the code's class, e.g. `CodLimitExceededError`, when it gives a known code), else
   * the error of its whole chunk, or a `ResponseShapeError` quoting the service's messages when
   * the answer could not be matched to this order.
   */
  error: DeliveryError;
  /**
   * True when the outcome is unknown, so the order may have been created: its chunk got no clear
   * answer (5xx, timeout, lost connection, abort while in flight), or the answer could not be
   * matched to it (failures without a `businessReference`, one sent twice, counts that do not
   * add up). Look it up before sending it again.
   */
  mayExist: boolean;
}

/** What `createBulk` did, sorted by input index. */
export interface BulkCreateResult {
  /** The orders created, each with its input `index`. */
  created: BulkCreatedDelivery[];
  /** The orders sent but not (or not surely) created, each with its error; empty on full success. */
  failed: BulkFailure[];
  /** Every id the service reported created, in the order the answers came: none is lost, even when it cannot be tied to an input. */
  createdIds: string[];
  /**
   * Set when the upload stopped before the end of the input: `at` is the index of the first
   * order not sent (it and every later one were not sent; for an iterable input, the input may
   * also have ended there), and `reason` why (a `RequestAbortedError` after an abort; an error
   * every chunk would get, such as `AuthenticationError` or `BusinessLocationRequiredError`; a
   * `DeliveryError` whose `cause` is what your iterable threw, when reading it failed part-way).
   */
  stopped?: { at: number; reason: DeliveryError } | undefined;
}

/** Orders results by their input index. */
export const byIndex = (a: { index: number }, b: { index: number }): number => a.index - b.index;
