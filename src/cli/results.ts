/**
 * The outcome of every record of an import, written in record order as soon as it and every
 * record before it are settled: to the results file (CSV, the header below), to stdout as JSON
 * Lines with `--json`, and to the summary. Only the records in flight are held, so memory does not
 * grow with the file. Writes are synchronous: a second Ctrl-C can write what is left and exit at once.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { formatPath, isDeliveryError, ValidationError } from '../index.js';
import { UsageError } from './exit.js';
import { errorFields } from './output.js';

/** The results file's header, in this order. */
export const RESULT_COLUMNS = [
  'row',
  'businessReference',
  'uniqueBusinessReference',
  'status',
  'id',
  'trackingNumber',
  'errorClass',
  'errorCode',
  'message',
] as const;

/**
 * - `created`: created by this run; `existed`: its `uniqueBusinessReference` was already held (an
 *   earlier run created it), with that order's tracking number.
 * - `refused`: the SDK's check or the service refused it: fix the row.
 * - `not sent`: no order exists for it: send it again as it is.
 * - `unknown`: it may have been created: look it up (by its references) before sending it again.
 */
export type RowStatus = 'created' | 'existed' | 'refused' | 'not sent' | 'unknown';

export interface RowResult {
  /** The record's number in the file, from 1. */
  row: number;
  businessReference: string | undefined;
  uniqueBusinessReference: string | undefined;
  status: RowStatus;
  id: string | undefined;
  trackingNumber: string | undefined;
  errorClass: string | undefined;
  errorCode: number | undefined;
  message: string | undefined;
}

/** What the record said of itself, kept until its outcome is written: its references, and the phone its order can be found by. */
export interface RowKeys {
  businessReference: string | undefined;
  uniqueBusinessReference: string | undefined;
  /** `receiver.phone`: to find the order when its reference cannot be searched. Never written out. */
  phone: string | undefined;
}

/** What an outcome says of the whole import: the key was refused, the service could not be reached. */
interface Flags {
  keyRefused?: boolean;
  unreachable?: boolean;
}

export type Outcome = Pick<RowResult, 'status'> & Partial<Pick<RowResult, 'id' | 'trackingNumber' | 'message'>> & { error?: unknown };

