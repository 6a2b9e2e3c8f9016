/**
 * The orders of a bulk upload, read and checked: what the input is (an array, an iterable, an
 * async iterable), each order through the same checking step as a single create, the references
 * two orders of one call must not share, and the input read a chunk at a time. Sending the
 * chunks is bulk-request.ts's, scheduling them bulk.ts's.
 */

import { issuesAt } from '../../../errors/base.js';
import type { BulkFailure } from '../../../errors/bulk-result.js';
import { DeliveryError, ValidationError, type ValidationIssue } from '../../../errors/index.js';
import { isFilled, isRecord, shown } from '../../../internal/guards.js';
import { type Checked, checkInput, type Validation } from '../../../internal/input.js';
import { orderCheck } from '../../../schemas/check.js';

const INVALID_ARGUMENT = 'Invalid argument';

const notOrders = (message: string): ValidationError => new ValidationError([{ path: ['orders'], message }], { subject: INVALID_ARGUMENT });

export type Source =
  | { kind: 'array'; orders: readonly unknown[] }
  | { kind: 'sync'; orders: Iterable<unknown> }
  | { kind: 'async'; orders: AsyncIterable<unknown> };

/** The input as something to read; a `ValidationError` for a string or anything that is not a list of orders. */
export function sourceOf(orders: unknown): Source | ValidationError {
  try {
    // A string is iterable, character by character: a million characters are not a million orders.
    // `instanceof` runs first: a Proxy whose traps throw is refused here, before it is read as an array.
    const isText = typeof orders === 'string' || orders instanceof String;
    if (Array.isArray(orders)) {
      // Read here, where a throw is caught: an array Proxy whose `length` throws is refused before any reader loops on it.
      if (!Number.isSafeInteger(orders.length)) return notOrders('an array whose length is not a whole number');
      return { kind: 'array', orders };
    }
    if (!isText && typeof (orders as Partial<Iterable<unknown>> | null)?.[Symbol.iterator] === 'function')
      return { kind: 'sync', orders: orders as Iterable<unknown> };
    if (typeof (orders as Partial<AsyncIterable<unknown>> | null)?.[Symbol.asyncIterator] === 'function')
      return { kind: 'async', orders: orders as AsyncIterable<unknown> };
  } catch {
    // a revoked Proxy, or one whose `length` or iterator throws: not readable, so not a list of orders
    return notOrders('a list of orders that could not be read (a Proxy whose traps throw?)');
  }
  return notOrders(`expected an array or an iterable of orders, received ${shown(orders)}`);
}

/** An element with a `then` method: awaiting it could run anything, and resolve to another order than the one checked. */
function isThenable(order: unknown): boolean {
  return (typeof order === 'object' || typeof order === 'function') && order !== null && typeof (order as { then?: unknown }).then === 'function';
}

const THENABLE = 'is a promise or thenable, not an order: await it before passing it';

/**
 * The references two orders of one call must not share: the bulk answer names failures by
 * `businessReference`, and the service refuses a repeated `uniqueBusinessReference`.
 */
const REFERENCES = ['businessReference', 'uniqueBusinessReference'] as const;

/**
 * Finds orders that repeat a reference of an earlier order of the same call. A repeated
 * `uniqueBusinessReference` is looked for across the whole call, whichever chunks hold the two
 * orders: the service would refuse the second as already used and the upload report it `existed`,
 * as the first order. A `businessReference` matters within one request (its answer names failures
 * by it): a reader of chunks calls {@link nextChunk} at each, so that a long input is not held.
 */
export class ReferenceBook {
  /** The index each reference was first seen at, a map per field of REFERENCES. */
  readonly #seen = REFERENCES.map(() => new Map<string, number>());

  /** A new chunk begins: its `businessReference`s are compared among themselves. */
  nextChunk(): void {
    this.#seen[0]?.clear();
  }

  /** The issue for `order` at `index` when it repeats an earlier order's reference; remembers its references otherwise. */
  repeated(order: unknown, index: number): ValidationIssue | undefined {
    // Only orders the check passed get here: their snapshots, read without throwing.
    if (!isRecord(order)) return undefined;
    for (let at = 0; at < REFERENCES.length; at++) {
      const field = REFERENCES[at] as (typeof REFERENCES)[number];
      const first = this.#seen[at]?.get(order[field] as string);
      if (first !== undefined)
        return { path: [index, field], message: `the same as [${first}].${field} (${shown(order[field])}): each order of one call needs its own` };
    }
    // Remembered only once the order goes: a refused order holds no reference another would repeat.
    for (let at = 0; at < REFERENCES.length; at++) {
      const value = order[REFERENCES[at] as (typeof REFERENCES)[number]];
      if (typeof value !== 'string' || value === '') continue;
      // A uniqueBusinessReference is kept for the whole upload, as a string of its own: a cell a CSV
      // parser cut out of its text would keep the whole text alive. A businessReference goes with its chunk.
      this.#seen[at]?.set(at === 0 ? value : ` ${value}`.slice(1), index);
    }
    return undefined;
  }
}

