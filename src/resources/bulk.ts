/** `deliveries.createBulk`: validate everything, then send in chunks with bounded concurrency, never twice. */
import { chunksOf, forEachConcurrently, type Chunk } from '../core/chunks.js';
import type { RequestOptions } from '../core/config.js';
import type { HttpClient } from '../core/http.js';
import { wasNeverSent } from '../core/retry.js';
import type { BulkCreatedDelivery, BulkCreateResult, BulkFailure } from '../errors/bulk-result.js';
import {
  ApiError,
  AuthenticationError,
  BulkCreationError,
  BusinessLocationRequiredError,
  CodedDeliveryError,
  ConfigurationError,
  ConnectionError,
  DeliveryError,
  NotFoundError,
  PermissionDeniedError,
  RequestAbortedError,
  ResponseShapeError,
  ServerError,
  ValidationError,
  type ValidationIssue,
} from '../errors/index.js';
import type { OrderInput } from '../schemas/index.js';
import { orderRulesWithout } from '../schemas/order.js';
import { isRecord } from '../schemas/predicates.js';
import { type BulkAnswer, readBulkAnswer } from '../functions/bulk-answer.js';
import { type Answer, issuesAt, recordOf } from '../functions/shared.js';

export type { BulkCreatedDelivery, BulkCreateResult, BulkFailure };

/** Reported to `onProgress` after each chunk. */
export interface BulkProgress {
  /** Orders whose chunk has settled. */
  done: number;
  /** Orders created so far. */
  created: number;
  /** Orders sent so far that were not (or not surely) created. */
  failed: number;
  /** Size of the input, when known (an array, or any input once validated). */
  total: number | undefined;
}

/** Options of `createBulk`, besides the per-call options each chunk's request takes. */
export interface BulkCreateOptions extends RequestOptions {
  /** Orders per request. Default 100. */
  chunkSize?: number | undefined;
  /** Requests in flight at once. Default 4. */
  concurrency?: number | undefined;
  /** Called after each chunk settles. Throwing from it stops the upload. */
  onProgress?: ((progress: BulkProgress) => void) | undefined;
  /**
   * Sent as the body's `deleteFailedDeliveries`. Default `false`, what the service's own
   * WooCommerce plugin sends; the spec does not say what `true` does.
   */
  deleteFailedDeliveries?: boolean | undefined;
}

/** The orders `createBulk` takes: an array, or any iterable or async iterable (a generator, a stream of rows). */
export type BulkInput = Iterable<OrderInput> | AsyncIterable<OrderInput>;

const BULK_PATH = '/deliveries/bulk';

const aborted = (signal: AbortSignal): RequestAbortedError => new RequestAbortedError(`POST ${BULK_PATH} was aborted by the caller`, { cause: signal.reason });

/** No answer says what happened to the chunk (5xx, timeout, lost connection, abort in flight, unreadable 2xx): its orders may exist. */
const outcomeUnknown = (error: DeliveryError): boolean =>
  error instanceof ConnectionError ? !wasNeverSent(error) : error instanceof ServerError || !(error instanceof ApiError || error instanceof CodedDeliveryError || error instanceof ValidationError);

/** Errors every later chunk would get too: sending on would only repeat them. */
const stopsUpload = (error: DeliveryError): boolean =>
  [AuthenticationError, PermissionDeniedError, NotFoundError, BusinessLocationRequiredError, ConfigurationError, RequestAbortedError].some((kind) => error instanceof kind);

/** Whether `orders` can be iterated; an object whose reading throws (a revoked Proxy) cannot. */
function isIterable(orders: unknown): orders is BulkInput {
  try {
    return typeof (orders as Partial<Iterable<unknown>> | null)?.[Symbol.iterator] === 'function' || typeof (orders as Partial<AsyncIterable<unknown>> | null)?.[Symbol.asyncIterator] === 'function';
  } catch {
    return false;
  }
}

