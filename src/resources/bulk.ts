/** `deliveries.createBulk`: validate everything, then send in chunks with bounded concurrency, never twice. */
import { chunksOf, forEachConcurrently, type Chunk } from '../core/chunks.js';
import type { RequestOptions } from '../core/config.js';
import type { HttpClient } from '../core/http.js';
import { wasNeverSent } from '../core/retry.js';
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
import { type Answer, idText, isRecord, issuesAt } from './shared.js';

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
  created: BulkCreatedDelivery[];
  failed: BulkFailure[];
  /**
   * Set when the upload stopped before the end of the input: `at` is the index of the first
   * order not sent (it and every later one were not sent; for an iterable input, the input may
   * also have ended there), and `reason` why (a `RequestAbortedError` after an abort; an error
   * every chunk would get, such as `AuthenticationError` or `BusinessLocationRequiredError`).
   */
  stopped?: { at: number; reason: DeliveryError } | undefined;
}

/** Reported to `onProgress` after each chunk. */
export interface BulkProgress {
  /** Orders whose chunk has settled. */
  done: number;
  created: number;
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

function wholeAtLeastOne(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new ConfigurationError(`createBulk \`${name}\` must be a whole number of at least 1 (got ${String(value)}).`);
  return value;
}

function isInput(value: unknown): value is BulkInput {
  return typeof value === 'object' && value !== null && (Symbol.iterator in value || Symbol.asyncIterator in value);
}

const aborted = (signal: AbortSignal): RequestAbortedError => new RequestAbortedError(`POST ${BULK_PATH} was aborted by the caller`, { cause: signal.reason });

/**
 * Checks every order and throws one `ValidationError` listing the issues of all invalid ones.
 * Keeps the checked orders only when `keep` is given (input that cannot be read twice).
 */
async function validateAll(orders: BulkInput, signal: AbortSignal | undefined, keep?: unknown[]): Promise<void> {
  const issues: ValidationIssue[] = [];
  let index = 0;
  let invalid = 0;
  for await (const order of orders) {
    if (signal?.aborted) throw aborted(signal);
    const checked = checkOrder(order);
    if (checked.ok) keep?.push(checked.value);
    else {
      invalid++;
      issues.push(...issuesAt(index, checked.error));
    }
    index++;
  }
  if (invalid > 0) throw new ValidationError(issues, { subject: `Invalid orders (${invalid} of ${index}; nothing was sent)` });
}

/** No answer says what happened to the chunk: its orders may exist. */
function outcomeUnknown(error: DeliveryError): boolean {
  if (error instanceof ServerError || error instanceof ResponseShapeError || error instanceof RequestAbortedError) return true;
  if (error instanceof ConnectionError) return !wasNeverSent(error);
  return !(error instanceof ApiError || error instanceof CodedDeliveryError || error instanceof ValidationError);
}

/** Errors every later chunk would get too: sending on would only repeat them. */
function stopsUpload(error: DeliveryError): boolean {
  return (
    error instanceof AuthenticationError ||
    error instanceof PermissionDeniedError ||
    error instanceof NotFoundError ||
    error instanceof BusinessLocationRequiredError ||
    error instanceof ConfigurationError ||
    error instanceof RequestAbortedError
  );
}

const fromServer = (error: DeliveryError): boolean => error instanceof ApiError || (error instanceof CodedDeliveryError && error.source === 'server');

/** One upload: its results so far, and the sending of one chunk. */
class BulkUpload {
  readonly created: BulkCreatedDelivery[] = [];
  readonly failed: BulkFailure[] = [];
  stopReason: DeliveryError | undefined;
  /** Index after the last order sent: where a stop leaves off. */
  sentUpTo = 0;
  #done = 0;

  readonly #http: HttpClient;
  readonly #options: RequestOptions;
  /** Whether each order is checked again before sending (input checked in a first pass that kept nothing). */
  readonly #recheck: boolean;
  readonly #total: number | undefined;
  readonly #onProgress: BulkCreateOptions['onProgress'];

