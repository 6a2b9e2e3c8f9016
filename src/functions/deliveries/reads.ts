/** Finding orders: one by its tracking number, a page of a search, every page, one by reference. */

import type { RequestOptions } from '../../core/options.js';
import { ConfigurationError, PagingError, ResponseShapeError, ValidationError, type ValidationIssue } from '../../errors/index.js';
import { leftOf, totalDeadline } from '../../internal/deadline.js';
import { isRecord, shown } from '../../internal/guards.js';
import { snapshotOf } from '../../internal/input.js';
import { phoneSpellings } from '../../schemas/predicates.js';
import { coreInternals, type DeliveryCore } from '../delivery-core.js';
import { type AnswerContext, endpoint } from '../endpoint.js';
import { type DeliveryRecord, deliveryRecord } from './records.js';

/**
 * What `POST /deliveries/search` filters on. Lists are sent as the comma-separated text the
 * service reads; fields the SDK does not list are sent as given.
 */
export interface DeliverySearchFilter {
  trackingNumbers?: string | readonly string[] | undefined;
  /** Your references: an exact match is the intent, though the service may match more loosely. */
  businessReference?: string | readonly string[] | undefined;
  mobilePhones?: string | readonly string[] | undefined;
  /** State codes (`DeliveryState`). */
  stateCodes?: readonly number[] | undefined;
  /** From 1. */
  page?: number | undefined;
  /** Orders per page. `list` asks for 50 unless you say. */
  limit?: number | undefined;
  [field: string]: unknown;
}

/** One page of `deliveries.search`. */
export interface DeliveryPage {
  deliveries: DeliveryRecord[];
  /** What the service says matched. Not to be trusted for paging: a full page with `count: 0` has been seen. */
  count: number | undefined;
  page: number | undefined;
  limit: number | undefined;
  [field: string]: unknown;
}

/** Options of the reads that page (`list`, `findByReference`, `resolveTrackingNumbers`). */
export interface PagedReadOptions extends RequestOptions {
  /**
   * Pages read at most; past them the read ends with a `PagingError`. Default 1,000 (50,000
   * orders at 50 a page): a bound for a service that never answers a short page.
   */
  maxPages?: number | undefined;
}

/** The page size `listDeliveries` asks for when the filter names none. */
const DEFAULT_PAGE_SIZE = 50;
const DEFAULT_MAX_PAGES = 1000;

const listText = (value: unknown): unknown => (Array.isArray(value) ? value.map(String).join(',') : value);

function isWholeAtLeast(value: unknown, minimum: number): boolean {
  return value === undefined || (Number.isSafeInteger(value) && (value as number) >= minimum);
}

/** A search filter read once (as JSON reads it) and checked: paging and state codes; a typed error otherwise. */
function readFilter(filter: unknown): Record<string, unknown> {
  const given = snapshotOf(filter ?? {});
  if (!isRecord(given))
    throw new ValidationError([{ path: [], message: `expected an object, received ${shown(filter)}` }], { subject: 'Invalid search filter' });
  const issues: ValidationIssue[] = [];
  for (const name of ['page', 'limit'])
    if (!isWholeAtLeast(given[name], 1)) issues.push({ path: [name], message: `expected a whole number of at least 1, received ${shown(given[name])}` });
  const codes = given['stateCodes'];
  if (Array.isArray(codes)) {
    const at = codes.findIndex((code) => !Number.isSafeInteger(code));
    if (at >= 0) issues.push({ path: ['stateCodes', at], message: `expected a state code (a whole number), received ${shown(codes[at])}` });
  } else if (codes !== undefined) issues.push({ path: ['stateCodes'], message: `expected an array of state codes, received ${shown(codes)}` });
  if (issues.length > 0) throw new ValidationError(issues, { subject: 'Invalid search filter' });
  return given;
}

/**
 * The body of a search, from a filter {@link readFilter} read: lists joined with commas; each
 * phone in every spelling the service may have stored it in (`010…`, `+2010…`), so that a
 * customer is found however their number was typed at checkout.
 */
function searchBody(filter: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === 'mobilePhones') body[key] = [...new Set(listOf(value).flatMap((phone) => phoneSpellings(String(phone))))].join(',');
    else body[key] = key === 'trackingNumbers' || key === 'businessReference' ? listText(value) : value;
  }
  return body;
}

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value]);