/** See `DeliveriesResource.createBulk`. */
export async function createBulk(http: HttpClient, orders: BulkInput, options?: BulkCreateOptions): Promise<BulkCreateResult> {
  const { chunkSize = 100, concurrency = 4, onProgress, deleteFailedDeliveries = false, ...requestOptions } = options ?? {};
  if (!isIterable(orders)) throw new ValidationError([{ path: ['orders'], message: 'must be an array or an iterable of orders' }], { subject: 'Invalid argument' });
  for (const [name, value] of Object.entries({ chunkSize, concurrency })) {
    if (!Number.isSafeInteger(value) || value < 1) throw new ConfigurationError(`createBulk \`${name}\` must be a whole number of at least 1 (got ${String(value)}).`);
  }
  if (typeof deleteFailedDeliveries !== 'boolean') throw new ConfigurationError(`createBulk \`deleteFailedDeliveries\` must be true or false (got ${String(deleteFailedDeliveries)}).`);
  const { signal } = requestOptions;
  const validation = http.validation(requestOptions);
  const validating = validation !== false;
  const isArray = Array.isArray(orders);
  // An array is checked in a first pass that keeps nothing, then each chunk again as it is sent,
  // so checked copies exist only for the chunks in flight (at most `concurrency`). Other
  // iterables may not be readable twice: their checked orders are kept.
  const recheck = validating && isArray;
  let source: BulkInput = orders;
  let total = isArray ? orders.length : undefined;
  if (validating) {
    const kept: OrderInput[] = [];
    const issues: ValidationIssue[] = [];
    let count = 0;
    let invalid = 0;
    try {
      for await (const order of orders) {
        if (signal?.aborted) throw aborted(signal);
        const checked = orderRulesWithout.check(order, validation || undefined);
        if (!checked.ok) {
          invalid++;
          issues.push(...issuesAt(count, checked.error));
        } else if (!isArray) kept.push(checked.value);
        count++;
      }
    } catch (error) {
      // An iterator, or an order it yields (a revoked Proxy, read as a possible thenable), that throws.
      if (error instanceof DeliveryError) throw error;
      throw new ValidationError([{ path: [count], message: 'could not be read' }], { subject: 'Invalid orders (nothing was sent)', cause: error });
    }
    if (invalid > 0) throw new ValidationError(issues, { subject: `Invalid orders (${invalid} of ${count}; nothing was sent)` });
    if (!isArray) {
      source = kept;
      total = count;
    }
  }
  if (signal?.aborted) throw aborted(signal);

  const created: BulkCreatedDelivery[] = [];
  const failed: BulkFailure[] = [];
  const createdIds: string[] = [];
  let stopReason: DeliveryError | undefined;
  let sentUpTo = 0;
  let done = 0;
  const stopped = (): boolean => stopReason !== undefined || signal?.aborted === true;
  const fail = (index: number, error: DeliveryError, mayExist: boolean): number => failed.push({ index, error, mayExist });

  /** Sends one chunk; `indexes[i]` is the input index of the request's i-th order. */
  const post = async (bodies: unknown[], indexes: number[]): Promise<void> => {
    let answer: Answer = { status: 200, request: { method: 'POST', url: BULK_PATH } };
    let unreported: DeliveryError;
    let mayExist = true;
    let read: BulkAnswer | undefined;
    try {
      const transform = (data: unknown, context: Answer): unknown => ((answer = context), data);
      const body = { deliveries: bodies, deleteFailedDeliveries };
      const data = await http.request({ method: 'POST', path: BULK_PATH, query: { apiVersion: 1 }, body, idempotent: false, transform }, requestOptions);
      read = readBulkAnswer(data, bodies, answer);
      unreported = new ResponseShapeError(`POST ${BULK_PATH} answered ${answer.status} without reporting this order`, answer);
    } catch (caught) {
      const error = caught instanceof DeliveryError ? caught : new DeliveryError(`POST ${BULK_PATH} failed`, { cause: caught });
      unreported = error;
      // A 1061 carries the same answer in its body's `data`: what it created must not be lost.
      const data = error instanceof ApiError || error instanceof CodedDeliveryError ? recordOf(error.body)['data'] : undefined;
      if (isRecord(data) || Array.isArray(data)) {
        const { status = 400, request = answer.request } = error as Partial<ApiError>;
        read = readBulkAnswer(data, bodies, { status, request });
      } else {
        mayExist = outcomeUnknown(error);
        if (stopsUpload(error)) stopReason ??= error;
      }
    }
    createdIds.push(...(read?.createdIds ?? []));
    indexes.forEach((index, position) => {
      const outcome = read?.outcomes.get(position);
      if (outcome === undefined) fail(index, unreported, mayExist);
      else if ('created' in outcome) created.push({ ...outcome.created, index });
      else fail(index, outcome.error, outcome.mayExist);
    });
  };

  const sendChunk = async ({ start, items }: Chunk<unknown>): Promise<void> => {
    if (stopped()) return;
    const bodies: unknown[] = [];
    const indexes: number[] = [];
    items.forEach((order, offset) => {
      const checked = recheck ? orderRulesWithout.check(order, validation || undefined) : { ok: true as const, value: order };
      if (checked.ok) {
        bodies.push(checked.value);
        indexes.push(start + offset);
      } else fail(start + offset, checked.error, false); // changed since the first pass
    });
    sentUpTo = start + items.length;
    if (bodies.length > 0) await post(bodies, indexes);
    done += items.length;
    try {
      onProgress?.({ done, created: created.length, failed: failed.length, total });
    } catch (cause) {
      stopReason ??= new DeliveryError('createBulk stopped: onProgress threw', { cause });
    }
  };

  let exhausted = false;
  try {
    exhausted = await forEachConcurrently(chunksOf<unknown>(source, chunkSize), concurrency, sendChunk, stopped);
  } catch (cause) {
    // The caller's iterable threw after some chunks went out: those orders exist and must be reported.
    stopReason ??= new DeliveryError('createBulk stopped: reading the orders threw', { cause });
  }
  const byIndex = (a: { index: number }, b: { index: number }): number => a.index - b.index;
  const result: BulkCreateResult = { created: created.sort(byIndex), failed: failed.sort(byIndex), createdIds };
  if (!exhausted && (total === undefined || sentUpTo < total)) result.stopped = { at: sentUpTo, reason: stopReason ?? aborted(signal as AbortSignal) };
  const { stopped: stop } = result;
  if (failed.length === 0 && stop === undefined) return result;

  // The message counts and groups; `failed` has every entry (no `issues`: 100,000 of them would flood every log line).
  throw new BulkCreationError({
    // 'server' when any answer said an order failed or could not be matched; 'client' for what only the SDK saw.
    source: failed.some(({ error }) => error instanceof ApiError || error instanceof ResponseShapeError || (error as { source?: unknown }).source === 'server') ? 'server' : 'client',
    message: describeOutcome(result, total),
    result,
    cause: stop?.reason,
  });
}

