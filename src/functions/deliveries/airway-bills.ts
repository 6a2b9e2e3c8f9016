/** Airway bills (labels): one PDF of up to 50 orders, or as many PDFs as the orders need. */
import { MAX_AIRWAY_BILLS } from '../../catalogue/limits.js';
import { isFinalState } from '../../catalogue/states.js';
import type { RequestOptions } from '../../core/options.js';
import { PartialResultError, ResponseShapeError, ValidationError } from '../../errors/index.js';
import { leftOf, totalDeadline } from '../../internal/deadline.js';
import { isRecord, shown } from '../../internal/guards.js';
import { asTypedError } from '../../internal/input.js';
import { coreInternals, type DeliveryCore, requireCore } from '../delivery-core.js';
import { type AnswerContext, endpoint } from '../endpoint.js';
import type { DeliveryRecord } from './records.js';

/** Label options of `airwayBills`. */
export interface AirwayBillOptions {
  /** Paper size. Default `'A4'`. */
  size?: 'A4' | 'A6' | undefined;
  /** Language of the labels. Default `'ar'`. */
  lang?: 'ar' | 'en' | undefined;
}

const PDF_MAGIC = '%PDF-';

/** Bytes of base64 text, without `Buffer` (browsers and edge workers have `atob`). */
function base64Bytes(text: string): Uint8Array | undefined {
  const compact = text.replace(/\s+/g, '');
  if (compact === '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) return undefined;
  const binary = atob(compact);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Bytes of a PDF sent as plain text: one byte per character, as the service writes it. */
function textBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

const startsWithPdf = (bytes: Uint8Array): boolean => PDF_MAGIC.split('').every((char, i) => bytes[i] === char.charCodeAt(0));

/** The PDF of an answer: `data` as base64, as plain text, or `{ data }` around either; anything else is a ResponseShapeError. */
function pdfOf(data: unknown, context: AnswerContext): Uint8Array {
  const text = typeof data === 'string' ? data : isRecord(data) && typeof data['data'] === 'string' ? data['data'] : undefined;
  const bytes = text === undefined ? undefined : text.startsWith(PDF_MAGIC) ? textBytes(text) : base64Bytes(text);
  if (bytes === undefined || !startsWithPdf(bytes)) {
    const { method, url } = context.request;
    throw new ResponseShapeError(`${method} ${url} answered ${context.status} without a PDF (neither base64 nor text starting with %PDF-)`, context);
  }
  return bytes;
}

// A tracking number as `deliveries.get` takes one: text without spaces, commas or control characters.
const TRACKING_NUMBER = /^[^\s,\u0000-\u001f\u007f]+$/;

/** The tracking numbers as the comma-separated text the service reads; each one checked, a hole or a number included. */
function trackingNumbersText(trackingNumbers: unknown): string {
  const list = typeof trackingNumbers === 'string' ? trackingNumbers.split(',').map((tn) => tn.trim()) : trackingNumbers;
  const invalid = (path: Array<string | number>, message: string) => new ValidationError([{ path, message }], { subject: 'Invalid airway bill request' });
  if (!Array.isArray(list)) throw invalid(['trackingNumbers'], `expected a list of tracking numbers, received ${shown(trackingNumbers)}`);
  if (list.length === 0) throw invalid(['trackingNumbers'], 'needs at least one tracking number');
  if (list.length > MAX_AIRWAY_BILLS) {
    throw invalid(
      ['trackingNumbers'],
      `has ${list.length}; at most ${MAX_AIRWAY_BILLS} per call (the service e-mails larger requests instead of answering): call once per ${MAX_AIRWAY_BILLS}`,
    );
  }
  const texts: string[] = [];
  // By index, not map/every: those skip the holes of `[, , '70000012']`.
  for (let index = 0; index < list.length; index++) {
    const tn: unknown = list[index];
    if (typeof tn !== 'string' || !TRACKING_NUMBER.test(tn))
      throw invalid(['trackingNumbers', index], `expected a tracking number (text without spaces, commas or control characters), received ${shown(tn)}`);
    texts.push(tn);
  }
  return texts.join(',');
}

function labelChoices(labelOptions: AirwayBillOptions | undefined): { requestedAwbType: string; lang: string } {
  const size: unknown = labelOptions?.size ?? 'A4';
  const lang: unknown = labelOptions?.lang ?? 'ar';
  const issues = [
    ...(size === 'A4' || size === 'A6' ? [] : [{ path: ['size'], message: `expected 'A4' or 'A6', received ${shown(size)}` }]),
    ...(lang === 'ar' || lang === 'en' ? [] : [{ path: ['lang'], message: `expected 'ar' or 'en', received ${shown(lang)}` }]),
  ];
  if (issues.length > 0) throw new ValidationError(issues, { subject: 'Invalid airway bill request' });
  return { requestedAwbType: size as string, lang: lang as string };
}

/**
 * The labels of up to 50 orders as one PDF (`POST /deliveries/mass-awb`), as bytes to save or
 * send. The service answers base64 (some accounts plain text): both are read, and the bytes are
 * checked to be a PDF. More than 50 are refused before sending (the service would e-mail them
 * instead): call once per 50, or use `airwayBillFiles`. The service silently leaves out orders it
 * will not print, so the PDF may have fewer pages than tracking numbers. A read: safe to ask again.
 *
 * @chunk afterCreate
 *
 * @throws `ValidationError` for an empty list, more than 50, or a tracking number with a comma
 * or space; `ResponseShapeError` when the answer is not a PDF.
 *
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 *
 * await writeFile('labels.pdf', await client.deliveries.airwayBills(['70000012', '70000013'], { size: 'A6', lang: 'en' }));
 * ```
 */
export const getAirwayBills = /* @__PURE__ */ endpoint<[trackingNumbers: readonly string[], labelOptions?: AirwayBillOptions], Uint8Array>({
  name: 'deliveries.airwayBills',
  method: 'POST',
  route: '/deliveries/mass-awb',
  request: (trackingNumbers, labelOptions) => ({ body: { trackingNumbers: trackingNumbersText(trackingNumbers), ...labelChoices(labelOptions) } }),
  answer: pdfOf,
  // Prints labels, changes nothing: safe to ask again.
  reads: true,
  idempotent: true,
});

/** An order to print: its tracking number, or the order as read (then the SDK knows whether the service will print it). */
export type AirwayBillTarget = string | Pick<DeliveryRecord, 'trackingNumber' | 'state' | 'type'>;

/** One PDF of {@link getAirwayBillFiles}, with the tracking numbers it was asked for. */
export interface AirwayBillFile {
  trackingNumbers: string[];
  pdf: Uint8Array;
}

/** Types the service prints no airway bill for: the courier brings nothing to label. */
const UNPRINTABLE_TYPES: Readonly<Record<number, string>> = { 15: 'a Cash Collection', 25: 'a Customer Return Pickup' };

/** The tracking numbers of `targets`, each checked; an order read in a state or of a type the service will not print is refused by its index. */
function printableTrackingNumbers(targets: unknown): string[] {
  if (!Array.isArray(targets) || targets.length === 0) {
    const message = Array.isArray(targets) ? 'needs at least one order' : `expected a list of tracking numbers or orders, received ${shown(targets)}`;
    throw new ValidationError([{ path: ['orders'], message }], { subject: 'Invalid airway bill request' });
  }
  const issues: Array<{ path: Array<string | number>; message: string }> = [];
  const numbers: string[] = [];
  for (let index = 0; index < targets.length; index++) {
    const target: unknown = targets[index];
    const trackingNumber: unknown = isRecord(target) ? target['trackingNumber'] : target;
    if (typeof trackingNumber !== 'string' || !TRACKING_NUMBER.test(trackingNumber)) {
      issues.push({ path: ['orders', index], message: `expected a tracking number or an order with one, received ${shown(trackingNumber)}` });
      continue;
    }
    const type = isRecord(target) && isRecord(target['type']) ? target['type']['code'] : undefined;
    const state = isRecord(target) && isRecord(target['state']) ? target['state']['code'] : undefined;
    if (typeof type === 'number' && UNPRINTABLE_TYPES[type] !== undefined)
      issues.push({ path: ['orders', index], message: `${trackingNumber} is ${UNPRINTABLE_TYPES[type]}, which has no airway bill` });
    else if (typeof state === 'number' && isFinalState(state))
      issues.push({ path: ['orders', index], message: `${trackingNumber} is finished (state ${state}): the service prints no airway bill for it` });
    else numbers.push(trackingNumber);
  }
  if (issues.length > 0) throw new ValidationError(issues, { subject: 'Invalid airway bill request' });
  return numbers;
}

/** What `airwayBillFiles` had printed when a request failed: {@link PartialResultError}'s `partial`. */
export interface AirwayBillFilesPartial {
  /** The PDFs printed before the failure, each with the tracking numbers it was asked for. */
  files: AirwayBillFile[];
  /** The tracking numbers of the requests not printed: the one that failed and those after it. */
  notPrinted: string[];
}

/**
 * The labels of any number of orders, one PDF per 50 (`POST /deliveries/mass-awb` once per 50, one
 * after another), each with the tracking numbers it was asked for: `{ files: [{ trackingNumbers,
 * pdf }] }`. Pass the orders as read (`get`, `list`) and those the service will not print (Cash
 * Collection, Customer Return Pickup, finished orders) are refused before anything is sent, by
 * their index; tracking numbers alone are sent as they are (the service leaves out what it will
 * not print, silently). `totalTimeout` bounds the whole call, every request of it.
 *
 * A request that fails (after its retries: a read, so it is retried like any) ends the call with a
 * `PartialResultError` whose `partial` holds the files already printed and the tracking numbers
 * not printed (`{ files, notPrinted }`), and whose `cause` is the failure: print `notPrinted` again.
 *
 * @operation deliveries.airwayBillFiles
 * @chunk afterCreate
 * @calls deliveries.airwayBills
 *
 * @throws `ValidationError` listing every order refused, nothing sent; `PartialResultError` when a
 * request fails, with what was printed before it.
 *
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 * import type { AirwayBillFilesPartial } from 'delivery-sdk';
 *
 * const todays = [];
 * for await (const order of client.deliveries.list({ stateCodes: [DeliveryState.PickupRequested] })) todays.push(order);
 * try {
 *   const { files } = await client.deliveries.airwayBillFiles(todays, { size: 'A6' });
 *   for (const [i, { pdf }] of files.entries()) await writeFile(`labels-${i + 1}.pdf`, pdf);
 * } catch (err) {
 *   if (!(err instanceof PartialResultError)) throw err;
 *   const { files, notPrinted } = err.partial as AirwayBillFilesPartial; // save the files, print notPrinted again
 * }
 * ```
 */
export async function getAirwayBillFiles(
  core: DeliveryCore,
  orders: readonly AirwayBillTarget[],
  labelOptions?: AirwayBillOptions,
  options?: RequestOptions,
): Promise<{ files: AirwayBillFile[] }> {
  requireCore(core);
  let numbers: string[];
  let deadlineAt: number;
  try {
    numbers = printableTrackingNumbers(orders);
    deadlineAt = totalDeadline(coreInternals(core), options);
  } catch (error) {
    throw asTypedError(error);
  }
  const files: AirwayBillFile[] = [];
  for (let start = 0; start < numbers.length; start += MAX_AIRWAY_BILLS) {
    const trackingNumbers = numbers.slice(start, start + MAX_AIRWAY_BILLS);
    try {
      const pdf = await getAirwayBills(core, trackingNumbers, labelOptions, leftOf(options, deadlineAt));
      files.push({ trackingNumbers, pdf });
    } catch (error) {
      const cause = asTypedError(error);
      const partial: AirwayBillFilesPartial = { files, notPrinted: numbers.slice(start) };
      throw new PartialResultError(`airwayBillFiles printed ${files.length} of ${Math.ceil(numbers.length / MAX_AIRWAY_BILLS)} files`, { partial, cause });
    }
  }
  return { files };
}