/** Why an order is refused before sending. */
export class Refusal {
  constructor(readonly error: DeliveryError) {}
}

/**
 * One order through the checking step: what the step gives (its snapshot as it will be sent, in
 * `value`), or why it is refused. The step's own object, not another wrapped around it: one
 * object less per order of a long upload.
 */
export type CheckedOne = Checked | Refusal;

export const refused = (error: unknown): Refusal =>
  // A revoked Proxy, a `then` getter that throws: nothing that can be sent.
  new Refusal(
    error instanceof DeliveryError ? error : new ValidationError([{ path: [], message: 'could not be read' }], { subject: 'Invalid order', cause: error }),
  );

/** Checks one order as a single create does (the same step); a promise only while the schemas load. */
export function checkOne(order: unknown, validation: Validation): CheckedOne | Promise<CheckedOne> {
  try {
    if (isThenable(order)) return refused(new ValidationError([{ path: [], message: THENABLE }], { subject: 'Invalid order' }));
    const checked = checkInput(orderCheck, order, validation);
    return checked instanceof Promise ? checked.catch(refused) : checked;
  } catch (error) {
    return refused(error);
  }
}

/**
 * The order at `key` of `holder` (an array's index, an iterator result's `value`), checked as
 * {@link checkOne} checks it; refused when reading it throws (a getter), and the others go.
 */
function checkAt(holder: object, key: number | 'value', validation: Validation): CheckedOne | Promise<CheckedOne> {
  try {
    return checkOne((holder as Record<number | 'value', unknown>)[key], validation);
  } catch (error) {
    return refused(error);
  }
}

/**
 * What an upload keeps of an order once checked and written: the `businessReference` its answer
 * names it by (`undefined` without one). Not the snapshot: 10,000 of those held until the last
 * chunk is answered weigh tens of megabytes, which the garbage collector then walks again and again.
 */
const referenceOf = (order: unknown): string | undefined => {
  const reference = isRecord(order) ? order[REFERENCES[0]] : undefined;
  return isFilled(reference) ? reference : undefined;
};

/** The orders of a chunk to send, as one request carries them. */
export interface WrittenOrders {
  /** Each order's `businessReference`, in request order (see {@link referenceOf}). */
  references: Array<string | undefined>;
  /**
   * The request's body, the orders' snapshots as checked in it, written with one `JSON.stringify`,
   * as UTF-8 bytes: a text the size of the chunk, held in the JS heap by each request in flight,
   * outlives the garbage collector's young collections and grows its old heap with every chunk of
   * a long upload (a streamed upload's peak RSS was 1.2x plain ky's); bytes are held outside it.
   * The encoding is the transport's own step, done here rather than when it sends.
   */
  body: Uint8Array<ArrayBuffer>;
}

/** Writes the body of a request carrying `snapshots` (request.ts's `bodyWriter`): one string, no copy of it made to wrap it. */
export type WriteBody = (snapshots: unknown[]) => string;

const utf8 = new TextEncoder();

/** `snapshots` written as the body a request sends; what is kept of them, their references. */
const written = (snapshots: unknown[], write: WriteBody): WrittenOrders => ({
  body: utf8.encode(write(snapshots)),
  references: snapshots.map(referenceOf),
});

/**
 * The orders of an array, each checked, written `chunkSize` at a time: the chunks to send, or one
 * `ValidationError` listing every invalid order and repeated reference.
 */
export async function checkArray(orders: readonly unknown[], validation: Validation, chunkSize: number, write: WriteBody): Promise<WrittenOrders[]> {
  const chunks: WrittenOrders[] = [];
  let snapshots: unknown[] = [];
  const issues: ValidationIssue[] = [];
  const references = new ReferenceBook();
  let invalid = 0;
  for (let index = 0; index < orders.length; index++) {
    let checked = checkAt(orders, index, validation);
    if (checked instanceof Promise) checked = await checked;
    const repeated = checked instanceof Refusal ? undefined : references.repeated(checked.value, index);
    if (checked instanceof Refusal) {
      invalid++;
      issues.push(...issuesAt(index, checked.error));
    } else if (repeated !== undefined) {
      invalid++;
      issues.push(repeated);
    } else if (invalid === 0) snapshots.push(checked.value);
    // A chunk is written as soon as it is whole, while none is invalid: its snapshots go, their JSON stays.
    if (invalid === 0 && (snapshots.length === chunkSize || index === orders.length - 1)) {
      chunks.push(written(snapshots, write));
      snapshots = [];
    }
  }
  if (invalid > 0) throw new ValidationError(issues, { subject: `Invalid orders (${invalid} of ${orders.length}; nothing was sent)` });
  return chunks;
}

