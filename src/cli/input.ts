/**
 * The orders of an import file, read as a stream: CSV (a header row naming order fields, RFC 4180
 * as Papa Parse reads it: quoted commas and line breaks, a BOM, CRLF) or JSON Lines (one order
 * a line). A record is a data row of the CSV (blank ones skipped) or a non-blank line of JSON Lines.
 * The file is read twice: {@link countRecords} checks every record (push-based, nothing held),
 * {@link readOrders} then streams them with back-pressure.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import Papa from 'papaparse';
import { type Column, columnsOf, orderOf } from './columns.js';
import { UsageError } from './exit.js';

export type Format = 'csv' | 'jsonl';

/** The format of `file`: `--format`, else its extension. */
export function formatOf(file: string, flag: string | undefined): Format {
  if (flag === 'csv' || flag === 'jsonl') return flag;
  if (flag !== undefined) throw new UsageError(`--format: expected csv or jsonl, received '${flag}'`);
  if (/\.csv$/i.test(file)) return 'csv';
  if (/\.(?:jsonl|ndjson)$/i.test(file)) return 'jsonl';
  throw new UsageError(`${file}: expected a .csv or a .jsonl (JSON Lines) file; name the format with --format csv|jsonl`);
}

/** The orders of `file`, one per record, in order. Throws a `UsageError` naming the line for a file that cannot be read as `format`. */
export function readOrders(file: string, format: Format): AsyncGenerator<unknown, void, undefined> {
  return format === 'csv' ? csvRecords(file, orderOf) : jsonLinesOrders(file);
}

/** Reads the whole file once without keeping it: the number of records, or the `UsageError` of the first problem. */
export async function countRecords(file: string, format: Format): Promise<number> {
  let records = 0;
  if (format === 'csv') for await (const _ of csvRecords(file, () => undefined)) records++;
  else for await (const _ of readOrders(file, format)) records++;
  return records;
}

const PAPA = { delimiter: ',', quoteChar: '"', skipEmptyLines: 'greedy' } as const;
/** Records parsed ahead of the reader at most, besides one chunk of the file (64 KiB): then the file waits. */
const AHEAD = 1_000;

/**
 * The data records of a CSV file, each as `map` makes it of the header's columns (checked by
 * `columnsOf`) and its cells, as many as the header's. Papa Parse reads the file a chunk at a time; the file is
 * paused while the reader is behind, so memory stays flat. A quote never closed, or a record of
 * more or fewer fields than the header, is a `UsageError` naming the record.
 */
async function* csvRecords<T>(file: string, map: (columns: readonly Column[], cells: readonly string[]) => T): AsyncGenerator<T, void, undefined> {
  const input = createReadStream(file, { encoding: 'utf8' });
  let queue: string[][] = [];
  let head = 0;
  let received = 0;
  let done = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const woken = (): void => {
    wake?.();
    wake = undefined;
  };
  Papa.parse<string[]>(input, {
    ...PAPA,
    chunk: (result, parser) => {
      const [problem] = result.errors;
      if (problem !== undefined) {
        // Rows count from the header (row 0 of the file): a data record's number is its row's.
        failure ??= new UsageError(`${file}: record ${Math.max(1, received + (problem.row ?? result.data.length))}: ${problem.message}`);
        parser.abort();
      } else queue.push(...result.data);
      received += result.data.length;
      if (queue.length - head > AHEAD) input.pause();
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
      while (head < queue.length) {
        const cells = queue[head++] as string[];
        if (columns === undefined) columns = columnsOf(cells);
        else if (cells.length !== columns.length)
          throw new UsageError(`${file}: record ${records + 1} has ${cells.length} fields where the header has ${columns.length}`);
        else {
          records++;
          yield map(columns, cells);
        }
      }
      [queue, head] = [[], 0];
      if (failure !== undefined) throw failure;
      if (done) break;
      if (input.isPaused()) input.resume();
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } catch (error) {
    throw unreadable(file, error);
  } finally {
    input.destroy();
  }
  if (columns === undefined) throw new UsageError(`${file}: empty, not even a header row (columns: docs/cli.md)`);
}

const unreadable = (file: string, error: unknown): UsageError => {
  if (error instanceof UsageError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  return new UsageError(`cannot read ${file}: ${code ?? (error instanceof Error ? error.message : String(error))}`);
};

async function* jsonLinesOrders(file: string): AsyncGenerator<unknown, void, undefined> {
  const input = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  try {
    for await (const line of lines) {
      number++;
      const text = (number === 1 ? line.replace(/^\uFEFF/, '') : line).trim();
      if (text === '') continue;
      try {
        yield JSON.parse(text);
      } catch (error) {
        throw new UsageError(`${file}: line ${number} is not JSON: ${(error as Error).message}`);
      }
    }
  } catch (error) {
    throw unreadable(file, error);
  } finally {
    lines.close();
    input.destroy();
  }
}