const numberOrUndefined = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** Reads a search answer: `{ deliveries, count, page, limit }` (a bare array is read as the deliveries). */
export function deliveryPage(data: unknown, context: Pick<AnswerContext, 'status' | 'request'>): DeliveryPage {
  const record = isRecord(data) ? data : { deliveries: data };
  const list = record['deliveries'];
  if (!Array.isArray(list)) {
    const { method, url } = context.request;
    throw new ResponseShapeError(`${method} ${url} answered ${context.status} without a deliveries list`, context);
  }
  return {
    ...record,
    deliveries: list.map((order) => deliveryRecord(order, context)),
    count: numberOrUndefined(record['count']),
    page: numberOrUndefined(record['page']),
    limit: numberOrUndefined(record['limit']),
  };
}

/**
 * One order by its tracking number (`GET /deliveries/business/{trackingNumber}`), typed. Read
 * `state.code`, not `state.value`: the text reads "Delivered" for both 45 and 46.
 *
 * @chunk afterCreate
 *
 * @throws `NotFoundError` (404) when there is no such order; `ValidationError` for an empty tracking number.
 *
 * @example
 * ```ts
 * const order = await client.deliveries.get('70000012');
 * if (order.state?.code === DeliveryState.Delivered) console.log(order.receiver?.fullName, order.cod);
 * ```
 */
export const getDelivery = /* @__PURE__ */ endpoint<[trackingNumber: string], DeliveryRecord>({
  name: 'deliveries.get',
  method: 'GET',
  route: '/deliveries/business/{trackingNumber}',
  answer: deliveryRecord,
});

/**
 * One page of the orders matching `filter` (`POST /deliveries/search`): `{ deliveries, count,
 * page, limit }`. Lists (`trackingNumbers`, `businessReference`, `mobilePhones`) are sent as
 * comma-separated text; `page` counts from 1. Do not page by `count`: use `list`. A read, so safe
 * to repeat although it is a POST.
 *
 * @chunk afterCreate
 *
 * @example
 * ```ts
 * const { deliveries } = await client.deliveries.search({ stateCodes: [DeliveryState.PickupRequested], page: 1, limit: 50 });
 * ```
 */
export const searchDeliveries = /* @__PURE__ */ endpoint<[filter?: DeliverySearchFilter], DeliveryPage>({
  name: 'deliveries.search',
  method: 'POST',
  route: '/deliveries/search',
  request: (filter) => ({ body: searchBody(readFilter(filter)) }),
  answer: deliveryPage,
  reads: true,
  idempotent: true,
});

/**
 * Every order matching `filter`, page after page: `for await (const order of ...)`. It asks for
 * the next page only as you read on, and stops on a page shorter than the page size (never on
 * `count`, which the service has been seen to send as 0 with a full page). `filter.page` says
 * where to start. Each order is yielded once: one the service answers again on a later page (the
 * same `_id` or tracking number) is skipped.
 *
 * @operation deliveries.list
 * @chunk afterCreate
 * @calls deliveries.search
 *
 * @throws `PagingError` when the service answers a page with the orders of the page before (it
 * ignored `page`), or past `options.maxPages` (default 1,000): the orders read so far were yielded.
 *
 * @example
 * ```ts
 * for await (const order of client.deliveries.list({ stateCodes: [DeliveryState.PickupRequested] })) {
 *   console.log(order.trackingNumber, order.businessReference, order.state?.code);
 * }
 * ```
 */
export function listDeliveries(core: DeliveryCore, filter?: DeliverySearchFilter, options?: PagedReadOptions): AsyncGenerator<DeliveryRecord, void, undefined> {
  return searchPages(core, filter, options, Number.POSITIVE_INFINITY);
}

/** What a paged read met besides the orders it yielded: how many it skipped as already yielded. */
export interface PagingTally {
  /** Pages the service answered. */
  pages: number;
  /** Orders the service answered again on a later page, each yielded only the first time. */
  repeated: number;
}

/** What makes two records of a search one order: its `_id`, or its tracking number. */
const orderKeys = (order: DeliveryRecord): [string, string] => [`id:${order._id}`, `tn:${order.trackingNumber}`];

/**
 * The pages of a search, every request ending by `deadlineAt` (epoch ms, see
 * {@link totalDeadline}): one deadline for a whole read is what `findByReference`,
 * `customerHistory` and `resolveTrackingNumbers` promise. A listing the caller drives has none
 * (`Infinity`), since the caller's own pace between pages counts. Each order is yielded once:
 * one the service answers again on a later page (same `_id` or tracking number) is skipped, and
 * counted in `tally.repeated`.
 *
 * @internal
 */
