/**
 * The orders of an import file, read as a stream: CSV (a header row naming order fields, RFC 4180
 * as Papa Parse reads it: quoted commas and line breaks, a BOM, CRLF) or JSON Lines (one order
 * a line). A record is a data row of the CSV (blank ones skipped) or a non-blank line of JSON Lines.
 * The file is read twice: {@link countRecords} checks every record (push-based, nothing held),
 * {@link readOrderBatches} then streams them with back-pressure, the records read since the last
 * pull at a time.
 *
 * The bytes are UTF-8 unless `--encoding` names another encoding (Excel's "CSV" on an Arabic
 * Windows is windows-1256): a file that is not valid UTF-8 is refused, naming its line, rather than
 * read as `����` into orders. No record may be longer than {@link MAX_RECORD_LENGTH}: a broken
 * quote that swallows the rest of the file, or a file that is not an order file, is refused by
 * the record's number and line, with nothing of it echoed, before it fills the memory.
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Papa from 'papaparse';
import { oneOf } from './args.js';
import { type Column, columnsOf, orderOf } from './columns.js';
import { UsageError } from './exit.js';

const FORMATS = ['csv', 'jsonl'] as const;
export type Format = (typeof FORMATS)[number];

/** Where the records come from: the file, and how its bytes are text. */
export interface Source {
  readonly file: string;
  readonly format: Format;
  /** A label `TextDecoder` knows: `utf-8` (the default), `windows-1256`, ... */
  readonly encoding: string;
}

/** Characters a record may hold at most: an order of ten image URLs and a long note is a few kilobytes. */
const MAX_RECORD_LENGTH = 1_048_576;
const LIMIT_TEXT = '1 MiB';

/** The format of `file`: `--format`, else its extension. */
export function formatOf(file: string, flag: string | undefined): Format {
  if (flag !== undefined) return oneOf('--format', flag, FORMATS);
  if (/\.csv$/i.test(file)) return 'csv';
  if (/\.(?:jsonl|ndjson)$/i.test(file)) return 'jsonl';
  throw new UsageError(`${file}: expected a .csv or a .jsonl (JSON Lines) file; name the format with --format csv|jsonl`);
}

/** `--encoding`: a label `TextDecoder` knows (`windows-1256`, `cp1256`, `iso-8859-6`, `utf-8`), as its canonical name. */
export function encodingOf(flag: string | undefined): string {
  if (flag === undefined) return 'utf-8';
  try {
    return new TextDecoder(flag).encoding;
  } catch {
    throw new UsageError(
      `--encoding: '${flag.slice(0, 40)}' is not an encoding (windows-1256, iso-8859-6, utf-8, ... as the WHATWG Encoding Standard names them)`,
    );
  }
}

/** The names of the standard input: read from the process's own descriptor, which may be a socket no path opens. */
const STDIN = new Set(['-', '/dev/stdin']);

/**
 * The file to read twice: `file` itself, or, for a pipe (`-` or `/dev/stdin` for the standard
 * input, `<(zcat orders.csv.gz)`), which can be read only once, a copy of it in a folder of the
 * temporary directory only this user can enter, removed by `remove`.
 */
