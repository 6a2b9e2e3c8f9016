/**
 * The orders of an import file, read as a stream: CSV (a header row naming order fields, RFC 4180
 * as csv-parse reads it: quoted commas and line breaks, a BOM, CRLF) or JSON Lines (one order
 * a line). A record is a data row of the CSV (blank ones skipped) or a non-blank line of JSON Lines.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { columnsOf, orderOf } from './columns.js';
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
  let records = 0;
  for await (const _ of readOrders(file, format)) records++;
  return records;
}

const unreadable = (file: string, error: unknown): UsageError => {
  if (error instanceof UsageError) return error;
  if (error instanceof CsvError) return new UsageError(`${file}: ${error.message}`);
  const code = (error as NodeJS.ErrnoException).code;
  return new UsageError(`cannot read ${file}: ${code ?? (error instanceof Error ? error.message : String(error))}`);
};

async function* csvOrders(file: string): AsyncGenerator<unknown, void, undefined> {
  const parser = parse({ bom: true, skip_empty_lines: true, skip_records_with_empty_values: true });
  // `pipeline` destroys the file when the parser is (an import stopped early), and the parser when the file fails.
  pipeline(createReadStream(file), parser, () => {});
  let columns: ReturnType<typeof columnsOf> | undefined;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      if (columns === undefined) columns = columnsOf(cells);
      else yield orderOf(columns, cells);
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
