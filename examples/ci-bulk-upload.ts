// A CI step: upload the orders of a JSON or CSV file with `createBulk`, print one typed line per
// row that failed (class, errorCode, who refused it, the fields), and fail the job if any did.
// Exit codes: 0 every order created, 1 some were not, 2 the file could not be read.
//
//   npx tsx examples/ci-bulk-upload.ts examples/data/orders.csv    # exits 1: three rows are wrong
//   npx tsx examples/ci-bulk-upload.ts examples/data/orders.json   # exits 0
//
// Rows name places (English or Arabic) rather than ids; columns: reference, type (10, 15, 25 or
// 30), firstName, lastName, phone, city, district, firstLine, cod, notes.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import {
  BulkCreationError,
  CodedDeliveryError,
  ConnectionError,
  type DeliveryClient,
  type DeliveryError,
  type DeliveryOrder,
  DeliveryType,
  formatPath,
  isDeliveryError,
  ValidationError,
} from 'delivery-sdk';
import { checkOrder } from 'delivery-sdk/validation';
import { clientFor, type ExampleOptions, printer } from './support/merchant.js';
import { isEntryPoint, runScript } from './support/node.js';

export interface BulkUploadOptions extends ExampleOptions {
  /** A `.json` file (an array of rows) or a `.csv` file (a header line, then one row a line). */
  readonly file: string;
  /** Orders per request. Default 100. */
  readonly chunkSize?: number | undefined;
}

/** One line of the file, as read: every value a string in CSV, strings or numbers in JSON. */
export type OrderRow = Readonly<Record<string, string | number | undefined>>;

/** A row that was not created, and why. `row` counts data rows from 1. */
export interface RowFailure {
  readonly row: number;
  readonly reference: string;
  readonly error: DeliveryError;
  /** Sent, but the outcome is unknown: look it up before sending it again. */
  readonly mayExist: boolean;
}

export const EXIT = { created: 0, failures: 1, unreadable: 2 } as const;

export async function main(options: BulkUploadOptions): Promise<number> {
  const say = printer(options);
  let rows: OrderRow[];
  try {
    rows = parseRows(await readFile(options.file, 'utf8'), extname(options.file));
  } catch (err) {
    say(`error: cannot read orders from ${options.file}: ${err instanceof Error ? err.message : String(err)}`);
    return EXIT.unreadable;
  }
  say(`Uploading ${rows.length} orders from ${options.file}`);
  const client = clientFor(options);
  const failures: RowFailure[] = [];
  const fail = (index: number, error: DeliveryError, mayExist = false) =>
    failures.push({ row: index + 1, reference: String(rows[index]?.['reference'] ?? ''), error, mayExist });

  // Names to ids and the spec's rules, row by row, so each bad row gets its own error; only good ones are sent.
  const ready: Array<{ index: number; order: DeliveryOrder }> = [];
  for (const [index, row] of rows.entries()) {
    try {
      ready.push({ index, order: await toOrder(client, row) });
    } catch (err) {
      if (!isDeliveryError(err)) throw err;
      fail(index, err);
    }
  }

  let created = 0;
  if (ready.length > 0) {
    const result = await client.deliveries
      .createBulk(
        ready.map((entry) => entry.order),
        { chunkSize: options.chunkSize ?? 100 },
      )
      .catch((err: unknown) => {
        if (err instanceof BulkCreationError) return err.result;
        throw err;
      });
    const rowOf = (sent: number) => ready[sent]?.index ?? sent;
    created = result.created.length;
    for (const failed of result.failed) fail(rowOf(failed.index), failed.error, failed.mayExist);
    if (result.stopped !== undefined) {
      for (let sent = result.stopped.at; sent < ready.length; sent++) fail(rowOf(sent), result.stopped.reason);
    }
  }

  failures.sort((a, b) => a.row - b.row);
  for (const failure of failures) say(reportLine(failure));
  say(`${created} created, ${failures.length} failed`);
  return failures.length === 0 ? EXIT.created : EXIT.failures;
}

/** `✗ row 3 ORDER-4003: DistrictNotFoundError 3003 (client) district: no district matches ...`. */
export function reportLine({ row, reference, error, mayExist }: RowFailure): string {
  const source =
    error instanceof CodedDeliveryError ? error.source : error instanceof ValidationError ? 'client' : error instanceof ConnectionError ? 'network' : 'server';
  const issues = error instanceof CodedDeliveryError || error instanceof ValidationError ? error.issues : [];
  const detail = issues.length > 0 ? issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join('; ') : error.message;
  const code = error.errorCode === undefined ? '' : ` ${error.errorCode}`;
  return `✗ row ${row} ${reference}: ${error.name}${code} (${source}) ${detail}${mayExist ? ' [may have been created: look it up before sending it again]' : ''}`;
}

const ADDRESS_FIELD: Readonly<Record<number, 'dropOffAddress' | 'pickupAddress'>> = {
  [DeliveryType.Deliver]: 'dropOffAddress',
  [DeliveryType.CashCollection]: 'pickupAddress',
  [DeliveryType.CustomerReturnPickup]: 'pickupAddress',
  [DeliveryType.Exchange]: 'dropOffAddress',
};

/** A row to the order it describes, checked; throws the row's typed error. */
async function toOrder(client: DeliveryClient, row: OrderRow): Promise<DeliveryOrder> {
  const text = (key: string) => (row[key] === undefined || row[key] === '' ? undefined : String(row[key]));
  const type = Number(row['type']);
  const addressField = ADDRESS_FIELD[type];
  if (addressField === undefined)
    throw new ValidationError([{ path: ['type'], message: `must be 10, 15, 25 or 30, not '${text('type') ?? ''}'` }], { subject: 'Invalid row' });
  const address = await client.lookup.resolveAddress({
    city: text('city') ?? '',
    district: text('district') ?? '',
    firstLine: text('firstLine') ?? '',
    for: addressField,
  });
  const cod = text('cod');
  const checked = checkOrder({
    type,
    [addressField]: address,
    receiver: { firstName: text('firstName'), lastName: text('lastName'), phone: text('phone') },
    ...(cod === undefined ? {} : { cod: Number(cod) }),
    businessReference: text('reference'),
    notes: text('notes'),
  });
  if (!checked.ok) throw checked.error;
  return checked.value as DeliveryOrder;
}

/** The rows of a JSON array or a CSV text (RFC 4180: quoted fields may hold commas, quotes and line breaks). */
export function parseRows(content: string, extension: string): OrderRow[] {
  if (extension === '.json') {
    const rows: unknown = JSON.parse(content);
    if (!Array.isArray(rows) || !rows.every((row) => typeof row === 'object' && row !== null)) throw new Error('expected a JSON array of objects');
    return rows as OrderRow[];
  }
  if (extension !== '.csv') throw new Error(`expected a .json or .csv file, not '${extension}'`);
  const [header = [], ...lines] = parseCsv(content.replace(/^\uFEFF/, ''));
  return lines.filter((cells) => cells.some((cell) => cell !== '')).map((cells) => Object.fromEntries(header.map((name, i) => [name.trim(), cells[i] ?? ''])));
}

function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') field += text[++i];
      else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      records.push([...record, field]);
      record = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

if (isEntryPoint(import.meta.url)) {
  const file = process.argv[2];
  if (file === undefined) {
    console.error('usage: npx tsx examples/ci-bulk-upload.ts <orders.json | orders.csv>');
    process.exitCode = EXIT.unreadable;
  } else {
    await runScript((target) => main({ ...target, file }));
  }
}
