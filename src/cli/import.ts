/**
 * `delivery-sdk orders import FILE`: the orders of a CSV or JSON Lines file through `streamBulk`,
 * each record's outcome in the results file, tracking numbers read with `resolveTrackingNumbers`.
 * The file is read twice, never held: once to check it (a file that cannot be read is a usage
 * error before anything is sent) and count its records (for the time left), once to send them.
 */
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type {
  BulkChunkOutcome,
  BulkCreatedDelivery,
  BulkFailure,
  DeliveryClient,
  DeliveryRecord,
  OrderInput,
  ResolvedBulkResult,
  UnresolvedBulkOrder,
} from '../index.js';
import { DeliveryError, RequestAbortedError } from '../index.js';
import { parseOrUsage, wholeNumberOf } from './args.js';
import { CONNECTION_OPTIONS, connect } from './config.js';
import { EXIT, type ExitCode, firstOf, isKeyRefusal, isUnreachable, UsageError } from './exit.js';
import { countRecords, encodingOf, formatOf, readable, readOrderBatches, type Source } from './input.js';
import { GRACE_MS, type Interrupt } from './interrupt.js';
import { errorFields, type Io, note, plural, say, thousands } from './output.js';
import { PlaceError, PlaceResolver } from './places.js';
import { Progress } from './progress.js';
import { jsonLines, Ledger, mayExist, type Outcome, RESULT_COLUMNS, type RowResult, type RowSink, resultLines, resultsFile } from './results.js';

export const IMPORT_HELP = `delivery-sdk orders import FILE: creates the orders of a CSV or JSON Lines file.

Usage: delivery-sdk orders import FILE [--results FILE] [--dry-run] [--json] [--quiet]
       [--format csv|jsonl] [--encoding windows-1256] [--chunk-size 100] [--concurrency 4]
       [--sandbox | --base-url URL] [--api-key-file FILE]

FILE is CSV, a header row naming order fields (type, receiver.phone, dropOffAddress.city, cod,
businessReference, uniqueBusinessReference, ...), or JSON Lines, one order a line; UTF-8 unless
--encoding names its encoding (windows-1256: Excel's CSV on an Arabic Windows). A pipe is read
too; - is the standard input (with --format). Places may be named (dropOffAddress.city Cairo,
dropOffAddress.districtName Zamalek): they are looked up once each, a near miss refused with the
likely name.
--results FILE   one line per record: ${'row,businessReference,uniqueBusinessReference,status,id,trackingNumber,errorClass,errorCode,message'}
                 status: created, existed, refused, not sent, or unknown (it may exist: look it up)
--dry-run        checks every record offline, sends nothing (no key needed)
--json           JSON Lines on stdout: one object per record, then {"summary": ...}
--quiet          no progress on stderr

Rows with a uniqueBusinessReference are never created twice: run the same file again after a
failure and they come out 'existed', with their tracking numbers.
Exit codes: 0 every row created or existed, 1 some refused or not sent, 2 usage or file error
(nothing sent), 3 key or subscription refused, 4 unreachable or timed out (see the 'unknown' rows),
130 interrupted, 143 stopped (SIGTERM, SIGHUP, or the process that started it gone). Ctrl-C or SIGTERM
stops reading, waits for the requests in flight (7 s at most) and writes every outcome; a second
Ctrl-C writes the rows still in flight as 'unknown' and exits at once. See docs/cli.md.`;

/** Rows listed in the human summary at most; the results file has them all. */
const LISTED = 20;

interface ImportOptions {
  readonly file: string;
  readonly format: 'csv' | 'jsonl';
  readonly encoding: string;
  readonly chunkSize: number;
  readonly concurrency: number;
}