export async function* searchPages(
  core: DeliveryCore,
  filter: DeliverySearchFilter | undefined,
  options: PagedReadOptions | undefined,
  deadlineAt: number,
  tally: PagingTally = { pages: 0, repeated: 0 },
): AsyncGenerator<DeliveryRecord, void, undefined> {
  const given = readFilter(filter);
  const { maxPages, requestOptions } = readPagedOptions(options);
  const limit = (given['limit'] as number | undefined) ?? DEFAULT_PAGE_SIZE;
  let page = (given['page'] as number | undefined) ?? 1;
  let previous: ReadonlySet<string> | undefined;
  const yielded = new Set<string>();
  for (let read = 1; ; read++) {
    if (read > maxPages)
      throw new PagingError(`POST /deliveries/search: more than maxPages (${maxPages}) pages; narrow the filter or raise maxPages`, { page });
    const searched = await searchDeliveries(core, { ...given, page, limit }, leftOf(requestOptions, deadlineAt));
    tally.pages += 1;
    const numbers = searched.deliveries.map((order) => order.trackingNumber);
    if (previous !== undefined && numbers.length > 0 && numbers.every((number) => previous?.has(number)))
      throw new PagingError(
        `POST /deliveries/search answered page ${page} with the orders of page ${page - 1}: the service ignored paging, so the read stops`,
        {
          page,
        },
      );
    for (const order of searched.deliveries) {
      const keys = orderKeys(order);
      if (keys.some((key) => yielded.has(key))) {
        tally.repeated += 1;
        continue;
      }
      for (const key of keys) yielded.add(key);
      yield order;
    }
    // The service may cap the page size below what was asked: its own `limit` says what a full page is.
    if (searched.deliveries.length === 0 || searched.deliveries.length < (searched.limit ?? limit)) return;
    previous = new Set(numbers);
    page += 1;
  }
}

function readPagedOptions(options: PagedReadOptions | undefined): { maxPages: number; requestOptions: RequestOptions } {
  let maxPages: unknown;
  let requestOptions: RequestOptions;
  try {
    ({ maxPages = DEFAULT_MAX_PAGES, ...requestOptions } = options ?? {});
  } catch (cause) {
    throw new ConfigurationError('Request options could not be read.', { cause });
  }
  if (!Number.isSafeInteger(maxPages) || (maxPages as number) < 1)
    throw new ConfigurationError(`maxPages: expected a whole number of at least 1, received ${String(maxPages)}`);
  return { maxPages: maxPages as number, requestOptions };
}

/**
 * The order carrying exactly this `businessReference`, or `undefined` when there is none: the
 * check before sending an order again after an unknown outcome. When several carry it (a
 * reference used twice), the one created last. `totalTimeout` bounds the whole search, every page
 * of it.
 *
 * @operation deliveries.findByReference
 * @chunk afterCreate
 * @calls deliveries.search
 *
 * @throws `ValidationError` for a reference holding a comma: the search reads a comma as a
 * separator between references, so such an order cannot be found by it (never a silent miss).
 * @throws `PagingError` when the service ignores paging, or past `maxPages`.
 *
 * @example
 * ```ts
 * const existing = await client.deliveries.findByReference('order-1042');
 * if (existing === undefined) await client.deliveries.create(order);
 * ```
 */
export async function findDeliveryByReference(core: DeliveryCore, businessReference: string, options?: PagedReadOptions): Promise<DeliveryRecord | undefined> {
  const deadlineAt = totalDeadline(coreInternals(core), options);
  const reference = requireReference(businessReference);
  let found: DeliveryRecord | undefined;
  for await (const order of searchPages(core, { businessReference: reference }, options, deadlineAt)) {
    if (order.businessReference !== reference) continue;
    if (found === undefined || createdTime(order) > createdTime(found)) found = order;
  }
  return found;
}

function requireReference(value: unknown): string {
  const refuse = (message: string): ValidationError => new ValidationError([{ path: ['businessReference'], message }], { subject: 'Invalid argument' });
  if (typeof value !== 'string' || value.trim() === '') throw refuse(`expected a non-empty string, received ${shown(value)}`);
  if (value.includes(','))
    throw refuse(
      'holds a comma, which the search reads as a separator between references: an order with this reference cannot be found by searching; keep its tracking number',
    );
  return value;
}

/** When an order says it was created, in epoch ms; one that does not say it readably sorts first. */
export const createdTime = (order: DeliveryRecord): number => {
  const time = typeof order.createdAt === 'string' ? Date.parse(order.createdAt) : Number.NaN;
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
};
