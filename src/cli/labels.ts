/**
 * `delivery-sdk labels`: the airway bills of orders, one PDF per 50, and which orders were not
 * printable. The orders are read first (`search`, 50 a request) so that the SDK refuses, by
 * their index, those the service would silently leave out (Cash Collection, Customer Return
 * Pickup, finished); an unknown tracking number is reported the same way.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { type AirwayBillTarget, type DeliveryClient, type DeliveryRecord, formatPath, ValidationError } from '../index.js';
import { oneOf, parseOrUsage } from './args.js';
import { CONNECTION_OPTIONS, connect } from './config.js';
import { EXIT, type ExitCode, UsageError } from './exit.js';
import type { Interrupt } from './interrupt.js';
import { type Io, printJson, say } from './output.js';

export const LABELS_HELP = `delivery-sdk labels: the airway bills of orders, one PDF per 50.

Usage: delivery-sdk labels TRACKING_NUMBER... --out DIR [--size A4|A6] [--lang ar|en] [--json]
       delivery-sdk labels --from-results results.csv --out DIR ...
--from-results FILE   the tracking numbers of the rows created or existed in an import's results file
--out DIR             where labels-001.pdf, labels-002.pdf, ... are written (created if missing)
Orders the service prints no label for (Cash Collection, Customer Return Pickup, finished, unknown)
are listed as not printable; the exit code is then 1.`;

const SEARCH_BATCH = 50;

export async function labelsCommand(args: readonly string[], io: Io, interrupt: Interrupt): Promise<ExitCode> {
  const { values, positionals } = parseOrUsage({
    args: [...args],
    allowPositionals: true,
    options: {
      ...CONNECTION_OPTIONS,
      'from-results': { type: 'string' },
      out: { type: 'string' },
      size: { type: 'string', default: 'A4' },
      lang: { type: 'string', default: 'ar' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) return (say(io, LABELS_HELP), EXIT.ok);
  const size = oneOf('--size', values.size, ['A4', 'A6']);
  const lang = oneOf('--lang', values.lang, ['ar', 'en']);
  if (values.out === undefined) throw new UsageError('--out DIR: where to write the PDF files');
  const fromResults = values['from-results'] === undefined ? [] : trackingNumbersOfResults(values['from-results']);
  const wanted = [...new Set([...positionals, ...fromResults])];
  if (wanted.length === 0) throw new UsageError('name the orders: tracking numbers, or --from-results FILE');
  const out = values.out;
  const { client, close } = await connect(values);
  try {
    const { orders, missing } = await readOrders(client, wanted, interrupt.signal);
    const notPrintable: Array<{ trackingNumber: string; reason: string }> = missing.map((trackingNumber) => ({ trackingNumber, reason: 'no such order' }));
    let printable: DeliveryRecord[] = orders;
    let files: Array<{ trackingNumbers: string[]; pdf: Uint8Array }> = [];
    try {
      if (printable.length > 0)
        ({ files } = await client.deliveries.airwayBillFiles(printable as AirwayBillTarget[], { size, lang }, { signal: interrupt.signal }));
    } catch (error) {
      // Refused before sending, by index: leave those out and print the rest.
      if (!(error instanceof ValidationError)) throw error;
      const refused = new Map(
        error.issues
          .filter((issue) => issue.path[0] === 'orders' && typeof issue.path[1] === 'number')
          .map((issue) => [issue.path[1] as number, issue.message]),
      );
      if (refused.size === 0) throw error;
      for (const [index, reason] of refused) notPrintable.push({ trackingNumber: printable[index]?.trackingNumber ?? formatPath(['orders', index]), reason });
      printable = printable.filter((_, index) => !refused.has(index));
      if (printable.length > 0)
        ({ files } = await client.deliveries.airwayBillFiles(printable as AirwayBillTarget[], { size, lang }, { signal: interrupt.signal }));
    }
    mkdirSync(out, { recursive: true });
    const written = files.map(({ trackingNumbers, pdf }, i) => {
      const file = join(out, `labels-${String(i + 1).padStart(3, '0')}.pdf`);
      writeFileSync(file, pdf);
      return { file, trackingNumbers };
    });
    if (io.json) printJson(io, { files: written, notPrintable });
    else {
      for (const { file, trackingNumbers } of written) say(io, `${file}: ${trackingNumbers.length} ${trackingNumbers.length === 1 ? 'label' : 'labels'}`);
      if (notPrintable.length > 0)
        say(io, `Not printable (${notPrintable.length}): ${notPrintable.map(({ trackingNumber, reason }) => `${trackingNumber} (${reason})`).join(', ')}`);
      else say(io, `Every order printable: ${wanted.length} labels in ${written.length} files.`);
    }
    return notPrintable.length > 0 ? EXIT.failed : EXIT.ok;
  } finally {
    await close();
  }
}

/** The tracking numbers of the rows created or existed in a results file of `orders import`. */
function trackingNumbersOfResults(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--from-results: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const { data: rows, errors } = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: 'greedy' });
  if (errors[0] !== undefined) throw new UsageError(`--from-results: ${file}: row ${(errors[0].row ?? 0) + 1}: ${errors[0].message}`);
  if (rows.length > 0 && !('trackingNumber' in (rows[0] ?? {}) && 'status' in (rows[0] ?? {})))
    throw new UsageError(`--from-results: ${file} is not the results file of 'orders import' (no status and trackingNumber columns)`);
  return rows
    .filter((row) => (row['status'] === 'created' || row['status'] === 'existed') && (row['trackingNumber'] ?? '') !== '')
    .map((row) => row['trackingNumber'] as string);
}

/** The orders as read, 50 a search, in the order asked; the tracking numbers no order has. */
async function readOrders(client: DeliveryClient, trackingNumbers: readonly string[], signal: AbortSignal) {
  const found = new Map<string, DeliveryRecord>();
  for (let at = 0; at < trackingNumbers.length; at += SEARCH_BATCH) {
    const batch = trackingNumbers.slice(at, at + SEARCH_BATCH);
    const page = await client.deliveries.search({ trackingNumbers: batch, page: 1, limit: SEARCH_BATCH }, { signal });
    for (const order of page.deliveries) if (batch.includes(order.trackingNumber)) found.set(order.trackingNumber, order);
  }
  return {
    orders: trackingNumbers.flatMap((trackingNumber) => found.get(trackingNumber) ?? []),
    missing: trackingNumbers.filter((trackingNumber) => !found.has(trackingNumber)),
  };
}
