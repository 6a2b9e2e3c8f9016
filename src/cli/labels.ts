/**
 * `delivery-sdk labels`: the airway bills of orders, one PDF per 50, and which orders were not
 * printable. The orders are read first (`search`, 50 a request) so that the SDK refuses, by
 * their index, those the service would silently leave out (Cash Collection, Customer Return
 * Pickup, finished); an unknown tracking number is reported the same way. What `airwayBillFiles`
 * printed before a failure is written all the same, and the orders it did not print are named.
 * A folder holding the labels of an earlier run is never written over: `--force` replaces them.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import {
  type AirwayBillFile,
  type AirwayBillFilesPartial,
  type AirwayBillTarget,
  type DeliveryClient,
  type DeliveryRecord,
  formatPath,
  PartialResultError,
  ValidationError,
} from '../index.js';
import { oneOf, parseOrUsage } from './args.js';
import { CONNECTION_OPTIONS, connect } from './config.js';
import { EXIT, type ExitCode, exitCodeOf, firstOf, UsageError } from './exit.js';
import type { Interrupt } from './interrupt.js';
import { type Io, plural, printJson, say } from './output.js';
import { madeFolder } from './results.js';

export const LABELS_HELP = `delivery-sdk labels: the airway bills of orders, one PDF per 50.

Usage: delivery-sdk labels TRACKING_NUMBER... --out DIR [--force] [--size A4|A6] [--lang ar|en] [--json]
       delivery-sdk labels --from-results results.csv --out DIR ...
--from-results FILE   the tracking numbers of the rows created or existed in an import's results file
--out DIR             where labels-001.pdf, labels-002.pdf, ... are written (made if missing)
--force               replace the labels-NNN.pdf files an earlier run left in DIR (without it, such
                      a folder is refused: nothing is written over)
Orders the service prints no label for (Cash Collection, Customer Return Pickup, finished, unknown)
are listed as not printable; the exit code is then 1. A print that fails part-way writes the files
printed before it and names the orders not printed (exit 4 when the service failed).`;

const SEARCH_BATCH = 50;

/** The files of an earlier run: `labels-001.pdf` and on. */
const LABEL_FILE = /^labels-\d{3,}\.pdf$/;

/** An order not printed, and why: by tracking number, or by its row of the results file when it has none. */
interface NotPrinted {
  trackingNumber: string;
  reason: string;
}