/** One chunk read from the input: the orders to send (checked and written) and those refused before sending. */
export interface ReadChunk extends WrittenOrders {
  /** Input index of the chunk's first order. */
  start: number;
  /** Orders read into it, sent or refused. */
  size: number;
  /** The input index of each order to send: `indexes[i]` is that of `references[i]`. */
  indexes: number[];
  refused: BulkFailure[];
}

/** A chunk being read: its orders' snapshots until it is whole and written. */
interface Filling extends Pick<ReadChunk, 'start' | 'size' | 'indexes' | 'refused'> {
  snapshots: unknown[];
}

/** The input of an upload, read a chunk at a time. */
export interface ChunkReader {
  /** The next chunk, each of its orders checked as it was read; `undefined` once the input is exhausted. */
  next(): Promise<ReadChunk | undefined>;
  /** Closes the input (its iterator's `return()`) unless it was read to the end: a generator's `finally` runs, a cursor is released. */
  return(): Promise<void>;
}

/**
 * Reads `source` `chunkSize` orders at a time, so that only the chunk being filled is held. Each
 * order is checked as it is read, and the chunk written once whole, unless `prepared` gives the
 * chunks as checked and written (an array checked up front). The iterator is taken at once:
 * closing the reader closes it even when no chunk was read.
 */
export function chunksOf(source: Source, chunkSize: number, validation: Validation, write: WriteBody, prepared?: readonly WrittenOrders[]): ChunkReader {
  let index = 0;
  let exhausted = false;
  // A repeated uniqueBusinessReference is looked for across the upload, a businessReference within each chunk (one request).
  const references = validation === false ? undefined : new ReferenceBook();
  const iterator: Iterator<unknown> | AsyncIterator<unknown> | undefined =
    source.kind === 'sync' ? source.orders[Symbol.iterator]() : source.kind === 'async' ? source.orders[Symbol.asyncIterator]() : undefined;

  /** Places the order at `index` in `chunk`: to send, or refused (invalid, or repeating a reference of the chunk). */
  const place = (checked: CheckedOne, chunk: Filling, references: ReferenceBook | undefined): undefined => {
    const at = index++;
    chunk.size++;
    if (checked instanceof Refusal) {
      chunk.refused.push({ index: at, error: checked.error, mayExist: false });
      return undefined;
    }
    const repeated = references?.repeated(checked.value, at);
    if (repeated !== undefined) chunk.refused.push({ index: at, error: new ValidationError([repeated], { subject: 'Invalid order' }), mayExist: false });
    else {
      chunk.snapshots.push(checked.value);
      chunk.indexes.push(at);
    }
    return undefined;
  };
  /** Checks the order at `key` of `holder` and places it in `chunk`; a promise only while the schemas load. */
  const take = (holder: object, key: number | 'value', chunk: Filling, references: ReferenceBook | undefined): undefined | Promise<void> => {
    const checked = checkAt(holder, key, validation);
    if (checked instanceof Promise) return checked.then((ready) => place(ready, chunk, references));
    return place(checked, chunk, references);
  };

  return {
    async next() {
      const chunk: Filling = { start: index, size: 0, snapshots: [], indexes: [], refused: [] };
      const whole = prepared?.[chunk.start / chunkSize];
      if (whole !== undefined) {
        // Checked and written up front: every order of the range goes.
        const end = Math.min(index + chunkSize, source.kind === 'array' ? source.orders.length : index);
        for (; index < end; index++) chunk.indexes.push(index);
        return { ...chunk, ...whole, size: chunk.indexes.length };
      }
      references?.nextChunk();
      if (source.kind === 'array') {
        const end = Math.min(index + chunkSize, source.orders.length);
        const { orders } = source;
        while (index < end) {
          const loading = take(orders, index, chunk, references);
          if (loading !== undefined) await loading;
        }
      } else {
        while (chunk.size < chunkSize) {
          // A sync iterator's values are never awaited: a thenable among them is refused, not run.
          const next = source.kind === 'sync' ? (iterator as Iterator<unknown>).next() : await (iterator as AsyncIterator<unknown>).next();
          if (next.done === true) break;
          const loading = take(next, 'value', chunk, references);
          if (loading !== undefined) await loading;
        }
      }
      if (chunk.size === 0) {
        exhausted = true;
        return undefined;
      }
      // The chunk is whole: written once, its snapshots let go.
      const { snapshots, ...read } = chunk;
      return { ...read, ...written(snapshots, write) };
    },
    async return() {
      if (!exhausted) await iterator?.return?.();
    },
  };
}