export async function readable(file: string): Promise<{ path: string; remove(): void }> {
  const stdin = STDIN.has(file);
  if (!stdin) {
    let regular: boolean;
    try {
      regular = statSync(file).isFile();
    } catch (error) {
      throw unreadable(file, error);
    }
    if (regular) return { path: file, remove: () => {} };
  }
  const folder = mkdtempSync(join(tmpdir(), 'delivery-sdk-import-'));
  const path = join(folder, 'input');
  try {
    await pipeline(stdin ? process.stdin : createReadStream(file), createWriteStream(path, { mode: 0o600 }));
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw unreadable(file, error);
  }
  return { path, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/**
 * The orders of `file`, one per record, in order, in batches: the records read since the last pull
 * (a record a batch for JSON Lines). A batch rather than an order a pull: each step of an async
 * generator costs a promise and its result, and an import of 10,000 rows took 20,000 of them
 * more. Throws a `UsageError` naming the line for a file that cannot be read as `format`, after
 * the batch of the records before it.
 */
export function readOrderBatches(source: Source): AsyncGenerator<unknown[], void, undefined> {
  return source.format === 'csv' ? csvBatches(source, orderOf) : jsonLinesOrders(source);
}

/** Reads the whole file once without keeping it: the number of records, or the `UsageError` of the first problem. */
export async function countRecords(source: Source): Promise<number> {
  let records = 0;
  const batches = source.format === 'csv' ? csvBatches(source, () => undefined) : jsonLinesOrders(source);
  for await (const batch of batches) records += batch.length;
  return records;
}

/** The length of `bytes` up to the last whole UTF-8 sequence: what follows is the start of one the next chunk ends. */
function wholeSequences(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: the lead is further back
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needs > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** Where the first byte that is not UTF-8 is (isUtf8 said there is one): read only to name its line. */
function firstInvalidByte(bytes: Buffer): number {
  for (let at = 0; at < bytes.length; ) {
    const byte = bytes[at] as number;
    const needs = byte < 0x80 ? 1 : byte >= 0xc2 && byte < 0xe0 ? 2 : byte >= 0xe0 && byte < 0xf0 ? 3 : byte >= 0xf0 && byte < 0xf5 ? 4 : 0;
    if (needs === 0 || !isUtf8(bytes.subarray(at, at + needs))) return at;
    at += needs;
  }
  return bytes.length;
}

function newlines(bytes: Buffer, end = bytes.length): number {
  let count = 0;
  for (let at = bytes.indexOf(10); at !== -1 && at < end; at = bytes.indexOf(10, at + 1)) count++;
  return count;
}

/**
 * The text of the file, a chunk at a time: UTF-8 checked (a byte that is not is a `UsageError`
 * naming its line), or decoded from `encoding`; the byte order mark left out.
 */
async function* textOf({ file, encoding }: Source, input: NodeJS.ReadableStream): AsyncGenerator<string, void, undefined> {
  const utf8 = encoding === 'utf-8';
  const decoder = utf8 ? undefined : new TextDecoder(encoding);
  let carry: Buffer | undefined;
  let line = 1;
  let first = true;
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let bytes = carry === undefined ? chunk : Buffer.concat([carry, chunk]);
    let text: string;
    if (decoder !== undefined) text = decoder.decode(bytes, { stream: true });
    else {
      const end = wholeSequences(bytes);
      carry = end < bytes.length ? bytes.subarray(end) : undefined;
      bytes = bytes.subarray(0, end);
      if (!isUtf8(bytes)) throw notUtf8(file, line + newlines(bytes, firstInvalidByte(bytes)));
      line += newlines(bytes);
      text = bytes.toString('utf8');
    }
    if (first && text !== '') {
      text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    if (text !== '') yield text;
  }
  if (carry !== undefined) throw notUtf8(file, line);
  const rest = decoder?.decode() ?? '';
  if (rest !== '') yield rest;
}

const notUtf8 = (file: string, line: number): UsageError =>
  new UsageError(
    `${file}: line ${line} is not UTF-8 text: save the file as "CSV UTF-8" (Excel: Save As, CSV UTF-8), or name its encoding with --encoding (windows-1256 for Arabic Windows)`,
  );

const tooLong = (file: string, what: string): UsageError =>
  new UsageError(`${file}: ${what} is longer than ${LIMIT_TEXT}: a quote never closed, or not a file of orders (nothing was sent)`);

/**
 * Measures each CSV record as Papa Parse will split it (a quote opens a field only at its start,
 * `""` inside one is a quote, a line break outside quotes ends the record) and refuses one longer
 * than {@link MAX_RECORD_LENGTH} before Papa Parse holds it whole. It steps from one quote or line
 * break to the next: the text between them only adds to the record's length.
 */
function recordGuard(file: string): (text: string) => void {
  let quoted = false;
  let fieldStart = true;
  let previous = 0;
  let length = 0;
  /** Records begun so far, the header the first; blank lines begin none. */
  let records = 0;
  let line = 1;
  let recordLine = 1;
  const grow = (by: number): void => {
    if (length === 0) {
      records++;
      recordLine = line;
    }
    length += by;
    if (length > MAX_RECORD_LENGTH) throw tooLong(file, records === 1 ? `the header (line ${recordLine})` : `record ${records - 1} (from line ${recordLine})`);
  };
  return (text) => {
    let from = 0;
    // Where the next quote and line breaks are, each found by indexOf (a scan in native code) when
    // the last one is passed: a regular expression's match array for each costs more than the step.
    let quote = text.indexOf('"');
    let lineFeed = text.indexOf('\n');
    let carriageReturn = text.indexOf('\r');
    for (;;) {
      let at = text.length;
      if (quote !== -1) at = quote;
      if (lineFeed !== -1 && lineFeed < at) at = lineFeed;
      if (carriageReturn !== -1 && carriageReturn < at) at = carriageReturn;
      if (at > from) {
        grow(at - from);
        previous = text.charCodeAt(at - 1);
        fieldStart = !quoted && previous === 44;
      }
      if (at === text.length) return;
      const char = text.charCodeAt(at);
      if (at === quote) quote = text.indexOf('"', at + 1);
      else if (at === lineFeed) lineFeed = text.indexOf('\n', at + 1);
      else carriageReturn = text.indexOf('\r', at + 1);
      if (!quoted && char !== 34) {
        // A line break outside quotes ends the record.
        length = 0;
        fieldStart = true;
      } else {
        grow(1);
        if (quoted) quoted = char !== 34;
        // A quote opens a field only at its start; right after a closing quote it is an escaped one, and the field goes on.
        else quoted = fieldStart || previous === 34;
        fieldStart = false;
      }
      if (char === 10) line++;
      previous = char;
      from = at + 1;
    }
  };
}

const PAPA = { delimiter: ',', quoteChar: '"' } as const;

/**
 * A blank record, left out: every cell empty or spaces (` , ,`), what Papa Parse's `skipEmptyLines:
 * 'greedy'` skips. Tested here, cell by cell until one is not blank, because Papa Parse tests it by
 * joining every record's cells into a string (a record's length of garbage, each reading).
 */
const isBlank = (cells: readonly string[]): boolean => cells.every((cell) => cell.trim() === '');
/** Records parsed ahead of the reader at most, besides one chunk of the file (64 KiB) and the batch it holds: then the file waits. */
const AHEAD = 1_000;

/**
 * The data records of a CSV file, each as `map` makes it of the header's columns (checked by
 * `columnsOf`) and its cells, as many as the header's, in batches: those Papa Parse read since the
 * last pull. Papa Parse reads the file a chunk at a time; the file is paused while the reader is
 * behind, so memory stays flat. A quote never closed, or a record of more or fewer fields than the
 * header, is a `UsageError` naming the record, thrown after the batch of the records before it.
 */
async function* csvBatches<T>(source: Source, map: (columns: readonly Column[], cells: readonly string[]) => T): AsyncGenerator<T[], void, undefined> {
  const { file } = source;
  const bytes = createReadStream(file);
  const guard = recordGuard(file);
  /** Why the text ended early (not UTF-8, a record too long): it comes before whatever Papa Parse made of the text before it. */
  let unread: unknown;
  const input = Readable.from(
    (async function* checked() {
      try {
        for await (const text of textOf(source, bytes)) {
          guard(text);
          yield text;
        }
      } catch (error) {
        // Said by the reader below, as a usage error; Papa Parse only sees the text end.
        unread = error;
      }
    })(),
  );
  let failure: unknown;
  /** The records Papa Parse gave since the last batch, as it gave them (each chunk's), and how many. */
  let queue: string[][][] = [];
  let queued = 0;
  let received = 0;
  let done = false;
  let wake: (() => void) | undefined;
  const woken = (): void => {
    wake?.();
    wake = undefined;
  };
  Papa.parse<string[]>(input, {
    ...PAPA,
    chunk: (result, parser) => {
      const [problem] = result.errors;
      const data = result.data.filter((cells) => !isBlank(cells));
      if (problem !== undefined) {
        // Rows count from the header (row 0 of the file): a data record's number is its row's.
        failure ??= new UsageError(`${file}: record ${Math.max(1, received + (problem.row ?? data.length))}: ${problem.message}`);
        parser.abort();
      } else if (data.length > 0) {
        queue.push(data);
        queued += data.length;
      }
      received += data.length;
      if (queued > AHEAD) input.pause();
      woken();
    },
    complete: () => {
      done = true;
      woken();
    },
    error: (error: Error) => {
      failure ??= error;
      done = true;
      woken();
    },
  });
  let columns: Column[] | undefined;
  let records = 0;
  try {
    for (;;) {
      if (unread !== undefined) throw unread;
      if (queued > 0) {
        const read = queue;
        [queue, queued] = [[], 0];
        const batch: T[] = [];
        let wrong: UsageError | undefined;
        for (const rows of read) {
          for (const cells of rows) {
            if (columns === undefined) columns = columnsOf(cells);
            else if (cells.length !== columns.length) {
              wrong = new UsageError(`${file}: record ${records + 1} has ${cells.length} fields where the header has ${columns.length}`);
              break;
            } else {
              records++;
              batch.push(map(columns, cells));
            }
          }
          if (wrong !== undefined) break;
        }
        if (batch.length > 0) yield batch;
        if (wrong !== undefined) throw wrong;
        // Papa Parse may have read more while the batch was out: the queue again before waiting.
        continue;
      }
      if (failure !== undefined) throw failure;
      if (done) break;
      if (input.isPaused()) input.resume();
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } catch (error) {
    throw unreadable(file, error);
  } finally {
    input.destroy();
    bytes.destroy();
  }
  if (columns === undefined) throw new UsageError(`${file}: empty, not even a header row (columns: docs/cli.md)`);
}

const unreadable = (file: string, error: unknown): UsageError => {
  if (error instanceof UsageError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  return new UsageError(`cannot read ${file}: ${code ?? (error instanceof Error ? error.message : String(error))}`);
};

/** The lines of the text, each without its line break (`\r\n` or `\n`), none longer than {@link MAX_RECORD_LENGTH}. */
async function* linesOf(source: Source, bytes: NodeJS.ReadableStream): AsyncGenerator<string, void, undefined> {
  let parts: string[] = [];
  let length = 0;
  let number = 0;
  const line = (): string => {
    const text = parts.join('');
    parts = [];
    length = 0;
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  };
  for await (const text of textOf(source, bytes)) {
    let from = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', from)) {
      number++;
      if (length + end - from > MAX_RECORD_LENGTH) throw tooLong(source.file, `line ${number}`);
      parts.push(text.slice(from, end));
      yield line();
      from = end + 1;
    }
    length += text.length - from;
    if (length > MAX_RECORD_LENGTH) throw tooLong(source.file, `line ${number + 1}`);
    parts.push(text.slice(from));
  }
  if (length > 0) yield line();
}

/** The orders of a JSON Lines file, a line a batch. */
async function* jsonLinesOrders(source: Source): AsyncGenerator<unknown[], void, undefined> {
  const bytes = createReadStream(source.file);
  let number = 0;
  try {
    for await (const line of linesOf(source, bytes)) {
      number++;
      const text = line.trim();
      if (text === '') continue;
      try {
        yield [JSON.parse(text)];
      } catch (error) {
        throw new UsageError(`${source.file}: line ${number} is not JSON: ${(error as Error).message.slice(0, 200)}`);
      }
    }
  } catch (error) {
    throw unreadable(source.file, error);
  } finally {
    bytes.destroy();
  }
}
