/** `deliveries.createBulk`: validate everything, then send in chunks with bounded concurrency, never twice. */
import { chunksOf, forEachConcurrently, type Chunk } from '../core/chunks.js';
import type { RequestOptions } from '../core/config.js';
import { type HttpClient, wasNeverSent } from '../core/http.js';
import {
  ApiError,
  AuthenticationError,
  BulkCreationError,
  BusinessLocationRequiredError,
  CodedDeliveryError,
  ConfigurationError,
  ConnectionError,
  createCodedError,
  DeliveryError,
  describeIssues,
  isKnownErrorCode,
  NotFoundError,
  PermissionDeniedError,
  RequestAbortedError,
  ResponseShapeError,
  ServerError,
  ValidationError,
  type ValidationIssue,
} from '../errors/index.js';
import { checkOrder, type OrderInput } from '../schemas/index.js';
import { isRecord } from '../schemas/predicates.js';
import { type Answer, idText, issuesAt } from './shared.js';

/** An order `createBulk` created, with its index in your input. Fields the service adds are kept. */
export interface BulkCreatedDelivery {
  /** Position of the order in the input of `createBulk`. */
  index: number;
  _id: string;
  trackingNumber: string;
  businessReference?: string;
  [field: string]: unknown;
}

/** An order `createBulk` sent that was not (or not surely) created. */
export interface BulkFailure {
  /** Position of the order in the input of `createBulk`. */
  index: number;
  /** Why: the order's own error for a 1061 answer (`CodLimitExceededError`, ...), else the error of its whole chunk. */
  error: DeliveryError;
  /**
   * True when its chunk got no clear answer (5xx, timeout, lost connection, abort while in
   * flight): the order may have been created. Look it up before sending it again.
   */
  mayExist: boolean;
}

/** What `createBulk` did, sorted by input index. */
export interface BulkCreateResult {
  /** The orders created, each with its input `index`. */
  created: BulkCreatedDelivery[];
  /** The orders sent but not (or not surely) created, each with its error; empty on full success. */
  failed: BulkFailure[];
  /**
   * Set when the upload stopped before the end of the input: `at` is the index of the first
   * order not sent (it and every later one were not sent; for an iterable input, the input may
   * also have ended there), and `reason` why (a `RequestAbortedError` after an abort; an error
   * every chunk would get, such as `AuthenticationError` or `BusinessLocationRequiredError`; a
   * `DeliveryError` whose `cause` is what your iterable threw, when reading it failed part-way).
   */
  stopped?: { at: number; reason: DeliveryError } | undefined;
}

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

/** The error of one order a 1061 answer lists as failed: its own code's class when known. */
function orderError(entry: Record<string, unknown>, chunkError: DeliveryError): DeliveryError {
  const raw = entry['errorCode'];
  const code = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  const message = typeof entry['message'] === 'string' && entry['message'] !== '' ? entry['message'] : 'rejected by the service';
  const { status = 400, request = { method: 'POST', url: BULK_PATH } } = chunkError as Partial<ApiError>;
  const options = { status, body: entry, request };
  if (isKnownErrorCode(code)) return createCodedError(code, { source: 'server', message, ...options });
  return new ApiError(message, { ...options, errorCode: typeof code === 'number' ? code : undefined });
}

