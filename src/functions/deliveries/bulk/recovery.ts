import { type BulkCreatedDelivery, type BulkCreateResult, type BulkFailure, byIndex } from '../../../errors/bulk-result.js';
import { BulkCreationError, ConfigurationError, DeliveryError, ValidationError } from '../../../errors/index.js';
import { totalDeadline } from '../../../internal/deadline.js';
import { isFilled, isRecord, shown } from '../../../internal/guards.js';
import { coreInternals, type DeliveryCore, requireCore } from '../../delivery-core.js';
import { type PagedReadOptions, searchPages } from '../reads.js';
import type { DeliveryRecord } from '../records.js';

/**
 * An order whose outcome `resolveBulkTrackingNumbers` could not settle, and why. It stays in
 * `created` (without a tracking number) or in `failed` (`mayExist`).
 */
export interface UnresolvedBulkOrder {
  /** Position of the order in the input of `createBulk`. */
  index: number;
  businessReference: string | undefined;
  /** `true` for an order the service reported created; `'unknown'` for one that may exist. */
  created: true | 'unknown';
  /** Why it is unsettled: no `businessReference` to look it up by, a reference several orders carry, or the lookup's own error. */
  reason: DeliveryError;
}

/** A `createBulk` result with every order settled that could be: created ones with their tracking numbers, `mayExist` ones created or not. */
export interface ResolvedBulkResult extends BulkCreateResult {
  /** The orders still unsettled; empty when every order is known. Pass the result in again to retry them. */
  unresolved: UnresolvedBulkOrder[];
}

/** Options of `resolveBulkTrackingNumbers`. */
export interface ResolveTrackingNumbersOptions extends PagedReadOptions {
  /**
   * The orders given to `createBulk`, by index: where a failure's `businessReference` is read
   * when the result does not carry it. Without them, `mayExist` orders cannot be looked up.
   */
  orders?: ReadonlyArray<{ businessReference?: string | null | undefined } | unknown> | undefined;
}

/** References per search: the service reads them as one comma-separated text. */
const REFERENCES_PER_SEARCH = 50;

interface Target {
  readonly index: number;
  readonly reference: string | undefined;
  readonly created?: BulkCreatedDelivery;
  readonly failure?: BulkFailure;
}

const unsettled = (message: string): DeliveryError => new DeliveryError(message);

const isEntry = (entry: unknown): boolean => isRecord(entry) && Number.isSafeInteger(entry['index']) && (entry['index'] as number) >= 0;

/**
 * What `createBulk` gave, read once into plain objects of the SDK's own (a Proxy or a getter is not
 * read again); a `ValidationError` for anything else: a revoked Proxy, `createdIds: NaN`.
 */
function resultOf(outcome: unknown): BulkCreateResult {
  const refuse = (message: string, cause?: unknown): ValidationError =>
    new ValidationError([{ path: [], message }], { subject: 'Invalid argument', ...(cause === undefined ? {} : { cause }) });
  let read: BulkCreateResult | undefined;
  try {
    const result = outcome instanceof BulkCreationError ? outcome.result : outcome;
    if (isRecord(result) && Array.isArray(result['created']) && Array.isArray(result['failed'])) {
      const created = result['created'].map((entry: unknown) => (isEntry(entry) ? { ...(entry as BulkCreatedDelivery) } : undefined));
      const failed = result['failed'].map((entry: unknown) => (isEntry(entry) ? { ...(entry as BulkFailure) } : undefined));
      const ids: unknown = result['createdIds'];
      if (ids !== undefined && !(Array.isArray(ids) && ids.every((id) => typeof id === 'string')))
        throw refuse(`createdIds: expected the list of ids createBulk gave, received ${shown(ids)}`);
      if (created.every((entry) => entry !== undefined) && failed.every((entry) => entry !== undefined))
        read = { ...result, created, failed, createdIds: ids === undefined ? [] : [...(ids as string[])] } as BulkCreateResult;
    }
  } catch (cause) {
    if (cause instanceof ValidationError) throw cause;
    throw refuse('expected what createBulk resolved, or the BulkCreationError it threw: it could not be read', cause);
  }
  if (read === undefined) throw refuse(`expected what createBulk resolved, or the BulkCreationError it threw, received ${shown(outcome)}`);
  return read;
}