  constructor(http: HttpClient, options: RequestOptions, recheck: boolean, total: number | undefined, onProgress: BulkCreateOptions['onProgress']) {
    this.#http = http;
    this.#options = options;
    this.#recheck = recheck;
    this.#total = total;
    this.#onProgress = onProgress;
  }

  stopped = (): boolean => this.stopReason !== undefined || this.#options.signal?.aborted === true;

  async send(chunk: Chunk<unknown>): Promise<void> {
    if (this.stopped()) return;
    const bodies: unknown[] = [];
    const indexes: number[] = [];
    chunk.items.forEach((order, offset) => {
      const index = chunk.start + offset;
      if (!this.#recheck) {
        bodies.push(order);
        indexes.push(index);
        return;
      }
      // Checked once already; checked again here so only one chunk of prepared copies exists at a time.
      const checked = checkOrder(order);
      if (checked.ok) {
        bodies.push(checked.value);
        indexes.push(index);
      } else this.failed.push({ index, error: checked.error, mayExist: false });
    });
    this.sentUpTo = chunk.start + chunk.items.length;
    if (bodies.length > 0) await this.#post(bodies, indexes);
    this.#done += chunk.items.length;
    try {
      this.#onProgress?.({ done: this.#done, created: this.created.length, failed: this.failed.length, total: this.#total });
    } catch (cause) {
      this.stopReason ??= new DeliveryError('createBulk stopped: onProgress threw', { cause });
    }
  }

  async #post(bodies: unknown[], indexes: number[]): Promise<void> {
    const reported = new Set<number>();
    let answer: Answer | undefined;
    try {
      const data = await this.#http.request(
        {
          method: 'POST',
          path: BULK_PATH,
          query: { apiVersion: 1 },
          body: { deliveries: bodies },
          idempotent: false,
          transform: (value, context) => {
            answer = context;
            return value;
          },
        },
        this.#options,
      );
      this.#record(isRecord(data) ? data['created'] : data, indexes, reported);
      this.#unreported(indexes, reported, () => new ResponseShapeError(`POST ${BULK_PATH} answered without reporting this order`, answer ?? { status: 200, request: { method: 'POST', url: BULK_PATH } }));
    } catch (caught) {
      const error = caught instanceof DeliveryError ? caught : new DeliveryError(`POST ${BULK_PATH} failed`, { cause: caught });
      const data = error instanceof BulkCreationError && isRecord(error.body) ? error.body['data'] : undefined;
      if (isRecord(data)) {
        this.#record(data['created'], indexes, reported);
        if (Array.isArray(data['failed'])) {
          for (const entry of data['failed']) {
            const index = isRecord(entry) && typeof entry['index'] === 'number' ? indexes[entry['index']] : undefined;
            if (index === undefined || reported.has(index)) continue;
            reported.add(index);
            this.failed.push({ index, error: orderError(entry as Record<string, unknown>, error), mayExist: false });
          }
        }
        this.#unreported(indexes, reported, () => error);
      } else {
        const mayExist = outcomeUnknown(error);
        for (const index of indexes) this.failed.push({ index, error, mayExist });
        if (stopsUpload(error)) this.stopReason ??= error;
      }
    }
  }

  /** Records the created entries of an answer; positions are those of the chunk's request. */
  #record(list: unknown, indexes: number[], reported: Set<number>): void {
    if (!Array.isArray(list)) return;
    list.forEach((entry: unknown, position) => {
      if (!isRecord(entry)) return;
      const index = indexes[typeof entry['index'] === 'number' ? entry['index'] : position];
      if (index === undefined || reported.has(index)) return;
      const id = idText(entry['_id']);
      const trackingNumber = idText(entry['trackingNumber']);
      if (id === undefined || trackingNumber === undefined) return; // left to #unreported: created, but unusable
      reported.add(index);
      this.created.push({ ...entry, index, _id: id, trackingNumber });
    });
  }

  /** Orders of the chunk the answer did not account for: created or not, nobody knows. */
  #unreported(indexes: number[], reported: Set<number>, error: () => DeliveryError): void {
    for (const index of indexes) if (!reported.has(index)) this.failed.push({ index, error: error(), mayExist: true });
  }
}