export async function labelsCommand(args: readonly string[], io: Io, interrupt: Interrupt): Promise<ExitCode> {
  const { values, positionals } = parseOrUsage({
    args: [...args],
    allowPositionals: true,
    options: {
      ...CONNECTION_OPTIONS,
      'from-results': { type: 'string' },
      out: { type: 'string' },
      force: { type: 'boolean' },
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
  const fromResults = values['from-results'] === undefined ? { trackingNumbers: [], without: [] } : rowsOfResults(values['from-results']);
  const wanted = [...new Set([...positionals, ...fromResults.trackingNumbers])];
  if (wanted.length === 0 && fromResults.without.length === 0) throw new UsageError('name the orders: tracking numbers, or --from-results FILE');
  const out = values.out;
  const stale = outFolder(out, values.force === true);
  const { client, close } = await connect(values);
  try {
    const notPrintable: NotPrinted[] = [...fromResults.without];
    const { orders, missing } = wanted.length === 0 ? { orders: [], missing: [] } : await readOrders(client, wanted, interrupt.signal);
    notPrintable.push(...missing.map((trackingNumber) => ({ trackingNumber, reason: 'no such order' })));
    const { files, failure } = await print(client, orders, { size, lang }, interrupt.signal, notPrintable);
    // Only now, with labels to write: the files of the earlier run go, so none of them is taken for tonight's.
    for (const file of stale) rmSync(join(out, file), { force: true });
    const written = files.map(({ trackingNumbers, pdf }, i) => {
      const file = join(out, `labels-${String(i + 1).padStart(3, '0')}.pdf`);
      writeFileSync(file, pdf, { flag: 'wx' });
      return { file, trackingNumbers };
    });
    const printed = written.reduce((sum, { trackingNumbers }) => sum + trackingNumbers.length, 0);
    if (io.json) printJson(io, { files: written, notPrintable, ...(failure === undefined ? {} : { failure: failure.message }) });
    else {
      for (const { file, trackingNumbers } of written) say(io, `${file}: ${plural(trackingNumbers.length, 'label')}`);
      if (failure !== undefined) say(io, `The print stopped part-way: ${failure.message}`);
      if (notPrintable.length > 0)
        say(io, `Not printed (${notPrintable.length}): ${notPrintable.map(({ trackingNumber, reason }) => `${trackingNumber} (${reason})`).join(', ')}`);
      else say(io, `Every order printed: ${plural(printed, 'label')} in ${plural(written.length, 'file')}.`);
    }
    return firstOf([...(failure === undefined ? [] : [exitCodeOf(failure)]), ...(notPrintable.length > 0 ? [EXIT.failed] : [])]);
  } finally {
    await close();
  }
}

/**
 * Makes `out` if it is missing, and lists the labels an earlier run left in it: refused unless
 * `force` (then the caller removes them once it has labels to write). A path that cannot be a
 * folder is refused before anything is sent.
 */
function outFolder(out: string, force: boolean): string[] {
  madeFolder(out, '--out');
  const earlier = readdirSync(out).filter((name) => LABEL_FILE.test(name));
  if (earlier.length > 0 && !force)
    throw new UsageError(
      `--out: ${out} holds the labels of an earlier run (${earlier.slice(0, 3).join(', ')}${earlier.length > 3 ? `, and ${earlier.length - 3} more` : ''}): pass --force to replace them, or another --out`,
    );
  return earlier;
}

/**
 * The PDFs of the printable `orders`; those refused before sending, and those a failed request
 * left unprinted, are added to `notPrintable`. A failure part-way keeps the files printed before it.
 */
async function print(
  client: DeliveryClient,
  orders: DeliveryRecord[],
  labelOptions: { size: 'A4' | 'A6'; lang: 'ar' | 'en' },
  signal: AbortSignal,
  notPrintable: NotPrinted[],
): Promise<{ files: AirwayBillFile[]; failure?: PartialResultError }> {
  let printable = orders;
  for (;;) {
    if (printable.length === 0) return { files: [] };
    try {
      return await client.deliveries.airwayBillFiles(printable as AirwayBillTarget[], labelOptions, { signal });
    } catch (error) {
      if (error instanceof PartialResultError) {
        const { files, notPrinted } = error.partial as AirwayBillFilesPartial;
        notPrintable.push(...notPrinted.map((trackingNumber) => ({ trackingNumber, reason: `not printed: ${error.cause.message}` })));
        return { files, failure: error };
      }
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
    }
  }
}

/**
 * The tracking numbers of the rows created or existed in a results file of `orders import`, and
 * those rows that have none (their tracking number could not be read): named, never skipped.
 */
function rowsOfResults(file: string): { trackingNumbers: string[]; without: NotPrinted[] } {
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
  const made = rows.filter((row) => row['status'] === 'created' || row['status'] === 'existed');
  return {
    trackingNumbers: made.flatMap((row) => ((row['trackingNumber'] ?? '') === '' ? [] : [row['trackingNumber'] as string])),
    without: made
      .filter((row) => (row['trackingNumber'] ?? '') === '')
      .map((row) => {
        const reference = row['businessReference'] || row['uniqueBusinessReference'] || row['id'];
        return {
          trackingNumber: `row ${row['row'] ?? '?'}${reference ? ` (${reference})` : ''}`,
          reason: `${row['status']} without a tracking number in ${file}: look it up, then print it by its tracking number`,
        };
      }),
  };
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