function referenceOf(index: number, entry: unknown, orders: ResolveTrackingNumbersOptions['orders']): string | undefined {
  let given: unknown;
  try {
    const own = isRecord(entry) ? entry['businessReference'] : undefined;
    const order = orders?.[index];
    given = typeof own === 'string' ? own : isRecord(order) ? order['businessReference'] : undefined;
  } catch (cause) {
    throw new ValidationError([{ path: ['orders', index], message: 'could not be read' }], { subject: 'Invalid argument', cause });
  }
  return isFilled(given) ? given : undefined;
}

/** Every order carrying one of `references` exactly, by reference; a failed search leaves its references out, with the error. */
async function ordersByReference(
  core: DeliveryCore,
  references: readonly string[],
  options: PagedReadOptions,
): Promise<{ found: Map<string, DeliveryRecord[]>; failed: Map<string, DeliveryError> }> {
  const deadlineAt = totalDeadline(coreInternals(core), options);
  const found = new Map<string, DeliveryRecord[]>();
  const failed = new Map<string, DeliveryError>();
  for (let at = 0; at < references.length; at += REFERENCES_PER_SEARCH) {
    const batch = references.slice(at, at + REFERENCES_PER_SEARCH);
    const wanted = new Set(batch);
    const matches = new Map<string, DeliveryRecord[]>();
    try {
      for await (const order of searchPages(core, { businessReference: batch }, options, deadlineAt)) {
        const reference = order.businessReference;
        if (reference === undefined || !wanted.has(reference)) continue;
        matches.set(reference, [...(matches.get(reference) ?? []), order]);
      }
      for (const reference of batch) found.set(reference, matches.get(reference) ?? []);
    } catch (error) {
      const reason = error instanceof DeliveryError ? error : new DeliveryError('The lookup failed', { cause: error });
      for (const reference of batch) failed.set(reference, reason);
    }
  }
  return { found, failed };
}

const settled = (entry: BulkCreatedDelivery, order: DeliveryRecord): BulkCreatedDelivery => ({
  ...entry,
  _id: order._id ?? entry._id,
  trackingNumber: order.trackingNumber,
});

/**
 * Settles what `createBulk` left open, by looking the orders up by their `businessReference`
 * (`POST /deliveries/search`): every created order gets its `trackingNumber` (and `_id`), and
 * every `mayExist` failure comes back created (moved to `created`) or not there (`mayExist:
 * false`: safe to send again). What cannot be settled is listed in `unresolved` with the reason,
 * never dropped: an order without a `businessReference`, a reference several orders carry (two
 * orders of one upload, or an older order with the same reference), a failed lookup. The
 * result is a `createBulk` result again: pass it in once more to retry the unresolved ones.
 *
 * Give every order a `businessReference` of its own, and pass the orders given to `createBulk`
 * (`options.orders`) so that failures can be looked up too.
 *
 * @operation deliveries.resolveTrackingNumbers
 * @chunk afterCreate
 * @calls deliveries.search
 *
 * @example
 * ```ts
 * const outcome = await client.deliveries.createBulk(orders).catch((err) => (err instanceof BulkCreationError ? err : Promise.reject(err)));
 * const settled = await client.deliveries.resolveTrackingNumbers(outcome, { orders });
 * for (const { index, trackingNumber } of settled.created) console.log(orders[index]?.businessReference, trackingNumber);
 * const resend = settled.failed.filter((failure) => !failure.mayExist).map((failure) => orders[failure.index]);
 * ```
 */
