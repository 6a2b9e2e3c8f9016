/**
 * The orders of an import file, read as a stream: CSV (a header row naming order fields, RFC 4180
 * as Papa Parse reads it: quoted commas and line breaks, a BOM, CRLF) or JSON Lines (one order
 * a line). A record is a data row of the CSV (blank ones skipped) or a non-blank line of JSON Lines.
 * The file is read twice: {@link countRecords} checks every record (push-based, nothing held),
 * {@link readOrders} then streams them with back-pressure.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream';
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
  return format === 'csv' ? csvOrders(file) : jsonLinesOrders(file);
}

/** Reads the whole file once without keeping it: the number of records, or the `UsageError` of the first problem. */
export async function countRecords(file: string, format: Format): Promise<number> {
  if (format === 'csv') return checkCsv(file);
  let records = 0;
  for await (const _ of readOrders(file, format)) records++;
  return records;
}

const PAPA = { delimiter: ',', quoteChar: '"', skipEmptyLines: 'greedy' } as const;

/** A record whose number of fields is not the header's: refused, as a spreadsheet would never write one. */
const fieldCount = (file: string, record: number, cells: readonly unknown[], columns: readonly Column[]): UsageError =>
  new UsageError(`${file}: record ${record} has ${cells.length} fields where the header has ${columns.length}`);

/** Every record of a CSV file parsed and checked (header, fields per record, quotes), none kept: the count of data records. */
function checkCsv(file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let columns: Column[] | undefined;
    let records = 0;
    let failed = false;
    const fail = (error: unknown, parser?: Papa.Parser): void => {
      if (failed) return;
      failed = true;
      parser?.abort();
      reject(unreadable(file, error));
    };
    Papa.parse<string[]>(createReadStream(file, { encoding: 'utf8' }), {
      ...PAPA,
      step: (result, parser) => {
        if (failed) return;
        const [problem] = result.errors;
        if (problem !== undefined) return fail(new UsageError(`${file}: record ${records + 1}: ${problem.message}`), parser);
        try {
          if (columns === undefined) columns = columnsOf(result.data);
          else if (result.data.length !== columns.length) fail(fieldCount(file, ++records, result.data, columns), parser);
          else records++;
        } catch (error) {
          fail(error, parser);
        }
      },
      complete: () => {
        if (failed) return;
        if (columns === undefined) fail(new UsageError(`${file}: empty, not even a header row (columns: docs/cli.md)`));
        else resolve(records);
      },
      error: (error: Error) => fail(error),
    });
  });
}

const unreadable = (file: string, error: unknown): UsageError => {
  if (error instanceof UsageError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  return new UsageError(`cannot read ${file}: ${code ?? (error instanceof Error ? error.message : String(error))}`);
};

/** The records of a CSV file {@link checkCsv} accepted, as orders, read as they are asked for (Papa Parse's Node stream, which waits for its reader). */
async function* csvOrders(file: string): AsyncGenerator<unknown, void, undefined> {
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, PAPA) as unknown as NodeJS.ReadWriteStream;
  // `pipeline` destroys the file when the parser is (an import stopped early), and the parser when the file fails.
  pipeline(createReadStream(file, { encoding: 'utf8' }), parser, () => {});
  let columns: Column[] | undefined;
  let records = 0;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      if (columns === undefined) columns = columnsOf(cells);
      else if (cells.length !== columns.length) throw fieldCount(file, ++records, cells, columns);
      else {
        records++;
        yield orderOf(columns, cells);
      }
    }
  } catch (error) {
    throw unreadable(file, error);
  }
  if (columns === undefined) throw new UsageError(`${file}: empty, not even a header row (columns: docs/cli.md)`);
}

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
