/**
 * Reading what `POST /deliveries/bulk` answered about each order of one request. The service
 * answers `{ createdDeliveriesIds: string[], failedDeliveries: [{ businessReference, errorMessage }] }`
 * (on a 2xx, and in the `data` of a 1061 body): ids not tied to orders, failures named by the
 * orders' `businessReference`. The per-index shape `{ created: [{ index, _id, trackingNumber }],
 * failed: [{ index, errorCode, message }] }` is read too.
 */

import type { BulkCreatedDelivery } from '../../../errors/bulk-result.js';
import { type DeliveryError, ResponseShapeError } from '../../../errors/index.js';
import { duplicateRefusalOf } from '../../../internal/duplicate-refusal.js';
import type { bulkOrderError } from '../../../internal/error-mapping.js';
import { idString, isFilled, isRecord } from '../../../internal/guards.js';
import type { AnswerContext } from '../../endpoint.js';

type ResponseContext = Pick<AnswerContext, 'status' | 'request'>;

/**
 * What a bulk answer is read with: the request and status, for a non-2xx answer its error (the
 * service's errorCode, message and body), and the error mapping's reader of one failed order.
 */
interface BulkResponseContext extends ResponseContext {
  error?: DeliveryError | undefined;
  orderError: typeof bulkOrderError;
}

/** The service's reason for one failure, whatever its shape: it is never dropped. */
export function reasonOf(entry: Record<string, unknown>): string {
  const reason = entry['errorMessage'] ?? entry['message'] ?? 'rejected by the service';
  return typeof reason === 'string' ? reason : JSON.stringify(reason);
}

/** What the answer says of an order it did not create (or may have): the error, and whether it may exist all the same. */
export class FailedOutcome {
  constructor(
    readonly error: DeliveryError,
    readonly mayExist: boolean,
  ) {}
}

/**
 * What the answer says about the order at one position of the request: the entry of a created
 * order, as the upload reports it (its `index`, the input's, is set by the upload), or why not.
 */
type BulkOutcome = BulkCreatedDelivery | FailedOutcome;

/** A created order's entry, whole at once: setting its input index later adds no field to it. */
const createdEntry = (_id: string | undefined, businessReference: string | undefined): BulkCreatedDelivery =>
  _id === undefined
    ? businessReference === undefined
      ? { index: -1 }
      : { index: -1, businessReference }
    : businessReference === undefined
      ? { index: -1, _id }
      : { index: -1, _id, businessReference };

/** What the answer says of each position of the request (`undefined` for one it does not speak of), and every id it reports created. */
export interface BulkResponse {
  outcomes: Outcomes;
  createdIds: string[];
}

/** By position in the request: an array of the request's length rather than a Map, one allocation a chunk. */
type Outcomes = Array<BulkOutcome | undefined>;

const text = (value: unknown): string | undefined => (isFilled(value) ? value : undefined);

/**
 * What a failure entry says of its order. A refusal because the order's `uniqueBusinessReference`
 * is already held (an order sent again after its first upload's answer was lost) means the order
 * exists: it is `created`, with the tracking number the refusal names and `alreadyExisted: true`.
 */
function failureOutcome(entry: Record<string, unknown>, context: BulkResponseContext): BulkOutcome {
  const duplicate = duplicateRefusalOf(reasonOf(entry), entry);
  if (duplicate === undefined) return new FailedOutcome(context.orderError(entry, context), false);
  const reference = text(entry['businessReference']);
  return { index: -1, trackingNumber: duplicate.trackingNumber, ...(reference === undefined ? {} : { businessReference: reference }), alreadyExisted: true };
}

/**
 * Reads one answer. `references` are the `businessReference`s of the orders as sent, in request
 * order (`undefined` for an order without one). Positions the answer does not speak of are
 * `undefined` in `outcomes`: the caller treats them as unreported.
 */
export function readBulkResponse(data: unknown, references: ReadonlyArray<string | undefined>, context: BulkResponseContext): BulkResponse {
  const outcomes: Outcomes = new Array(references.length);
  const createdIds: string[] = [];
  const list = (field: string): unknown[] | undefined => (isRecord(data) && Array.isArray(data[field]) ? data[field] : undefined);
  const ids = Array.isArray(data) && data.every((id) => typeof id === 'string' || typeof id === 'number') ? data : list('createdDeliveriesIds');
  const failures = list('failedDeliveries');
  if (ids !== undefined || failures !== undefined) {
    matchByReference(ids ?? [], failures ?? [], references, context, outcomes, createdIds);
  }
  readPerIndex(Array.isArray(data) && ids === undefined ? data : list('created'), list('failed'), references.length, context, outcomes, createdIds);
  return { outcomes, createdIds };
}