export async function resolveBulkTrackingNumbers(
  core: DeliveryCore,
  outcome: BulkCreateResult | BulkCreationError,
  options: ResolveTrackingNumbersOptions = {},
): Promise<ResolvedBulkResult> {
  requireCore(core);
  const result = resultOf(outcome);
  let orders: ResolveTrackingNumbersOptions['orders'];
  let requestOptions: PagedReadOptions;
  try {
    ({ orders, ...requestOptions } = options ?? {});
  } catch (cause) {
    throw new ConfigurationError('resolveTrackingNumbers options could not be read.', { cause });
  }
  const targets: Target[] = [
    ...result.created
      .filter((entry) => typeof entry.trackingNumber !== 'string' || entry.trackingNumber === '')
      .map((entry) => ({ index: entry.index, reference: referenceOf(entry.index, entry, orders), created: entry })),
    ...result.failed
      .filter((failure) => failure.mayExist)
      .map((failure) => ({ index: failure.index, reference: referenceOf(failure.index, failure, orders), failure })),
  ];
  const uses = new Map<string, number>();
  for (const { reference } of targets) if (reference !== undefined) uses.set(reference, (uses.get(reference) ?? 0) + 1);
  const searchable = [...uses].filter(([reference, count]) => count === 1 && !reference.includes(',')).map(([reference]) => reference);
  const { found, failed } = await ordersByReference(core, searchable, requestOptions);

  const createdIds = new Set(result.createdIds);
  const created = new Map(result.created.map((entry) => [entry.index, entry]));
  const failures = new Map(result.failed.map((failure) => [failure.index, failure]));
  const unresolved: UnresolvedBulkOrder[] = [];
  for (const target of targets) {
    const { index, reference } = target;
    const leave = (reason: DeliveryError): void =>
      void unresolved.push({ index, businessReference: reference, created: target.created === undefined ? 'unknown' : true, reason });
    if (reference === undefined) leave(unsettled(`Order [${index}] has no businessReference to look it up by`));
    else if ((uses.get(reference) ?? 0) > 1)
      leave(unsettled(`businessReference '${reference}' was given to ${uses.get(reference)} orders of the upload: which order is whose cannot be told`));
    else if (reference.includes(',')) leave(unsettled(`businessReference '${reference}' holds a comma, which the search reads as a separator`));
    else if (failed.has(reference)) leave(failed.get(reference) as DeliveryError);
    else {
      const matches = found.get(reference) ?? [];
      const known = target.created?._id;
      const narrowed =
        matches.length <= 1
          ? matches
          : matches.filter((order) => (known !== undefined ? order._id === known : target.created !== undefined && createdIds.has(order._id ?? '')));
      if (target.created !== undefined) {
        const [order] = narrowed;
        if (narrowed.length === 1 && order !== undefined) created.set(index, settled(target.created, order));
        else if (narrowed.length === 0)
          leave(unsettled(`The service reported order [${index}] created, yet no order carries businessReference '${reference}'`));
        else leave(unsettled(`${narrowed.length} orders carry businessReference '${reference}': which one is order [${index}] cannot be told`));
      } else if (target.failure !== undefined) {
        const [order] = matches;
        if (matches.length === 0) failures.set(index, { ...target.failure, mayExist: false });
        else if (matches.length === 1 && order !== undefined) {
          failures.delete(index);
          created.set(index, { index, businessReference: reference, _id: order._id, trackingNumber: order.trackingNumber });
          if (order._id !== undefined) createdIds.add(order._id);
        } else leave(unsettled(`${matches.length} orders carry businessReference '${reference}': whether order [${index}] is one of them cannot be told`));
      }
    }
  }
  return {
    ...result,
    created: [...created.values()].sort(byIndex),
    failed: [...failures.values()].sort(byIndex),
    createdIds: [...createdIds],
    unresolved: unresolved.sort(byIndex),
  };
}