const textField = (order: unknown, name: string): string | undefined => {
  const value = typeof order === 'object' && order !== null ? (order as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
};

export const keysOf = (order: unknown): RowKeys => ({
  businessReference: textField(order, 'businessReference'),
  uniqueBusinessReference: textField(order, 'uniqueBusinessReference'),
  phone: textField(typeof order === 'object' && order !== null ? (order as Record<string, unknown>)['receiver'] : undefined, 'phone'),
});

/** Where settled rows go, in record order. */
export interface RowSink {
  write(rows: readonly RowResult[]): void;
  close(): void;
}

/**
 * A cell a spreadsheet would run as a formula, as OWASP's CSV injection guidance lists them: one
 * starting with `=`, `+`, `-`, `@`, a tab or a carriage return. It is written with a `'` before
 * it, quoted, as Papa Parse's `unparse` writes it with `escapeFormulae` set to this pattern
 * (its own, `escapeFormulae: true`, misses a cell holding a line break, `=HYPERLINK(...)\n`).
 */
export const FORMULA = /^[=+\-@\t\r]/;

/** A cell Papa Parse's `unparse` quotes: one holding a quote, a comma, a line break or a byte order mark, or starting or ending with a space. */
const QUOTED = /[",\r\n\ufeff]|^ | $/;

/** A cell of the results file, as Papa Parse's `unparse` writes it (test/cli/results.test.ts holds the two alike). */
function cell(value: string | number | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const formula = FORMULA.test(value);
  const text = formula ? `'${value}` : value;
  return formula || QUOTED.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The lines of `rows`, a cell per column of {@link RESULT_COLUMNS}, each line ended. Written here
 * rather than by Papa Parse's `unparse`, which reads its options and makes its patterns again at
 * each call (a few hundred calls an import, 15 ms of 10,000 rows).
 */
export function resultLines(rows: readonly RowResult[]): string {
  let text = '';
  for (const row of rows) text += `${RESULT_COLUMNS.map((column) => cell(row[column])).join(',')}\n`;
  return text;
}

/** Makes `folder` and its parents when missing; one that cannot be made (a file in the way, no permission) is a usage error naming `flag`. */
export function madeFolder(folder: string, flag: string): void {
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EEXIST' || code === 'ENOTDIR' ? 'a file is in the way' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? String(error));
    throw new UsageError(`${flag}: cannot make the folder ${folder}: ${why} (${code ?? 'error'})`);
  }
}

/** The results file: created (or emptied) before anything is sent, its folder made if missing, so a path that cannot be written is a usage error. */
export function resultsFile(path: string): RowSink {
  madeFolder(dirname(path), '--results');
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (error) {
    throw new UsageError(`--results: cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  writeSync(fd, `${RESULT_COLUMNS.join(',')}\n`);
  return {
    write: (rows) => {
      try {
        writeSync(fd, resultLines(rows));
      } catch (cause) {
        // The rows before are in the file; the summary and --json have the rest.
        throw new Error(`--results: ${path} could not be written from row ${rows[0]?.row} on`, { cause });
      }
    },
    close: () => closeSync(fd),
  };
}

/** `--json`: one JSON object a row on stdout, without the fields a row does not have. */
export function jsonLines(stdout: NodeJS.WritableStream): RowSink {
  // A reader that went away (`| head -1`) fails a write after it returned, as an 'error' of the stream:
  // the next write says so, and the ledger stops the reading as it does for a results file.
  let failure: unknown;
  stdout.on('error', (error: unknown) => (failure ??= error));
  return {
    write: (rows) => {
      if (failure !== undefined) throw new Error(`stdout could not be written from row ${rows[0]?.row} on`, { cause: failure });
      stdout.write(rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
    },
    close: () => {},
  };
}

/** Every record read, until its outcome is written; the counts of each status. */
export class Ledger {
  private readonly pending = new Map<number, RowKeys>();
  private readonly settled = new Map<number, RowResult>();
  /** What is known of a pending row while more is looked up (a created order's tracking number): its outcome should the import end first. */
  private readonly provisional = new Map<number, { outcome: Outcome; flags: Flags }>();
  /** Sinks whose write failed: written no more, so that a results file never holds a gap. */
  private readonly broken = new Set<RowSink>();
  private next = 0;
  /** Records read from the file. */
  read = 0;
  readonly counts: Record<RowStatus, number> = { created: 0, existed: 0, refused: 0, 'not sent': 0, unknown: 0 };
  /** Whether any outcome's error was a refusal of the key or subscription, or a connection failure. */
  keyRefused = false;
  unreachable = false;
  /** The first failure of a sink (the results file could not be written): the import reads no more rows. */
  writeFailure: unknown;

  constructor(private readonly sinks: readonly RowSink[]) {}

  /** Takes note of the next record; returns its index (its row is index + 1). */
  add(order: unknown): number {
    const index = this.read++;
    this.pending.set(index, keysOf(order));
    return index;
  }

  /** The rows not given to streamBulk (a place name not found), ascending: its indexes skip them. */
  private readonly leftOut: number[] = [];

  /** Row `index` is not given to streamBulk (its outcome is settled here). */
  leaveOut(index: number): void {
    this.leftOut.push(index);
  }

  /** Whether an order given to streamBulk may not be at its row's index (a row before it was left out). */
  get shifted(): boolean {
    return this.leftOut.length > 0;
  }

  /** The row index of streamBulk's order `at`: `at`, moved past the rows left out before it. */
  rowOf(at: number): number {
    // leftOut[i] - i counts the orders given to streamBulk before the i-th row left out: it never decreases.
    let low = 0;
    let high = this.leftOut.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.leftOut[middle] as number) - middle <= at) low = middle + 1;
      else high = middle;
    }
    return at + low;
  }

  settle(index: number, outcome: Outcome, flags: Flags = {}): void {
    const keys = this.pending.get(index);
    if (keys === undefined) return; // settled already
    this.pending.delete(index);
    this.provisional.delete(index);
    const error = outcome.error === undefined ? undefined : errorFields(outcome.error);
    this.settled.set(index, {
      row: index + 1,
      businessReference: keys.businessReference,
      uniqueBusinessReference: keys.uniqueBusinessReference,
      status: outcome.status,
      id: outcome.id,
      trackingNumber: outcome.trackingNumber,
      errorClass: error?.errorClass,
      errorCode: error?.errorCode,
      message:
        [error === undefined ? undefined : byRow(outcome.error, error.message, (at) => this.rowOf(at)), outcome.message]
          .filter((part) => part !== undefined && part !== '')
          .join(': ') || undefined,
    });
    this.counts[outcome.status]++;
    if (flags.keyRefused === true) this.keyRefused = true;
    if (flags.unreachable === true) this.unreachable = true;
  }

  /** Notes what is known of pending row `index` while the rest is looked up: its outcome if the import ends before. */
  expect(index: number, outcome: Outcome, flags: Flags = {}): void {
    if (this.pending.has(index)) this.provisional.set(index, { outcome, flags });
  }

  /**
   * Settles every row still open, however the import ends (the upload over or stopped, a forced
   * stop, a failed write): a row {@link expect} noted keeps that outcome (an order created while
   * its tracking number was read stays `created`, never `not sent`); the others get `outcome`.
   * Returns how many rows it settled.
   */
  settleRest(outcome: Outcome, flags: Flags = {}): number {
    const open = [...this.pending.keys()];
    for (const index of open) {
      const known = this.provisional.get(index);
      if (known === undefined) this.settle(index, outcome, flags);
      else this.settle(index, known.outcome, known.flags);
    }
    return open.length;
  }

  /** What record `index` said of itself, while it is not settled. */
  keysAt(index: number): RowKeys | undefined {
    return this.pending.get(index);
  }

  get settledCount(): number {
    return this.read - this.pending.size;
  }

  /** Writes the rows settled, in record order, up to the first one still open: call it after settling a batch. */
  flush(): void {
    const batch: RowResult[] = [];
    for (let row = this.settled.get(this.next); row !== undefined; row = this.settled.get(this.next)) {
      batch.push(row);
      this.settled.delete(this.next++);
    }
    if (batch.length > 0) for (const sink of this.sinks) this.write(sink, batch);
  }

  /** Writes `batch` to `sink` unless a write of it failed before; a failure is noted, and the next sinks are written all the same. */
  private write(sink: RowSink, batch: readonly RowResult[]): void {
    if (this.broken.has(sink)) return;
    try {
      sink.write(batch);
    } catch (error) {
      this.broken.add(sink);
      this.writeFailure ??= error;
    }
  }

  /** Whether the sinks are closed: the import ended, or a forced stop wrote what was in flight. */
  closed = false;

  /** Writes what is settled and closes the sinks; once: a forced stop may come after the import closed them. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.flush();
    for (const sink of this.sinks)
      try {
        sink.close();
      } catch (error) {
        if (!this.broken.has(sink)) this.writeFailure ??= error;
      }
  }
}

/**
 * The message of a row's error, its orders named by row as the file counts them: the upload names
 * an order repeating another's reference by input index (`[3].uniqueBusinessReference: the same
 * as [0].uniqueBusinessReference ...`), which reads `uniqueBusinessReference: the same as row 1's
 * uniqueBusinessReference ...` here.
 */
function byRow(error: unknown, message: string, rowOf: (at: number) => number): string {
  if (!(error instanceof ValidationError) || !error.issues.some((issue) => typeof issue.path[0] === 'number')) return message;
  return error.issues
    .map((issue) => {
      const path = typeof issue.path[0] === 'number' ? issue.path.slice(1) : issue.path;
      return `${formatPath(path)}: ${issue.message.replace(/\[(\d+)\]\./g, (_, index: string) => `row ${rowOf(Number(index)) + 1}'s `)}`;
    })
    .join('; ');
}

/** The SDK's error said the outcome may be unknown. */
export const mayExist = (error: unknown): boolean => isDeliveryError(error) && error.mayExist;