/** The per-index shape: each entry names its position in the request. */
function readPerIndex(
  created: unknown[] | undefined,
  failed: unknown[] | undefined,
  count: number,
  context: BulkResponseContext,
  outcomes: Outcomes,
  createdIds: string[],
): void {
  const positionOf = (entry: Record<string, unknown>, fallback: number): number | undefined => {
    const position = typeof entry['index'] === 'number' ? entry['index'] : fallback;
    return Number.isSafeInteger(position) && position >= 0 && position < count && outcomes[position] === undefined ? position : undefined;
  };
  (created ?? []).forEach((entry, fallback) => {
    if (!isRecord(entry)) return;
    const _id = idString(entry['_id']);
    const trackingNumber = idString(entry['trackingNumber']);
    const position = positionOf(entry, fallback);
    // Without an id the order is unusable: it stays unreported, so failed with mayExist.
    if (position === undefined || _id === undefined || trackingNumber === undefined) return;
    createdIds.push(_id);
    outcomes[position] = { ...entry, index: -1, _id, trackingNumber };
  });
  for (const entry of failed ?? []) {
    if (!isRecord(entry) || typeof entry['index'] !== 'number') continue;
    const position = positionOf(entry, -1);
    if (position !== undefined) outcomes[position] = failureOutcome(entry, context);
  }
}

/**
 * The real shape. A failure is pinned to an order when its `businessReference` names exactly as
 * many orders of the request as there are failures naming it. What cannot be pinned (no
 * reference, a reference sent twice, one the request does not hold, counts that do not add
 * up) leaves the orders it could be about `mayExist`, with the service's messages. An order no
 * failure can be about is created. An id is tied to an order only when the request created
 * exactly one: the service does not say which id is whose.
 */
function matchByReference(
  ids: readonly unknown[],
  failures: readonly unknown[],
  references: ReadonlyArray<string | undefined>,
  context: BulkResponseContext,
  outcomes: Outcomes,
  createdIds: string[],
): void {
  for (const id of ids) {
    const known = idString(id);
    if (known !== undefined) createdIds.push(known);
  }
  const named = new Map<string, Array<Record<string, unknown>>>();
  const unplaced: Array<Record<string, unknown>> = [];
  for (const entry of failures) {
    const record = isRecord(entry) ? entry : { errorMessage: entry };
    const reference = text(record['businessReference']);
    if (reference === undefined || !references.includes(reference)) unplaced.push(record);
    else named.set(reference, [...(named.get(reference) ?? []), record]);
  }
  const unsure = new Map<number, string>();
  for (const [reference, entries] of named) {
    const positions = references.flatMap((sent, position) => (sent === reference ? [position] : []));
    if (entries.length < positions.length) {
      for (const position of positions)
        unsure.set(position, `'${reference}' was sent ${positions.length} times and failed ${entries.length}: ${entries.map(reasonOf).join('; ')}`);
    } else {
      positions.forEach((position, i) => {
        outcomes[position] = failureOutcome(entries[i] as Record<string, unknown>, context);
      });
      unplaced.push(...entries.slice(positions.length));
    }
  }
  const doubts: string[] = [];
  if (unplaced.length > 0) doubts.push(`failures naming no order of the request: ${unplaced.map(reasonOf).join('; ')}`);
  if (ids.length + failures.length !== references.length) doubts.push(`${references.length} sent, ${ids.length} created, ${failures.length} failed`);
  const created: number[] = [];
  for (let position = 0; position < references.length; position++) {
    if (outcomes[position] !== undefined) continue;
    const doubt = unsure.get(position);
    const why = doubt === undefined ? doubts : [doubt, ...doubts];
    if (why.length === 0) created.push(position);
    else
      outcomes[position] = new FailedOutcome(
        new ResponseShapeError(`${context.request.method} ${context.request.url} answered ${context.status} unclear about this order: ${why.join('; ')}`, {
          status: context.status,
          request: context.request,
          cause: context.error,
        }),
        true,
      );
  }
  const soleId = created.length === 1 && createdIds.length === 1 ? createdIds[0] : undefined;
  // A new object for each order: the upload sets its input index in it.
  for (const position of created) outcomes[position] = createdEntry(soleId, references[position]);
}