/** The error of one order a 1061 answer lists as failed: its own code's class when known. */
function orderError(entry: Record<string, unknown>, chunkError: DeliveryError): DeliveryError {
  const raw = entry['errorCode'];
  const code = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  const message = typeof entry['message'] === 'string' && entry['message'] !== '' ? entry['message'] : 'rejected by the service';
  const base = chunkError instanceof CodedDeliveryError ? chunkError : undefined;
  const request = base?.request ?? { method: 'POST', url: BULK_PATH };
  const status = base?.status ?? 400;
  if (isKnownErrorCode(code)) return createCodedError(code, { source: 'server', message, status, body: entry, request });
  return new ApiError(message, { status, body: entry, request, errorCode: typeof code === 'number' ? code : undefined });
}

function failureIssue(failure: BulkFailure): ValidationIssue {
  const message = failure.mayExist ? `outcome unknown, may have been created: ${failure.error.message}` : failure.error.message;
  const code = failure.error.errorCode;
  return code === undefined ? { path: [failure.index], message } : { path: [failure.index], message, errorCode: code };
}

/** See `DeliveriesResource.createBulk`. */
export async function createBulk(http: HttpClient, orders: BulkInput, options: BulkCreateOptions = {}): Promise<BulkCreateResult> {
  const { chunkSize = 100, concurrency = 4, onProgress, ...requestOptions } = options;
  wholeAtLeastOne(chunkSize, 'chunkSize');
  wholeAtLeastOne(concurrency, 'concurrency');
  if (!isInput(orders)) throw new ValidationError([{ path: [], message: 'must be an array or an (async) iterable of orders' }], { subject: 'Invalid orders' });
  const { signal } = requestOptions;

  let source: BulkInput = orders;
  let total = Array.isArray(orders) ? orders.length : undefined;
  const validating = http.validates(requestOptions);
  if (validating) {
    if (Array.isArray(orders)) await validateAll(orders, signal);
    else {
      // An iterable may not be readable twice: its checked orders are kept for sending.
      const checked: OrderInput[] = [];
      await validateAll(orders, signal, checked);
      source = checked;
      total = checked.length;
    }
  }
  if (signal?.aborted) throw aborted(signal);

  const upload = new BulkUpload(http, requestOptions, validating && Array.isArray(orders), total, onProgress);
  const exhausted = await forEachConcurrently(chunksOf<unknown>(source, chunkSize)[Symbol.asyncIterator](), concurrency, (chunk) => upload.send(chunk), upload.stopped);

  const byIndex = (a: { index: number }, b: { index: number }): number => a.index - b.index;
  const result: BulkCreateResult = { created: upload.created.sort(byIndex), failed: upload.failed.sort(byIndex) };
  const unsent = !exhausted && (total === undefined || upload.sentUpTo < total);
  if (unsent) result.stopped = { at: upload.sentUpTo, reason: upload.stopReason ?? (signal?.aborted ? aborted(signal) : new DeliveryError('createBulk stopped')) };
  if (result.failed.length === 0 && result.stopped === undefined) return result;

  const { created, failed, stopped } = result;
  const unknown = failed.filter((failure) => failure.mayExist).length;
  const read = total ?? upload.sentUpTo;
  let subject = `${failed.length} of ${read} orders failed${unknown > 0 ? ` (${unknown} may exist all the same)` : ''}, ${created.length} created`;
  if (stopped !== undefined) subject += `; stopped before index ${stopped.at}: ${stopped.reason.message}`;
  // The message names the first failures; `failed` has them all (no `issues`: 100,000 of them would flood every log line).
  throw new BulkCreationError({
    source: failed.some((failure) => fromServer(failure.error)) ? 'server' : 'client',
    message: describeIssues(`Bulk creation incomplete: ${subject}`, failed.slice(0, 10).map(failureIssue)) + (failed.length > 10 ? `; and ${failed.length - 10} more` : ''),
    result,
    cause: stopped?.reason,
  });
}