export async function importCommand(args: readonly string[], io: Io, interrupt: Interrupt): Promise<ExitCode> {
  const { values, positionals } = parseOrUsage({
    args: [...args],
    allowPositionals: true,
    options: {
      ...CONNECTION_OPTIONS,
      results: { type: 'string' },
      'dry-run': { type: 'boolean' },
      json: { type: 'boolean' },
      quiet: { type: 'boolean' },
      format: { type: 'string' },
      encoding: { type: 'string' },
      'chunk-size': { type: 'string', default: '100' },
      concurrency: { type: 'string', default: '4' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) return (say(io, IMPORT_HELP), EXIT.ok);
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0)
    throw new UsageError(file === undefined ? 'name the file to import' : `one file at a time, received ${positionals.length}`);
  const options: ImportOptions = {
    file: file as string,
    format: formatOf(file, values.format),
    encoding: encodingOf(values.encoding),
    chunkSize: wholeNumberOf('--chunk-size', values['chunk-size'], 1),
    concurrency: wholeNumberOf('--concurrency', values.concurrency, 1),
  };
  if (values.results !== undefined && sameFile(values.results, options.file))
    throw new UsageError('--results names the file to import (the same file, by its real path): it would be overwritten');
  const dryRun = values['dry-run'] === true;
  if (dryRun && (values.sandbox === true || values['base-url'] !== undefined)) throw new UsageError('--dry-run sends nothing: drop --sandbox and --base-url');
  // A pipe can be read once: kept aside, it is read twice as a file is.
  const input = await readable(options.file);
  const source: Source = { file: input.path, format: options.format, encoding: options.encoding };
  let connection: Awaited<ReturnType<typeof connect>> | undefined;
  try {
    connection = dryRun ? undefined : await connect(values);
    const total = await countRecords(source).catch((error: unknown) => {
      // Named as given, not as the copy of a pipe.
      throw error instanceof UsageError ? new UsageError(error.message.replaceAll(input.path, options.file)) : error;
    });
    const problems: RowResult[] = [];
    let onStderr = false;
    const sinks: RowSink[] = [
      ...(values.results === undefined ? [] : [resultsFile(values.results)]),
      ...(io.json ? [jsonLines(io.stdout)] : []),
      // Without --json, a results file that stopped taking writes leaves the rows from its failed write
      // on to stderr, as its lines: no row's outcome is only a count (a created one, sent again, is created twice).
      {
        write: (rows) => {
          if (io.json || ledger.writeFailure === undefined) return;
          if (!onStderr) io.stderr.write(`${RESULT_COLUMNS.join(',')}\n`);
          onStderr = true;
          io.stderr.write(resultLines(rows));
        },
        close() {},
      },
      { write: (rows) => problems.push(...rows.filter(isProblem).slice(0, LISTED - problems.length)), close() {} },
    ];
    const ledger = new Ledger(sinks);
    const progress = values.quiet === true ? undefined : new Progress({ stream: io.stderr, total, dryRun });
    const counts = () => ({ read: ledger.read, settled: ledger.settledCount, ...ledger.counts });
    let stopReading = false;
    interrupt.onFirst(() => {
      stopReading = true;
      note(
        io,
        `\n${interrupt.description}: reading no more rows; waiting for the rows in flight (${ledger.read - ledger.settledCount}), at most ${GRACE_MS / 1000}s, then writing every outcome. Ctrl-C again to stop at once.`,
      );
    });
    interrupt.onForce(() => {
      // The import ended and wrote every row already; only the process is slow to exit.
      if (ledger.closed) return;
      // Created rows awaiting their tracking numbers stay created; the rest may exist.
      const unknownBefore = ledger.counts.unknown;
      const left = ledger.settleRest({
        status: 'unknown',
        message: 'still in flight when the import was stopped: it may exist, look it up before sending it again',
      });
      ledger.close();
      note(
        io,
        `Stopped at once: ${plural(left, 'row')} in flight written${values.results === undefined ? '' : ` to ${values.results}`}, ${ledger.counts.unknown - unknownBefore} of them as 'unknown'.`,
      );
    });
    const places = new PlaceResolver(connection?.client);
    async function* records(): AsyncGenerator<unknown> {
      for await (const batch of readOrderBatches(source)) {
        for (const order of batch) {
          // Also when Ctrl-C came while the file was being checked, before the listener above was there.
          // And when the results file could not be written: the outcomes of more rows could not be kept.
          if (stopReading || interrupt.interrupted || ledger.writeFailure !== undefined) return;
          const index = ledger.add(order);
          let sent = order;
          try {
            if (PlaceResolver.namesPlaces(order)) sent = await places.resolve(order);
          } catch (error) {
            if (!(error instanceof PlaceError)) throw error;
            // A name the lists do not have: the row's refusal. Lists that could not be read: not sent, send it again later.
            ledger.settle(index, { status: error.refused ? 'refused' : 'not sent', error: error.error }, flagsOf(error.error));
            ledger.leaveOut(index);
            continue;
          }
          yield sent;
        }
      }
    }
    const progressed = (): void => progress?.update(counts());
    const ended =
      connection === undefined ? await check(records(), ledger, progressed) : await upload(connection.client, records(), ledger, options, progressed);
    progress?.finish(counts());
    ledger.close();
    const stopped = ended ?? ledger.writeFailure;
    const code = firstOf([
      ...(interrupt.exitCode === undefined ? [] : [interrupt.exitCode]),
      ...(ledger.keyRefused || isKeyRefusal(stopped) ? [EXIT.keyRefused] : []),
      ...(ledger.unreachable || isUnreachable(stopped) ? [EXIT.unreachable] : []),
      ...(ledger.counts.refused + (dryRun ? 0 : ledger.counts['not sent']) > 0 || stopped !== undefined ? [EXIT.failed] : []),
    ]);
    summarize(io, {
      file: options.file,
      target: connection?.target,
      ledger,
      total,
      problems,
      stopped,
      results: values.results,
      interrupted: interrupt.interrupted ? interrupt.description : undefined,
      code,
    });
    return code;
  } finally {
    await connection?.close();
    input.remove();
  }
}

/**
 * Whether `results` is the file `file` is, whatever the path says: a link to it (symbolic or hard),
 * or the same file by another way there. A results file not made yet is compared by its folder's real path.
 */
function sameFile(results: string, file: string): boolean {
  try {
    const [a, b] = [statSync(results), statSync(file)];
    return a.dev === b.dev && a.ino === b.ino;
  } catch {
    try {
      return join(realpathSync(dirname(results)), basename(results)) === realpathSync(file);
    } catch {
      return false;
    }
  }
}

/** A row the summary lists: not created, and not a valid row of a dry run. */
const isProblem = (row: RowResult): boolean =>
  row.status !== 'created' && row.status !== 'existed' && !(row.status === 'not sent' && row.errorClass === undefined);

/** `--dry-run`: each record through the check `create` runs, offline. */
async function check(records: AsyncIterable<unknown>, ledger: Ledger, progressed: () => void): Promise<undefined> {
  // The validators carry the schemas: loaded for a dry run only, an upload's own check loads what it needs.
  const { checkOrder } = await import('../validation.js');
  let at = 0;
  for await (const order of records) {
    // Offline, place names cannot be looked up: the rest of the order is checked, the names when it is sent.
    const named = PlaceResolver.namesPlaces(order);
    const checked = checkOrder(named ? PlaceResolver.standIn(order) : order);
    const valid = `valid: the dry run sent nothing${named ? '; its place names are checked against the lookup lists when it is sent' : ''}`;
    ledger.settle(ledger.rowOf(at++), checked.ok ? { status: 'not sent', message: valid } : { status: 'refused', error: checked.error });
    if (at % 100 === 0) ledger.flush();
    progressed();
  }
  return undefined;
}

/**
 * Sends the records through `streamBulk`, consumed to its end, every chunk's outcome taken from
 * `onSettled` (which hears of every chunk sent, yielded or not). The tracking numbers of created
 * orders, and the fate of those that may exist, are read with `resolveTrackingNumbers` while the
 * next chunks go out, at most twice `concurrency` chunks at a time. Resolves with what stopped the
 * upload early, if anything did.
 */
export async function upload(
  client: DeliveryClient,
  records: AsyncIterable<unknown>,
  ledger: Ledger,
  options: ImportOptions,
  progressed: () => void,
): Promise<unknown> {
  const settling = new Set<Promise<void>>();
  /** The first failure of the import's own settling of a chunk: the rows it left open may exist. */
  let unsettled: { error: unknown } | undefined;
  const onSettled = (chunk: BulkChunkOutcome): void => {
    // streamBulk's indexes are those of the orders given to it; the ledger's are the file's rows (the same until a row is left out).
    const inRows: BulkChunkOutcome = !ledger.shifted
      ? chunk
      : {
          ...chunk,
          created: chunk.created.map((created) => ({ ...created, index: ledger.rowOf(created.index) })),
          failed: chunk.failed.map((failure) => ({ ...failure, index: ledger.rowOf(failure.index) })),
        };
    const task: Promise<void> = settleChunk(client, inRows, ledger).then(
      () => void (settling.delete(task), progressed()),
      (error: unknown) => void (settling.delete(task), (unsettled ??= { error })),
    );
    settling.add(task);
  };
  let stopped: unknown;
  try {
    const stream = client.deliveries.streamBulk(records as AsyncIterable<OrderInput>, {
      chunkSize: options.chunkSize,
      concurrency: options.concurrency,
      onSettled,
    });
    for await (const _chunk of stream) {
      progressed();
      // Reading the next records waits while twice `concurrency` chunks are still being settled (their
      // tracking numbers read): the reads overlap the uploads, and memory stays flat.
      while (settling.size >= 2 * options.concurrency) await Promise.race(settling);
    }
  } catch (error) {
    stopped = error;
  }
  await Promise.all(settling);
  // A record with no outcome was read but not sent when the upload stopped: streamBulk reports every chunk it sent.
  // Should it ever end otherwise (an error of its own, or of the settling of a chunk sent), such a record may have gone out: 'unknown'.
  // A record whose order was created (or may have been) keeps that outcome, whatever stopped the read that settles it.
  if (unsettled !== undefined) stopped ??= unsettled.error;
  const documented = unsettled === undefined && (stopped === undefined || stopped instanceof DeliveryError);
  ledger.settleRest(
    documented
      ? { status: 'not sent', error: stopped, message: stopped === undefined ? undefined : 'the upload stopped before sending it' }
      : { status: 'unknown', error: stopped, message: 'the upload failed while it was read: look it up before sending it again' },
    { keyRefused: isKeyRefusal(stopped), unreachable: !documented },
  );
  ledger.flush();
  return stopped;
}

/** The outcome of a failure known not to have created its order. */
function failureOutcome(error: DeliveryError): Outcome {
  // Never reached the service or not taken by it (connection refused, 429 after the retries,
  // aborted before sending), or the service refused the key rather than the order: nothing to fix
  // in the row, send it again as it is.
  const unsent = isUnreachable(error) || error instanceof RequestAbortedError || isKeyRefusal(error);
  return { status: unsent ? 'not sent' : 'refused', error };
}

const flagsOf = (error: unknown, unknown = false) => ({ keyRefused: isKeyRefusal(error), unreachable: unknown || isUnreachable(error) });

async function settleChunk(client: DeliveryClient, chunk: BulkChunkOutcome, ledger: Ledger): Promise<void> {
  const toResolve: BulkCreatedDelivery[] = [];
  const unknown: BulkFailure[] = [];
  for (const created of chunk.created) {
    if (created.alreadyExisted === true) ledger.settle(created.index, { status: 'existed', id: created._id, trackingNumber: created.trackingNumber });
    else if (typeof created.trackingNumber === 'string' && created.trackingNumber !== '')
      ledger.settle(created.index, { status: 'created', id: created._id, trackingNumber: created.trackingNumber });
    else {
      toResolve.push(created);
      ledger.expect(created.index, { status: 'created', id: created._id, message: 'tracking number not read: the import was stopped first' });
    }
  }
  for (const failure of chunk.failed) {
    if (mayExist(failure.error) || failure.mayExist) {
      unknown.push(failure);
      ledger.expect(
        failure.index,
        { status: 'unknown', error: failure.error, message: 'may exist: look it up before sending it again' },
        flagsOf(failure.error, true),
      );
    } else ledger.settle(failure.index, failureOutcome(failure.error), flagsOf(failure.error));
  }
  ledger.flush();
  if (toResolve.length === 0 && unknown.length === 0) return;
  try {
    await resolveChunk(client, chunk, toResolve, unknown, ledger);
  } finally {
    ledger.flush();
  }
}

/** The tracking numbers of a chunk's created orders, and the fate of those that may exist, read by their businessReference. */
async function resolveChunk(
  client: DeliveryClient,
  chunk: BulkChunkOutcome,
  toResolve: BulkCreatedDelivery[],
  unknown: BulkFailure[],
  ledger: Ledger,
): Promise<void> {
  // The records by index, as resolveTrackingNumbers reads their businessReference: only this chunk's.
  const orders: Array<{ businessReference: string | undefined }> = [];
  for (const { index } of [...toResolve, ...unknown]) orders[index] = { businessReference: ledger.keysAt(index)?.businessReference };
  try {
    const resolved = await client.deliveries.resolveTrackingNumbers({ created: toResolve, failed: unknown, createdIds: chunk.createdIds }, { orders });
    const unresolved = new Map(resolved.unresolved.map((entry) => [entry.index, entry.reason]));
    const wasUnknown = new Set(unknown.map((failure) => failure.index));
    const byPhone = await foundByPhone(client, chunk, resolved, ledger);
    for (const created of resolved.created) {
      const order = byPhone.get(created.index);
      if (order !== undefined) {
        ledger.settle(created.index, { status: created.alreadyExisted === true ? 'existed' : 'created', id: order._id, trackingNumber: order.trackingNumber });
        continue;
      }
      const reason = unresolved.get(created.index);
      ledger.settle(created.index, {
        status: created.alreadyExisted === true ? 'existed' : 'created',
        id: created._id,
        trackingNumber: created.trackingNumber,
        message:
          reason !== undefined
            ? `tracking number not read: ${reason.message}`
            : wasUnknown.has(created.index)
              ? 'its request failed, yet the order was created: found by its businessReference'
              : undefined,
      });
    }
    for (const failure of resolved.failed) {
      const reason = unresolved.get(failure.index);
      const order = failure.mayExist ? byPhone.get(failure.index) : undefined;
      if (order !== undefined)
        ledger.settle(failure.index, {
          status: 'created',
          id: order._id,
          trackingNumber: order.trackingNumber,
          message: "its request failed, yet the order was created: found by its receiver's phone and businessReference",
        });
      else if (failure.mayExist)
        ledger.settle(
          failure.index,
          {
            status: 'unknown',
            error: failure.error,
            message: `may exist: look it up before sending it again${reason === undefined ? '' : ` (${reason.message})`}`,
          },
          flagsOf(failure.error, true),
        );
      else
        ledger.settle(
          failure.index,
          { status: 'not sent', error: failure.error, message: 'no order carries its businessReference: safe to send again' },
          flagsOf(failure.error),
        );
    }
  } catch (error) {
    for (const created of toResolve)
      ledger.settle(created.index, { status: 'created', id: created._id, message: `tracking number not read: ${errorFields(error).message}` });
    for (const failure of unknown)
      ledger.settle(
        failure.index,
        { status: 'unknown', error: failure.error, message: 'may exist: look it up before sending it again' },
        flagsOf(failure.error, true),
      );
  }
}

/** Orders of one customer read at most, newest first, to find a row's order by its receiver's phone: 5 pages of 50. */
const PHONE_PAGES = 5;

/**
 * The orders `resolveTrackingNumbers` could not settle by businessReference (one holding a comma,
 * which the search reads as a separator; none given), found among the orders of the row's receiver
 * phone (the search by `mobilePhones`): a created row's order is the one of that customer with its
 * businessReference (if it has one) among the ids this chunk created that no other row holds; a row
 * that may exist, the one with its businessReference. Settled only when exactly one order fits.
 */
async function foundByPhone(
  client: DeliveryClient,
  chunk: BulkChunkOutcome,
  resolved: ResolvedBulkResult,
  ledger: Ledger,
): Promise<Map<number, DeliveryRecord>> {
  const found = new Map<number, DeliveryRecord>();
  const open = resolved.unresolved.filter((entry) => entry.created === true || entry.businessReference !== undefined);
  const phones = new Map<string, UnresolvedBulkOrder[]>();
  for (const entry of open) {
    const phone = ledger.keysAt(entry.index)?.phone;
    if (phone !== undefined) phones.set(phone, [...(phones.get(phone) ?? []), entry]);
  }
  if (phones.size === 0) return found;
  const settled = new Set(resolved.created.filter((entry) => !open.some((other) => other.index === entry.index)).map((entry) => entry._id));
  const free = new Set(chunk.createdIds.filter((id) => !settled.has(id)));
  for (const [phone, entries] of phones) {
    const orders: DeliveryRecord[] = [];
    try {
      for await (const order of client.deliveries.list({ mobilePhones: phone }, { maxPages: PHONE_PAGES })) orders.push(order);
    } catch {
      // The newest pages read (a customer of more orders, a read that failed) are where this chunk's orders are; none read, none found.
    }
    for (const entry of entries) {
      const fits = orders.filter(
        (order) =>
          (entry.businessReference === undefined || order.businessReference === entry.businessReference) && (entry.created !== true || free.has(order._id)),
      );
      if (fits.length === 1) found.set(entry.index, fits[0] as DeliveryRecord);
    }
  }
  return found;
}

interface Summary {
  file: string;
  target: string | undefined;
  ledger: Ledger;
  total: number;
  problems: readonly RowResult[];
  stopped: unknown;
  results: string | undefined;
  /** How the import was stopped, if it was. */
  interrupted: string | undefined;
  code: ExitCode;
}

function summarize(io: Io, { file, target, ledger, total, problems, stopped, results, interrupted, code }: Summary): void {
  const { counts } = ledger;
  // The reason and, for a stop of the SDK's own ("reading the orders threw"), what caused it.
  const cause = stopped instanceof Error && stopped.cause instanceof Error ? `: ${stopped.cause.message}` : '';
  const stop = stopped instanceof Error ? { errorClass: stopped.name, message: `${stopped.message}${cause}` } : undefined;
  if (io.json) {
    io.stdout.write(
      `${JSON.stringify({ summary: { file, rows: total, read: ledger.read, created: counts.created, existed: counts.existed, refused: counts.refused, notSent: counts['not sent'], unknown: counts.unknown, dryRun: target === undefined, interrupted: interrupted !== undefined, stopped: stop, results, exitCode: code } })}\n`,
    );
    return;
  }
  const line = (text = ''): void => say({ ...io, json: false }, text);
  const read = `${thousands(ledger.read)} of ${plural(total, 'row')} read`;
  if (target === undefined) line(`Checked ${file} (dry run, nothing sent): ${read}: ${counts['not sent']} valid, ${counts.refused} would be refused.`);
  else
    line(
      `Imported ${file} into ${target}: ${read}: ${counts.created} created, ${counts.existed} existed, ${counts.refused} refused, ${counts['not sent']} not sent, ${counts.unknown} unknown.`,
    );
  for (const row of problems) {
    const reference = row.businessReference ?? row.uniqueBusinessReference;
    const error = row.errorClass === undefined ? '' : `${row.errorClass}${row.errorCode === undefined ? '' : ` ${row.errorCode}`}: `;
    line(`  row ${row.row}${reference === undefined ? '' : ` (${reference})`}: ${row.status}: ${error}${row.message ?? ''}`);
  }
  const unlisted = counts.refused + counts.unknown + (target === undefined ? 0 : counts['not sent']) - problems.length;
  // A results file that stopped taking writes holds the rows before its failed write; stderr has the others.
  const kept = results === undefined ? undefined : ledger.writeFailure === undefined ? results : `${results} and stderr`;
  if (unlisted > 0) line(`  ... and ${unlisted} more${kept === undefined ? ' (--results FILE keeps every row)' : `: see ${kept}`}`);
  if (stop !== undefined) line(`Stopped early: ${stop.errorClass}: ${stop.message}`);
  const unread = total - ledger.read;
  if (interrupted !== undefined) line(`${interrupted}: ${plural(unread, 'row')} after row ${ledger.read} ${unread === 1 ? 'was' : 'were'} not read.`);
  if (counts.unknown > 0)
    line(
      counts.unknown === 1
        ? '1 row may exist: look it up (by businessReference) before sending it again.'
        : `${plural(counts.unknown, 'row')} may exist: look them up (by businessReference) before sending them again.`,
    );
  if (kept !== undefined) line(`Every row's outcome: ${kept}`);
}
