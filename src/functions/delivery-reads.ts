import type { APIPromise } from '../core/api-promise.js';
import { path, wireForm } from '../core/http.js';
import { ResponseShapeError, ValidationError, type ValidationIssue } from '../errors/index.js';
import { isRecord } from '../schemas/predicates.js';
import { type DeliveryCore, requireCore } from './core.js';
import { type DeliveryRecord, deliveryRecord } from './delivery-record.js';
import type { RequestOptions } from './options.js';
import { type CheckedCall, send } from './send.js';
import { type ResponseContext, requireId } from './shared.js';

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

/** The page size `listDeliveries` asks for when the filter names none. */
const DEFAULT_PAGE_SIZE = 50;

const listText = (value: unknown): unknown => (Array.isArray(value) ? value.map(String).join(',') : value);

function isWholeAtLeast(value: unknown, minimum: number): boolean {
  return value === undefined || (Number.isSafeInteger(value) && (value as number) >= minimum);
}

/** A search filter read once (as JSON reads it) and checked: paging and state codes; a typed error otherwise. */
function readFilter(filter: unknown): Record<string, unknown> {
  const given = wireForm(filter ?? {})?.value;
  if (!isRecord(given)) throw new ValidationError([{ path: [], message: 'must be an object' }], { subject: 'Invalid search filter' });
  const issues: ValidationIssue[] = [];
  if (!isWholeAtLeast(given['page'], 1)) issues.push({ path: ['page'], message: 'must be a whole number, 1 or more' });
  if (!isWholeAtLeast(given['limit'], 1)) issues.push({ path: ['limit'], message: 'must be a whole number, 1 or more' });
  const codes = given['stateCodes'];
  if (codes !== undefined && !(Array.isArray(codes) && codes.every((code) => Number.isSafeInteger(code))))
    issues.push({ path: ['stateCodes'], message: 'must be an array of state codes' });
  if (issues.length > 0) throw new ValidationError(issues, { subject: 'Invalid search filter' });
  return given;
}

/** The body of a search, from a filter {@link readFilter} read: lists joined with commas. */
function searchBody(filter: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    body[key] = key === 'trackingNumbers' || key === 'businessReference' || key === 'mobilePhones' ? listText(value) : value;
  }
  return body;
}

const numberOrUndefined = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** Reads a search answer: `{ deliveries, count, page, limit }` (a bare array is read as the deliveries). */
function deliveryPage(data: unknown, answer: ResponseContext): DeliveryPage {
  const record = isRecord(data) ? data : { deliveries: data };
  const list = record['deliveries'];
  if (!Array.isArray(list)) {
    const { method, url } = answer.request;
    throw new ResponseShapeError(`${method} ${url} answered ${answer.status} without a deliveries list`, answer);
  }
  return {
    ...record,
    deliveries: list.map(deliveryRecord),
    count: numberOrUndefined(record['count']),
    page: numberOrUndefined(record['page']),
    limit: numberOrUndefined(record['limit']),
  };
}

/** The search endpoint for a filter {@link readFilter} read: a read, so safe to repeat although it is a POST. */
function searchCall(filter: Record<string, unknown>): CheckedCall<DeliveryPage> {
  return {
    input: searchBody(filter),
    endpoint: ({ json }) => ({ method: 'POST', path: '/deliveries/search', json, transform: deliveryPage, idempotent: true, reads: true }),
  };
}

/**
 * One order by its tracking number (`GET /deliveries/business/{trackingNumber}`).
 *
 * @throws `NotFoundError` (404) when there is no such order; `ValidationError` for an empty tracking number.
 *
 * @example
 * ```ts
 * const order = await getDelivery(core, '70000012');
 * if (order.state?.code === DeliveryState.Delivered) console.log('delivered', order.updatedAt);
 * ```
 */
export function getDelivery(core: DeliveryCore, trackingNumber: string, options?: RequestOptions): APIPromise<DeliveryRecord> {
  return send(core, options, () => ({
    method: 'GET',
    path: path`/deliveries/business/${requireId(trackingNumber, 'trackingNumber')}`,
    transform: (data) => deliveryRecord(data),
  }));
}

/**
 * One page of the orders matching `filter` (`POST /deliveries/search`, paging in the body).
 *
 * @example
 * ```ts
 * const { deliveries } = await searchDeliveries(core, { stateCodes: [DeliveryState.PickupRequested], page: 1, limit: 50 });
 * ```
 */
export function searchDeliveries(core: DeliveryCore, filter?: DeliverySearchFilter, options?: RequestOptions): APIPromise<DeliveryPage> {
  return send(core, options, () => searchCall(readFilter(filter)));
}

/**
 * Every order matching `filter`, page after page, as an async iterable. It asks for the next page
 * only as you read on, and stops on a page shorter than the page size (never on `count`, which
 * the service has been seen to send as 0 with a full page). `filter.page` says where to start.
 *
 * @example
 * ```ts
 * for await (const order of listDeliveries(core, { businessReference: ['order-1041', 'order-1042'] })) {
 *   console.log(order.businessReference, order.trackingNumber, order.state?.code);
 * }
 * ```
 */
export async function* listDeliveries(
  core: DeliveryCore,
  filter?: DeliverySearchFilter,
  options?: RequestOptions,
): AsyncGenerator<DeliveryRecord, void, undefined> {
  requireCore(core);
  const given = readFilter(filter);
  const limit = (given['limit'] as number | undefined) ?? DEFAULT_PAGE_SIZE;
  let page = (given['page'] as number | undefined) ?? 1;
  for (;;) {
    const answer = await send(core, options, () => searchCall({ ...given, page, limit }));
    yield* answer.deliveries;
    // The service may cap the page size below what was asked: its own `limit` says what a full page is.
    if (answer.deliveries.length === 0 || answer.deliveries.length < (answer.limit ?? limit)) return;
    page += 1;
  }
}

/**
 * The order carrying exactly this `businessReference`, or `undefined` when there is none. When
 * several carry it (a reference used twice), the one created last.
 *
 * @example
 * ```ts
 * const order = await findDeliveryByReference(core, 'order-1042');
 * if (order === undefined) console.log('not created: safe to send');
 * ```
 */
export async function findDeliveryByReference(core: DeliveryCore, businessReference: string, options?: RequestOptions): Promise<DeliveryRecord | undefined> {
  requireCore(core);
  const reference = requireReference(businessReference);
  let found: DeliveryRecord | undefined;
  for await (const order of listDeliveries(core, { businessReference: reference }, options)) {
    if (order.businessReference !== reference) continue;
    if (found === undefined || createdTime(order) > createdTime(found)) found = order;
  }
  return found;
}

function requireReference(value: unknown): string {
  if (typeof value === 'string' && value.trim() !== '') return value;
  throw new ValidationError([{ path: ['businessReference'], message: 'must be a non-empty string' }], { subject: 'Invalid argument' });
}

const createdTime = (order: DeliveryRecord): number => {
  const time = typeof order.createdAt === 'string' ? Date.parse(order.createdAt) : Number.NaN;
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
};