/** Input indexes as runs: `[0-99], [150], [152-160]`, the first few of them. */
function describeIndexes(indexes: readonly number[]): string {
  const runs: Array<[number, number]> = [];
  for (const index of indexes) {
    const last = runs.at(-1);
    if (last !== undefined && index === last[1] + 1) last[1] = index;
    else runs.push([index, index]);
  }
  const shown = runs.slice(0, 5).map(([from, to]) => (from === to ? `[${from}]` : `[${from}-${to}]`));
  return shown.join(', ') + (runs.length > 5 ? ` and ${runs.length - 5} more runs` : '');
}

/**
 * `Bulk creation incomplete: 100 of 250 orders failed (100 may exist all the same), 0 created,
 * 150 not sent (stopped before index 100): [0-99] (100 orders): outcome unknown, ...`: each
 * reason once, with the orders it concerns; how many were never sent.
 */
function describeOutcome({ created, failed, stopped }: BulkCreateResult, total: number | undefined): string {
  const unknown = failed.filter((failure) => failure.mayExist).length;
  let subject = `Bulk creation incomplete: ${failed.length} of ${total ?? stopped?.at ?? failed.length + created.length} orders failed${unknown > 0 ? ` (${unknown} may exist all the same)` : ''}, ${created.length} created`;
  if (stopped !== undefined) {
    const unsent = total === undefined ? 'the rest' : String(total - stopped.at);
    const reason = failed.some(({ error }) => error === stopped.reason) ? '' : `: ${stopped.reason.message}`;
    subject += `, ${unsent} not sent (stopped before index ${stopped.at}${reason})`;
  }
  const groups = new Map<string, number[]>();
  for (const { index, error, mayExist } of failed) {
    const reason = `${mayExist ? 'outcome unknown, may have been created: ' : ''}${error.message}`;
    const group = groups.get(reason);
    if (group === undefined) groups.set(reason, [index]);
    else group.push(index);
  }
  const shown = [...groups].slice(0, 10).map(([reason, indexes]) => `${describeIndexes(indexes)}${indexes.length > 1 ? ` (${indexes.length} orders)` : ''}: ${reason}`);
  if (shown.length === 0) return subject;
  return `${subject}: ${shown.join('; ')}${groups.size > 10 ? `; and ${groups.size - 10} more reasons` : ''}`;
}
