/**
 * Bulk creation (`POST /deliveries/bulk?apiVersion=1`): `createBulkDeliveries` for today's
 * all-or-nothing promise, `streamBulkDeliveries` for an outcome per chunk, so that memory does
 * not grow with the number of orders. Each order is checked once.
 */

import type { RequestOptions } from '../../../core/options.js';
import type { BulkTelemetry } from '../../../core/telemetry.js';
import { type BulkCreatedDelivery, type BulkCreateResult, type BulkFailure, byIndex } from '../../../errors/bulk-result.js';
import {
  ApiError,
  BulkCreationError,
  ConfigurationError,
  DeliveryError,
  type RequestAbortedError,
  ResponseShapeError,
  ValidationError,
} from '../../../errors/index.js';
import { abortedByCaller } from '../../../internal/attempt-clock.js';
import { shown } from '../../../internal/guards.js';
import type { Validation } from '../../../internal/input.js';
import { validationOf } from '../../../internal/skip-rules.js';
import type { OrderInput } from '../../../schemas/order.js';
import { coreInternals, type DeliveryCore, requireCore } from '../../delivery-core.js';
import { checkArray, chunksOf, type ReadChunk, type Source, sourceOf, type WrittenOrders } from './input.js';
import { BULK_PATH, bodyWriter, type PostedChunk, postChunk, type ServiceAnswerError } from './request.js';

export type { BulkCreatedDelivery, BulkCreateResult, BulkFailure };

/** Reported to `onProgress` after each chunk. */
export interface BulkProgress {
  /** Orders whose chunk has settled. */
  done: number;
  /** Orders created so far. */
  created: number;
  /** Orders that were not (or not surely) created so far, sent or refused before sending. */
  failed: number;
  /** Size of the input when known (an array); `undefined` for an iterable. */
  total: number | undefined;
}

/** Options of `createBulk` and `streamBulk`, besides the per-call options each chunk's request takes. */
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

/** Options of `streamBulk`: those of `createBulk`, and `onSettled`. */
export interface BulkStreamOptions extends BulkCreateOptions {
  /**
   * Called with each chunk's outcome as soon as it settles, for every chunk sent, whether or not
   * the loop pulls: also for the chunks still in flight when you leave the loop (`break`,
   * `return`, a throw) or stop pulling altogether (an iterator dropped), whose outcomes the loop
   * never yields. Nothing new is sent without a pull. Give it whenever the loop may not run to
   * the end: it is the one place that hears of every created order. Throwing from it stops the
   * upload.
   */
  onSettled?: ((chunk: BulkChunkOutcome) => void) | undefined;
}

/** The orders `createBulk` takes: an array, or any iterable or async iterable (a generator, a stream of rows). A string is not. */
export type BulkInput = Iterable<OrderInput> | AsyncIterable<OrderInput>;

/** What became of one chunk of a streamed upload, by input index. */
export interface BulkChunkOutcome {
  /** Input index of the chunk's first order. */
  start: number;
  /** Orders in the chunk: `start` to `start + size - 1`. */
  size: number;
  /** Its orders that were created. */
  created: BulkCreatedDelivery[];
  /** Its orders that were not (or not surely) created: refused before sending (`mayExist: false`), or by the service. */
  failed: BulkFailure[];
  /** Every id the service reported created for this chunk. */
  createdIds: string[];
  /** Totals so far, as `onProgress` gets them. */
  progress: BulkProgress;
}

/** The operation an upload runs for, as its messages name it. */
type BulkOperation = 'createBulk' | 'streamBulk';

const aborted = (signal: AbortSignal): RequestAbortedError => abortedByCaller(`POST ${BULK_PATH}`, signal);