/** See `DeliveriesResource.createBulk`. */
export async function createBulk(http: HttpClient, orders: BulkInput, options?: BulkCreateOptions): Promise<BulkCreateResult> {
  const { chunkSize = 100, concurrency = 4, onProgress, ...requestOptions } = options ?? {};
  if (typeof (orders as Partial<Iterable<unknown>> | null)?.[Symbol.iterator] !== 'function' && typeof (orders as Partial<AsyncIterable<unknown>> | null)?.[Symbol.asyncIterator] !== 'function') {
    throw new ValidationError([{ path: ['orders'], message: 'must be an array or an iterable of orders' }], { subject: 'Invalid argument' });
  }
  for (const [name, value] of Object.entries({ chunkSize, concurrency })) {
    if (!Number.isSafeInteger(value) || value < 1) throw new ConfigurationError(`createBulk \`${name}\` must be a whole number of at least 1 (got ${String(value)}).`);
  }
  const { signal } = requestOptions;
  const validating = http.validates(requestOptions);
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
    for await (const order of orders) {
      if (signal?.aborted) throw aborted(signal);
      const checked = checkOrder(order);
      if (!checked.ok) {
        invalid++;
        issues.push(...issuesAt(count, checked.error));
      } else if (!isArray) kept.push(checked.value);
      count++;
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
  let stopReason: DeliveryError | undefined;
  let sentUpTo = 0;
  let done = 0;
  const stopped = (): boolean => stopReason !== undefined || signal?.aborted === true;
  const fail = (index: number, error: DeliveryError, mayExist: boolean): number => failed.push({ index, error, mayExist });

  /** Sends one chunk; `indexes[i]` is the input index of the request's i-th order. */
  const post = async (bodies: unknown[], indexes: number[]): Promise<void> => {
    const reported = new Set<number>();
    const record = (list: unknown): void => {
      if (!Array.isArray(list)) return;
      list.forEach((entry: unknown, position) => {
        if (!isRecord(entry)) return;
        const index = indexes[typeof entry['index'] === 'number' ? entry['index'] : position];
        const _id = idText(entry['_id']);
        const trackingNumber = idText(entry['trackingNumber']);
        // Without an id the order is unusable: it stays unreported, so failed with mayExist.
        if (index === undefined || reported.has(index) || _id === undefined || trackingNumber === undefined) return;
        reported.add(index);
        created.push({ ...entry, index, _id, trackingNumber });
      });
    };
    let answer: Answer = { status: 200, request: { method: 'POST', url: BULK_PATH } };
    let unreported: DeliveryError;
    let mayExist = true;
    try {
      const transform = (data: unknown, context: Answer): unknown => ((answer = context), data);
      const data = await http.request({ method: 'POST', path: BULK_PATH, query: { apiVersion: 1 }, body: { deliveries: bodies }, idempotent: false, transform }, requestOptions);
      record(isRecord(data) ? data['created'] : data);
      unreported = new ResponseShapeError(`POST ${BULK_PATH} answered ${answer.status} without reporting this order`, answer);
    } catch (caught) {
      const error = caught instanceof DeliveryError ? caught : new DeliveryError(`POST ${BULK_PATH} failed`, { cause: caught });
      unreported = error;
      const data = error instanceof BulkCreationError && isRecord(error.body) ? error.body['data'] : undefined;
      if (isRecord(data)) {
        record(data['created']);
        for (const entry of Array.isArray(data['failed']) ? data['failed'] : []) {
          const index = isRecord(entry) && typeof entry['index'] === 'number' ? indexes[entry['index']] : undefined;
          if (index === undefined || reported.has(index)) continue;
          reported.add(index);
          fail(index, orderError(entry as Record<string, unknown>, error), false);
        }
      } else {
        mayExist = outcomeUnknown(error);
        if (stopsUpload(error)) stopReason ??= error;
      }
    }
    for (const index of indexes) if (!reported.has(index)) fail(index, unreported, mayExist);
  };

  const sendChunk = async ({ start, items }: Chunk<unknown>): Promise<void> => {
    if (stopped()) return;
    const bodies: unknown[] = [];
    const indexes: number[] = [];
    items.forEach((order, offset) => {
      const checked = recheck ? checkOrder(order) : { ok: true as const, value: order };
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
  const result: BulkCreateResult = { created: created.sort(byIndex), failed: failed.sort(byIndex) };
  if (!exhausted && (total === undefined || sentUpTo < total)) result.stopped = { at: sentUpTo, reason: stopReason ?? aborted(signal as AbortSignal) };
  const { stopped: stop } = result;
  if (failed.length === 0 && stop === undefined) return result;

  const unknown = failed.filter((failure) => failure.mayExist).length;
  let subject = `Bulk creation incomplete: ${failed.length} of ${total ?? sentUpTo} orders failed${unknown > 0 ? ` (${unknown} may exist all the same)` : ''}, ${created.length} created`;
  if (stop !== undefined) subject += `; stopped before index ${stop.at}: ${stop.reason.message}`;
  const shown: ValidationIssue[] = failed.slice(0, 10).map(({ index, error, mayExist }) => ({ path: [index], message: `${mayExist ? 'outcome unknown, may have been created: ' : ''}${error.message}` }));
  // The message names the first failures; `failed` has them all (no `issues`: 100,000 of them would flood every log line).
  throw new BulkCreationError({
    source: failed.some(({ error }) => error instanceof ApiError || (error as { source?: unknown }).source === 'server') ? 'server' : 'client',
    message: describeIssues(subject, shown) + (failed.length > 10 ? `; and ${failed.length - 10} more` : ''),
    result,
    cause: stop?.reason,
  });
}