/** The options, checked; a `ConfigurationError` names the one that is wrong, whatever its type. */
function settingsOf(name: BulkOperation, options: BulkCreateOptions | undefined) {
  if (options !== undefined && options !== null && typeof options !== 'object')
    throw new ConfigurationError(`${name} options: expected an object, received ${shown(options)}.`);
  let read: BulkCreateOptions;
  try {
    // One read of every option, into an object of the SDK's own: a getter cannot answer twice.
    read = { ...options };
  } catch (cause) {
    throw new ConfigurationError(`${name} options could not be read.`, { cause });
  }
  const { chunkSize = 100, concurrency = 4, onProgress, onSettled, deleteFailedDeliveries = false, ...requestOptions } = read as BulkStreamOptions;
  for (const [option, value] of [
    ['chunkSize', chunkSize],
    ['concurrency', concurrency],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new ConfigurationError(`${name} \`${option}\`: expected a whole number of at least 1, received ${shown(value)}.`);
  }
  if (typeof deleteFailedDeliveries !== 'boolean')
    throw new ConfigurationError(`${name} \`deleteFailedDeliveries\`: expected true or false, received ${shown(deleteFailedDeliveries)}.`);
  for (const [option, value] of [
    ['onProgress', onProgress],
    ['onSettled', onSettled],
  ] as const) {
    if (value !== undefined && typeof value !== 'function')
      throw new ConfigurationError(`${name} \`${option}\`: expected a function, received ${shown(value)}.`);
  }
  return { chunkSize, concurrency, onProgress, onSettled, deleteFailedDeliveries, requestOptions: requestOptions as RequestOptions };
}

interface Upload {
  /** The operation, as its messages name it. */
  readonly name: BulkOperation;
  readonly chunkSize: number;
  readonly concurrency: number;
  readonly onProgress: ((progress: BulkProgress) => void) | undefined;
  readonly onSettled: ((chunk: BulkChunkOutcome) => void) | undefined;
  readonly deleteFailedDeliveries: boolean;
  readonly requestOptions: RequestOptions;
  readonly validation: Validation;
  /** Told of the upload's chunks, when the client has `telemetry`; the upload ends it. */
  readonly traced: BulkTelemetry | undefined;
}

/** How an upload ended: the index of the first order not sent, and why it stopped early (if it did). */
interface UploadEnd {
  sentUpTo: number;
  exhausted: boolean;
  reason: DeliveryError | undefined;
  /** The service's error answers that carried a bulk outcome (a 1061, or another code with `data`), in order. */
  serviceErrors: ServiceAnswerError[];
}

/**
 * Sends the chunks of `source` with at most `concurrency` requests in flight, yielding each
 * chunk's outcome as it settles; returns how it ended. The input is read only as a slot frees,
 * so at most `concurrency` chunks are held. `prepared` gives, for an array checked up front,
 * each order as checked; otherwise each order is checked as its chunk fills.
 */
async function* upload(core: DeliveryCore, source: Source, settings: Upload, prepared?: readonly WrittenOrders[]): AsyncGenerator<BulkChunkOutcome, UploadEnd> {
  const { name, chunkSize, concurrency, onProgress, onSettled, deleteFailedDeliveries, requestOptions, validation } = settings;
  const { signal } = requestOptions;
  const observer = settings.traced;
  const progress: BulkProgress = { done: 0, created: 0, failed: 0, total: source.kind === 'array' ? source.orders.length : undefined };
  let reason: DeliveryError | undefined;
  const serviceErrors: ServiceAnswerError[] = [];
  let sentUpTo = 0;
  let exhausted = false;
  const stopped = (): boolean => reason !== undefined || signal?.aborted === true;
  let chunks: ReturnType<typeof chunksOf>;
  try {
    chunks = chunksOf(source, chunkSize, validation, bodyWriter(deleteFailedDeliveries), prepared);
  } catch (cause) {
    // The iterable's own [Symbol.iterator]() threw, or gave what cannot be read (a revoked Proxy): nothing was sent.
    throw new ValidationError([{ path: ['orders'], message: 'its iterator could not be taken' }], { subject: `${name}: invalid argument`, cause });
  }

  /** Posts a chunk, learns from its answer whether the upload must stop, and counts its outcome into the progress. */
  const runChunk = async (chunk: ReadChunk): Promise<BulkChunkOutcome> => {
    const { start, size, refused } = chunk;
    const traced = observer?.chunk(start, size);
    const { created, failed, createdIds, stop, serviceError } = await postChunk(core, chunk, requestOptions, traced).catch((thrown: unknown) =>
      faultOf(chunk, thrown),
    );
    reason ??= stop;
    if (serviceError !== undefined) serviceErrors.push(serviceError);
    // Each list is in input order already: sorted only when merged.
    const notCreated = refused.length === 0 ? failed : refused.concat(failed).sort(byIndex);
    progress.done += size;
    progress.created += created.length;
    progress.failed += notCreated.length;
    const outcome = { start, size, created, failed: notCreated, createdIds, progress: { ...progress } };
    traced?.end({ orders: outcome });
    return outcome;
  };

  /**
   * Each chunk's outcome goes to `onProgress` and `onSettled` as it settles, whether or not the
   * consumer pulls: a loop that stops pulling (an iterator dropped, a request handler that timed
   * out) still hears of every order the chunks in flight created. Only the chunks in flight: the
   * loop below sends nothing new until the next pull.
   */
  const told = new WeakSet<BulkChunkOutcome>();
  let callbackFailure: DeliveryError | undefined;
  const report = (outcome: BulkChunkOutcome): BulkChunkOutcome => {
    try {
      onProgress?.(outcome.progress);
    } catch (cause) {
      reason ??= new DeliveryError(`${name} stopped: onProgress threw`, { cause });
    }
    if (onSettled === undefined) return outcome;
    try {
      onSettled(outcome);
      told.add(outcome);
    } catch (cause) {
      callbackFailure ??= new DeliveryError(`${name} stopped: onSettled threw`, { cause });
      reason ??= callbackFailure;
    }
    return outcome;
  };

  const running = new Map<Promise<BulkChunkOutcome>, Promise<readonly [Promise<BulkChunkOutcome>, BulkChunkOutcome]>>();
  const settle = async function* (): AsyncGenerator<BulkChunkOutcome> {
    const [task, outcome] = await Promise.race(running.values());
    running.delete(task);
    yield outcome;
  };
  let finished = false;
  try {
    for (;;) {
      while (running.size >= concurrency) yield* settle();
      if (stopped()) break;
      let chunk: ReadChunk | undefined;
      try {
        chunk = await chunks.next();
      } catch (cause) {
        // The caller's iterable threw after some chunks went out: those orders exist and must be reported.
        reason ??= new DeliveryError(`${name} stopped: reading the orders threw`, { cause });
        break;
      }
      if (chunk === undefined) {
        exhausted = true;
        break;
      }
      if (stopped()) break;
      sentUpTo = chunk.start + chunk.size;
      const task = runChunk(chunk).then(report);
      running.set(
        task,
        task.then((outcome) => [task, outcome] as const),
      );
    }
    while (running.size > 0) yield* settle();
    finished = true;
  } finally {
    // Leaving the loop early (`break`, `return`): chunks in flight finish (never sent twice), and
    // their outcomes, which the loop will not yield, went to onSettled as they settled. Without
    // onSettled (or when it threw for one), the orders they created are not yet reported: the
    // exit throws a BulkCreationError carrying them, which a for-await `break` sees.
    const unyielded = (await Promise.allSettled(running.keys())).flatMap((settled) => (settled.status === 'fulfilled' ? [settled.value] : []));
    let closing: DeliveryError | undefined;
    try {
      await chunks.return();
    } catch (cause) {
      // The input's return() threw (a cursor that failed to close, a revoked Proxy): said, typed, after every outcome.
      closing = new DeliveryError(`${name}: closing the orders' iterator threw`, { cause });
      reason ??= closing;
    }
    observer?.end(reason);
    if (!finished) {
      const untold = unyielded.filter((outcome) => !told.has(outcome));
      const left = unreported(name, untold, sentUpTo, exhausted, callbackFailure);
      // biome-ignore lint/correctness/noUnsafeFinally: thrown only when the consumer left the loop, replacing a return, never another error
      if (left !== undefined) throw left;
      // biome-ignore lint/correctness/noUnsafeFinally: the same; onSettled's failure for a chunk the loop never yielded is said here or nowhere
      if (callbackFailure !== undefined && unyielded.length > 0) throw callbackFailure;
      // biome-ignore lint/correctness/noUnsafeFinally: the same; the loop will not see `reason` any more
      if (closing !== undefined) throw closing;
    }
  }
  if (reason === undefined && !exhausted && signal?.aborted) reason = aborted(signal);
  return { sentUpTo, exhausted, reason, serviceErrors };
}

/**
 * What a chunk's outcome is when the SDK's own sending or reading of it throws (a fault: postChunk
 * turns every failure of the request and every answer into an outcome): it may have been sent, so
 * each of its orders may exist, and the upload stops, since the next chunks would meet the fault.
 */
function faultOf({ indexes }: ReadChunk, thrown: unknown): PostedChunk {
  const error =
    thrown instanceof DeliveryError ? thrown : new DeliveryError(`POST ${BULK_PATH}: the SDK failed while it sent or read this chunk`, { cause: thrown });
  return { created: [], failed: indexes.map((index) => ({ index, error, mayExist: true })), createdIds: [], stop: error };
}

/**
 * The all-or-nothing check of an array: each order checked once, by the step a single create
 * uses. A `ValidationError` listing every invalid order, and every repeated reference, when any
 * is wrong; else the orders as they will be sent.
 */
function start(name: BulkOperation, core: DeliveryCore, orders: unknown, options: BulkStreamOptions | undefined): { source: Source; settings: Upload } {
  requireCore(core);
  const { telemetry, baseUrl } = coreInternals(core).config;
  const source = sourceOf(orders);
  if (source instanceof ValidationError) throw source;
  const { chunkSize, concurrency, onProgress, onSettled, deleteFailedDeliveries, requestOptions } = settingsOf(name, options);
  const validation = validationOf(coreInternals(core), requestOptions);
  // The span of the sending, which ends with it (one that fails before it sends a chunk, the check of an array refused, has none).
  const traced = telemetry?.bulk(`deliveries.${name}`, baseUrl);
  return { source, settings: { name, chunkSize, concurrency, onProgress, onSettled, deleteFailedDeliveries, requestOptions, validation, traced } };
}

/**
 * Creates many orders (`POST /deliveries/bulk?apiVersion=1`, body `{ deliveries: [...],
 * deleteFailedDeliveries }`; `deleteFailedDeliveries` is `false` unless you set the option).
 *
 * 1. An array is all or nothing: unless `validate: false`, every order is checked (once)
 *    first; if any is invalid, or two orders share a `businessReference` or
 *    `uniqueBusinessReference`, one `ValidationError` lists the issues of all of them (paths
 *    start with the input index: `[17].cod`, `[5].businessReference: the same as [2]...`) and
 *    nothing is sent. A generator or async iterable is checked chunk by chunk as it is read:
 *    an invalid order (or one repeating an earlier order's `uniqueBusinessReference`, or a
 *    `businessReference` of its chunk) fails on its own, with `mayExist: false`, and the others are sent. An order is not copied when it is sent as written: change it only
 *    after the call settles. A string, or an element with a `then` method, is refused.
 * 2. The orders go in chunks of `chunkSize` (100), `concurrency` (4) requests at a time, the
 *    input read only as chunks are sent. For results that do not grow with the input either,
 *    use `streamBulk`.
 * 3. No order is sent twice. The service answers with the ids it created
 *    (`createdDeliveriesIds`) and the orders it refused by `businessReference`
 *    (`failedDeliveries`, each with its `errorMessage`), on a 2xx or in a 1061 error. Refused
 *    orders are failed with the service's message; the others are created. Give every order a
 *    distinct `businessReference`: an answer that cannot be matched to the orders (a failure
 *    without a reference, a reference sent twice, counts that do not add up) leaves the orders
 *    it could concern failed with `mayExist: true`. A chunk with no clear answer (5xx,
 *    timeout) is not sent again: its orders are failed with `mayExist: true`.
 * 4. An abort (`signal`), or an error every chunk would get (401, 403, 404, 1073), stops the
 *    sending of further chunks.
 *
 * Resolves `{ created, failed: [], createdIds }` when every order was created. Otherwise it
 * throws a `BulkCreationError` (1061) carrying the same result: `created` and `failed` by
 * input index, every id in `createdIds`, and `stopped` when it ended early. The service does
 * not say which id is whose, so `created[i]._id` is set only when a request created one order.
 * An abort before anything was sent throws `RequestAbortedError`.
 *
 * @operation deliveries.createBulk
 * @chunk bulk
 * @calls POST /deliveries/bulk?apiVersion=1
 *
 * @throws `ValidationError` before sending, for an invalid array (`[17].cod: ...`) or an input that is not a list of orders.
 * @throws `BulkCreationError` when any order was not created, with `created`, `failed` and `stopped`.
 *
 * @example
 * ```ts
 * try {
 *   const { created } = await client.deliveries.createBulk(orders, { onProgress: (p) => console.log(`${p.done}/${p.total}`) });
 * } catch (err) {
 *   if (!(err instanceof BulkCreationError)) throw err;
 *   save(err.created); // { index, businessReference, _id? }[]
 *   for (const { index, error, mayExist } of err.failed) console.warn(index, mayExist ? 'may exist: see resolveTrackingNumbers' : error.message);
 * }
 * // Or, to always get the result: .catch((err) => (err instanceof BulkCreationError ? err.result : Promise.reject(err)))
 * ```
 */
export async function createBulkDeliveries(core: DeliveryCore, orders: BulkInput, options?: BulkCreateOptions): Promise<BulkCreateResult> {
  const { source, settings } = start('createBulk', core, orders, options);
  const { signal } = settings.requestOptions;
  if (signal?.aborted) throw aborted(signal);
  const prepared =
    source.kind === 'array' && settings.validation !== false
      ? await checkArray(source.orders, settings.validation, settings.chunkSize, bodyWriter(settings.deleteFailedDeliveries))
      : undefined;
  if (signal?.aborted) throw aborted(signal);

  const result: BulkCreateResult = { created: [], failed: [], createdIds: [] };
  const outcomes: BulkChunkOutcome[] = [];
  const chunks = upload(core, source, settings, prepared);
  let next = await chunks.next();
  for (; next.done !== true; next = await chunks.next()) {
    outcomes.push(next.value);
    result.createdIds.push(...next.value.createdIds);
  }
  // The chunks are ranges of the input, each outcome's lists in input order: in the order of the
  // chunks, the lists are too, without comparing orders one by one.
  outcomes.sort((a, b) => a.start - b.start);
  for (const { created, failed } of outcomes) {
    result.created.push(...created);
    result.failed.push(...failed);
  }
  const { sentUpTo, exhausted, reason, serviceErrors } = next.value;
  const total = source.kind === 'array' ? source.orders.length : undefined;
  if (!exhausted && reason !== undefined && (total === undefined || sentUpTo < total)) result.stopped = { at: sentUpTo, reason };
  const { stopped } = result;
  if (result.failed.length === 0 && stopped === undefined) return result;

  const [firstAnswer] = serviceErrors;
  // The message counts and groups; `failed` has every entry (no `issues`: 100,000 of them would flood every log line).
  throw new BulkCreationError({
    // 'server' when any answer said an order failed or could not be matched; 'client' for what only the SDK saw.
    source: result.failed.some(
      ({ error }) => error instanceof ApiError || error instanceof ResponseShapeError || (error as { source?: unknown }).source === 'server',
    )
      ? 'server'
      : 'client',
    message: describeOutcome(result, total ?? (exhausted ? sentUpTo : undefined)),
    result,
    serviceErrors,
    // The first error answer's status, body, headers and request, as a 1061 answer would carry them.
    ...(firstAnswer && { status: firstAnswer.status, body: firstAnswer.body, headers: { ...firstAnswer.headers }, request: firstAnswer.request }),
    cause: stopped?.reason ?? firstAnswer,
  });
}

/**
 * Like `createBulk`, for inputs of any length: yields what became of each chunk as it settles
 * (`{ start, size, created, failed, createdIds, progress }`, not necessarily in input order), so
 * neither the input nor the results are held whole: for a generator reading a CSV file or a
 * database cursor. Each order is checked as its chunk fills (unless `validate: false`); an invalid
 * one, or one repeating the `uniqueBusinessReference` of an earlier order (whichever chunk holds
 * it: the service would refuse it as taken) or the `businessReference` of an earlier order of its
 * chunk, is in its chunk's `failed` with `mayExist: false`, and the others are sent.
 * `outcome.progress` (and `onProgress`) has the totals.
 *
 * Nothing is sent before the iteration starts, nor between two pulls beyond the chunks already
 * in flight. Each chunk's outcome goes to `onSettled` as soon as it settles, pulled or not, so an
 * iterator that is dropped mid-loop still reports what its chunks in flight created. Breaking out
 * of the loop stops reading the input: chunks in flight finish, and leaving the loop waits for
 * them. Without `onSettled`, when those chunks created orders (or may have), leaving the loop
 * (`break`, `return`) throws a `BulkCreationError` carrying them: no created order goes
 * unreported. When the upload stops early (an abort, an error every chunk would get such as
 * `AuthenticationError`, your iterable throwing, `onProgress` throwing), the loop throws that
 * error after the outcomes of every chunk sent.
 *
 * @operation deliveries.streamBulk
 * @chunk bulk
 * @calls POST /deliveries/bulk?apiVersion=1
 *
 * @throws `ValidationError` on the first read, for an input that is not a list of orders.
 * @throws `BulkCreationError` from a `break` (the iterator's `return()`) without `onSettled`, carrying the orders created by chunks the loop never yielded.
 *
 * @example
 * ```ts
 * import type { OrderInput } from 'delivery-sdk';
 *
 * async function* rows(): AsyncGenerator<OrderInput> {
 *   for (let i = 0; i < 3; i++) yield { type: DeliveryType.Deliver, dropOffAddress, receiver, businessReference: `row-${i}` };
 * }
 * for await (const chunk of client.deliveries.streamBulk(rows(), { chunkSize: 100 })) {
 *   for (const { index, error, mayExist } of chunk.failed) console.warn(index, mayExist ? 'check before resending' : error.message);
 *   console.log(`${chunk.progress.done} done, ${chunk.progress.created} created`);
 * }
 * ```
 */
export async function* streamBulkDeliveries(
  core: DeliveryCore,
  orders: BulkInput,
  options?: BulkStreamOptions,
): AsyncGenerator<BulkChunkOutcome, void, undefined> {
  const { source, settings } = start('streamBulk', core, orders, options);
  const { signal } = settings.requestOptions;
  if (signal?.aborted) throw aborted(signal);
  const { reason } = yield* upload(core, source, settings);
  if (reason !== undefined) throw reason;
}

/**
 * The error that leaving a `streamBulk` loop early throws when chunks it never yielded created
 * orders (or may have) that no `onSettled` was told of: a `BulkCreationError` carrying those
 * orders by input index, their ids, and where the upload stopped. Undefined when there are none.
 */
function unreported(
  name: BulkOperation,
  outcomes: readonly BulkChunkOutcome[],
  sentUpTo: number,
  exhausted: boolean,
  cause: DeliveryError | undefined,
): BulkCreationError | undefined {
  const result: BulkCreateResult = {
    created: outcomes.flatMap((outcome) => outcome.created).sort(byIndex),
    failed: outcomes.flatMap((outcome) => outcome.failed).sort(byIndex),
    createdIds: outcomes.flatMap((outcome) => outcome.createdIds),
  };
  const unknown = result.failed.filter((failure) => failure.mayExist).length;
  if (result.created.length + result.createdIds.length + unknown === 0) return undefined;
  const left = new DeliveryError(`${name}: the loop was left`);
  if (!exhausted) result.stopped = { at: sentUpTo, reason: left };
  return new BulkCreationError({
    source: 'client',
    message: `${name}: the loop was left with ${Math.max(result.created.length, result.createdIds.length)} created and ${unknown} unknown orders that no onSettled was told of: see created, failed, result.createdIds`,
    result,
    cause: cause ?? left,
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
  const shownRuns = runs.slice(0, 5).map(([from, to]) => (from === to ? `[${from}]` : `[${from}-${to}]`));
  return shownRuns.join(', ') + (runs.length > 5 ? ` and ${runs.length - 5} more runs` : '');
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
    // An error of the transport says `mayExist` in its own words already.
    const reason = `${mayExist && !error.mayExist ? 'outcome unknown, may have been created: ' : ''}${error.message}`;
    const group = groups.get(reason);
    if (group === undefined) groups.set(reason, [index]);
    else group.push(index);
  }
  const listed = [...groups]
    .slice(0, 10)
    .map(([reason, indexes]) => `${describeIndexes(indexes)}${indexes.length > 1 ? ` (${indexes.length} orders)` : ''}: ${reason}`);
  if (listed.length === 0) return subject;
  return `${subject}: ${listed.join('; ')}${groups.size > 10 ? `; and ${groups.size - 10} more reasons` : ''}`;
}
