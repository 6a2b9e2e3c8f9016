import type { APIPromise } from '../core/api-promise.js';
import { onFirstUse } from '../core/on-first-use.js';
import type { BulkCreationError } from '../errors/index.js';
import type { AirwayBillFile, AirwayBillOptions, AirwayBillTarget } from '../functions/airway-bills.js';
import type { BulkChunkOutcome, BulkCreateOptions, BulkCreateResult, BulkInput, BulkStreamOptions } from '../functions/bulk.js';
import type { ResolvedBulkResult, ResolveTrackingNumbersOptions } from '../functions/bulk-recovery.js';
import type { CustomerHistory } from '../functions/customer-history.js';
import type { CreatedDelivery } from '../functions/deliveries.js';
import type { DeliveryChangeResult, DeliveryTarget } from '../functions/delivery-changes.js';
import type { DeliveryPage, DeliverySearchFilter, PagedReadOptions } from '../functions/delivery-reads.js';
import type { DeliveryRecord } from '../functions/delivery-record.js';
import type { RequestOptions } from '../functions/options.js';
import type { DeliveryTracking, WaitForStateOptions } from '../functions/tracking.js';
import type { DeliveryChanges } from '../schemas/after-create.js';
import type { OrderInput } from '../schemas/index.js';
import { operations, Resource } from './resource.js';

const bulkCode = onFirstUse(() => import('../functions/bulk.js'));
const afterCreateCode = onFirstUse(() => import('./after-create.js'));
const deliveriesCode = onFirstUse(() => import('../functions/deliveries.js'));

export type { CreatedDelivery } from '../functions/deliveries.js';

/**
 * Orders of every type, one at a time or in bulk.
 *
 * @example
 * ```ts
 * const order = await client.deliveries.create({
 *   type: DeliveryType.Deliver,
 *   dropOffAddress: { city: 'Giza', districtId, firstLine: '12 Tahrir Street, 3rd floor' },
 *   receiver: { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' },
 *   cod: 250,
 * });
 * console.log(order.trackingNumber);
 * ```
 */
export class DeliveriesResource extends Resource {
  /**
   * Creates one order (`POST /deliveries?apiVersion=1`): Deliver, Cash Collection, Customer
   * Return Pickup, Exchange, and the fulfillment types too (`client.fulfillment` has typed
   * methods for those). Checked against the spec's rules before sending unless `validate: false`.
   * Not repeated when the outcome is unknown (a 5xx or a timeout), unless the order carries a
   * `uniqueBusinessReference` (the service refuses a second order with it): `findByReference`
   * tells whether it exists before you send it again.
   *
   * @throws The rule's coded class with `source: 'client'` (`CodLimitExceededError` 3007, ...) or a
   * `ValidationError`, before anything is sent; the same classes with `source: 'server'` when
   * the service refuses it, and `BusinessLocationRequiredError` (1073) when the business has no
   * pickup location yet.
   *
   * @example
   * ```ts
   * // Deliver (10), collecting 250 EGP on delivery
   * const order = await client.deliveries.create({
   *   type: DeliveryType.Deliver,
   *   dropOffAddress: await client.lookup.resolveAddress({ city: 'Giza', district: 'Dokki', firstLine: '12 Tahrir Street, 3rd floor', for: 'dropOffAddress' }),
   *   receiver: { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' },
   *   cod: 250,
   *   businessReference: 'order-1042',
   * });
   *
   * // Cash Collection (15): `cod` is required; Customer Return Pickup (25): only a refund (negative `cod`)
   * await client.deliveries.create({ type: DeliveryType.CashCollection, pickupAddress: customerAddress, receiver, cod: 1200 });
   * await client.deliveries.create({ type: DeliveryType.CustomerReturnPickup, pickupAddress: customerAddress, receiver, cod: -300 });
   *
   * // The rules' errors are typed, whether the SDK or the service found them
   * try {
   *   await client.deliveries.create({ type: DeliveryType.Deliver, dropOffAddress, receiver, cod: 45_000 });
   * } catch (err) {
   *   if (err instanceof CodLimitExceededError) console.warn(err.errorCode, err.source, err.message); // 3007 'client' …
   *   else throw err;
   * }
   * ```
   */
  create(order: OrderInput, options?: RequestOptions): APIPromise<CreatedDelivery> {
    return this.onDemand(deliveriesCode, (loaded) => loaded.createDelivery(this.core, order, options));
  }

  /**
   * Creates many orders (`POST /deliveries/bulk?apiVersion=1`, body `{ deliveries: [...],
   * deleteFailedDeliveries }`; `deleteFailedDeliveries` is `false` unless you set the option).
   *
   * 1. An array is all or nothing: unless `validate: false`, every order is checked (once)
   *    first; if any is invalid, or two orders share a `businessReference` or
   *    `uniqueBusinessReference`, one `ValidationError` lists the issues of all of them (paths
   *    start with the input index: `[17].cod`, `[5].businessReference: the same as [2]...`) and
   *    nothing is sent. A generator or async iterable is checked chunk by chunk as it is read:
   *    an invalid order (or a reference repeated within its chunk) fails on its own, with `mayExist: false`, and
   *    the others are sent. An order is not copied when it is sent as written: change it only
   *    after the call settles. A string, or an element with a `then` method, is refused.
   * 2. The orders go in chunks of `chunkSize` (100), `concurrency` (4) requests at a time, the
   *    input read only as chunks are sent. For results that do not grow with the input either,
   *    use {@link DeliveriesResource.streamBulk}.
   * 3. No order is sent twice. The service answers with the ids it created
   *    (`createdDeliveriesIds`) and the orders it refused by `businessReference`
   *    (`failedDeliveries`, each with its `errorMessage`), on a 2xx or in a 1061 error. Refused
   *    orders are failed with the service's message; the others are created. Give every order a
   *    distinct `businessReference`: an answer that cannot be matched to the orders (a failure
   *    without a reference, a reference sent twice, counts that do not add up) leaves the orders
   *    it could concern failed with `mayExist: true`. A chunk with no clear answer (5xx,
   *    timeout) is not sent again: its orders are failed with `mayExist: true`.
   * 4. An abort (`signal`), or an error every chunk would get (401, 403, 404, 1073), stops the
   *    sending of further chunks.
   *
   * Resolves `{ created, failed: [], createdIds }` when every order was created. Otherwise it
   * throws a `BulkCreationError` (1061) carrying the same result: `created` and `failed` by
   * input index, every id in `createdIds`, and `stopped` when it ended early. The service does
   * not say which id is whose, so `created[i]._id` is set only when a request created one order.
   * An abort before anything was sent throws `RequestAbortedError`.
   *
   * @example
   * ```ts
   * try {
   *   const { created } = await client.deliveries.createBulk(orders, { onProgress: (p) => console.log(`${p.done}/${p.total}`) });
   * } catch (err) {
   *   if (!(err instanceof BulkCreationError)) throw err;
   *   save(err.created); // { index, businessReference, _id? }[]
   *   for (const { index, error, mayExist } of err.failed) console.warn(index, mayExist ? 'may exist: see resolveTrackingNumbers' : error.message);
   * }
   * // Or, to always get the result: .catch((err) => (err instanceof BulkCreationError ? err.result : Promise.reject(err)))
   * ```
   */
  createBulk(orders: BulkInput, options?: BulkCreateOptions): Promise<BulkCreateResult> {
    return operations(bulkCode).then((loaded) => loaded.createBulkDeliveries(this.core, orders, options));
  }

  /**
   * Like {@link DeliveriesResource.createBulk}, for inputs of any length: yields what became of
   * each chunk as it settles (`{ start, size, created, failed, createdIds, progress }`), so
   * neither the input nor the results are held whole. Each order is checked as its chunk
   * fills; an invalid one fails on its own (`mayExist: false`). When the upload stops early (an
   * abort, a 401, your iterable throwing) the loop throws that error after the outcomes of
   * every chunk sent. Leaving the loop early waits for the chunks in flight and gives their
   * outcomes to `onSettled`, which hears of every chunk sent: no created order goes unreported.
   *
   * @example
   * ```ts
   * import type { OrderInput } from 'delivery-sdk';
   *
   * async function* rows(): AsyncGenerator<OrderInput> {
   *   for (let i = 0; i < 3; i++) yield { type: DeliveryType.Deliver, dropOffAddress, receiver, businessReference: `row-${i}` };
   * }
   * for await (const chunk of client.deliveries.streamBulk(rows(), { chunkSize: 100 })) {
   *   for (const { index, error, mayExist } of chunk.failed) console.warn(index, mayExist ? 'check before resending' : error.message);
   *   console.log(`${chunk.progress.done} done, ${chunk.progress.created} created`);
   * }
   * ```
   */
  async *streamBulk(orders: BulkInput, options?: BulkStreamOptions): AsyncGenerator<BulkChunkOutcome, void, undefined> {
    yield* (await operations(bulkCode)).streamBulkDeliveries(this.core, orders, options);
  }

  /**
   * One order by its tracking number (`GET /deliveries/business/{trackingNumber}`), typed. Read
   * `state.code`, not `state.value`: the text reads "Delivered" for both 45 and 46.
   *
   * @throws `NotFoundError` (404) when there is no such order.
   *
   * @example
   * ```ts
   * const order = await client.deliveries.get('70000012');
   * if (order.state?.code === DeliveryState.Delivered) console.log(order.receiver?.fullName, order.cod);
   * ```
   */
  get(trackingNumber: string, options?: RequestOptions): APIPromise<DeliveryRecord> {
    return this.onDemand(afterCreateCode, (loaded) => loaded.getDelivery(this.core, trackingNumber, options));
  }

  /**
   * An order's tracking (`GET /deliveries/{trackingNumber}/tracking`), for a "track my order" page:
   * `currentState` and `history` (`{ code, value, timestamp }`, oldest first), `promisedDate` when
   * the service says. Read `code`, not `value`.
   *
   * @throws `NotFoundError` (404) when there is no such order.
   *
   * @example
   * ```ts
   * const { currentState, history } = await client.deliveries.track('70000012');
   * console.log(currentState?.code, history.map((event) => `${event.timestamp} ${event.value}`));
   * ```
   */
  track(trackingNumber: string, options?: RequestOptions): APIPromise<DeliveryTracking> {
    return this.onDemand(afterCreateCode, (loaded) => loaded.trackDelivery(this.core, trackingNumber, options));
  }

  /**
   * Reads the order until its state is one `until` accepts (default: a final state,
   * `isFinalState`), waiting `pollInterval` (10 s) and then half as long again each time, up to
   * `maxPollInterval` (5 min); resolves with the order as last read. Bounded by `totalTimeout` (pass
   * a long one: the client's default is 2 minutes) and `signal`. For scripts and tests; a server
   * reacts to webhooks instead.
   *
   * @throws `TimeoutError` when `totalTimeout` runs out first (naming the last state read),
   * `RequestAbortedError` when `signal` aborts.
   *
   * @example
   * ```ts
   * const order = await client.deliveries.waitForState('70000012', { until: (state) => state === DeliveryState.Delivered, totalTimeout: 3_600_000 });
   * console.log(order.state?.code);
   * ```
   */
  waitForState(trackingNumber: string, options?: WaitForStateOptions): Promise<DeliveryRecord> {
    return operations(afterCreateCode).then((loaded) => loaded.waitForDeliveryState(this.core, trackingNumber, options));
  }

  /**
   * A customer's history by phone, for the cash-on-delivery risk: `{ total, delivered, returned,
   * pending, rate }`, `rate` being delivered over delivered and returned (undefined for a new
   * customer). Searches every spelling of the phone (`0…`, `+20…`, Arabic digits), every page, at
   * most `maxPages` (20) and within `totalTimeout`.
   *
   * @throws `ValidationError` for a phone that is not one, before sending.
   *
   * @example
   * ```ts
   * const history = await client.deliveries.customerHistory('01012345678');
   * if (history.rate !== undefined && history.rate < 0.5) console.warn('Ask this customer to pay online');
   * ```
   */
  customerHistory(phone: string, options?: PagedReadOptions): Promise<CustomerHistory> {
    return operations(afterCreateCode).then((loaded) => loaded.customerHistory(this.core, phone, options));
  }

  /**
   * One page of the orders matching `filter` (`POST /deliveries/search`): `{ deliveries, count,
   * page, limit }`. Lists (`trackingNumbers`, `businessReference`, `mobilePhones`) are sent as
   * comma-separated text; `page` counts from 1. Do not page by `count`: use `list`.
   *
   * @example
   * ```ts
   * const { deliveries } = await client.deliveries.search({ stateCodes: [DeliveryState.PickupRequested], page: 1, limit: 50 });
   * ```
   */
  search(filter?: DeliverySearchFilter, options?: RequestOptions): APIPromise<DeliveryPage> {
    return this.onDemand(afterCreateCode, (loaded) => loaded.searchDeliveries(this.core, filter, options));
  }

  /**
   * Every order matching `filter`, page after page: `for await (const order of ...)`. It asks for
   * the next page only as you read on and stops on a short page, never trusting `count`.
   *
   * @example
   * ```ts
   * for await (const order of client.deliveries.list({ stateCodes: [DeliveryState.PickupRequested] })) {
   *   console.log(order.trackingNumber, order.businessReference);
   * }
   * ```
   */
  async *list(filter?: DeliverySearchFilter, options?: PagedReadOptions): AsyncGenerator<DeliveryRecord, void, undefined> {
    yield* (await operations(afterCreateCode)).listDeliveries(this.core, filter, options);
  }

  /**
   * The order carrying exactly this `businessReference`, or `undefined`: the check before sending
   * an order again after an unknown outcome.
   *
   * @example
   * ```ts
   * const existing = await client.deliveries.findByReference('order-1042');
   * if (existing === undefined) await client.deliveries.create(order);
   * ```
   */
  findByReference(businessReference: string, options?: PagedReadOptions): Promise<DeliveryRecord | undefined> {
    return operations(afterCreateCode).then((loaded) => loaded.findDeliveryByReference(this.core, businessReference, options));
  }

  /**
   * Changes an order (`PUT /deliveries/business/{id}`): `notes`, `receiver`, `dropOffAddress`,
   * `cod`, `goodsInfo`, `specs`, `businessReference`. The create rules that apply to the changes
   * run first. Pass the order you just read instead of its tracking number and its state is
   * checked too: an order past states 10, 11, 20, 21, 22, 24, 30, 41, 47 gets an `OrderStateError`
   * and nothing is sent.
   *
   * @example
   * ```ts
   * const order = await client.deliveries.get('70000012');
   * await client.deliveries.update(order, { receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01011112222' } });
   * await client.deliveries.update('70000013', { notes: 'Call before arriving' });
   * ```
   */
  update(trackingNumberOrOrder: DeliveryTarget, changes: DeliveryChanges, options?: RequestOptions): APIPromise<DeliveryChangeResult> {
    return this.onDemand(afterCreateCode, (loaded) => loaded.updateDelivery(this.core, trackingNumberOrOrder, changes, options));
  }

  /**
   * Cancels an order (`DELETE /deliveries/business/{id}/terminate`), while it is not yet on its
   * way. A key without full access is refused with 401/403 (`AuthenticationError`,
   * `PermissionDeniedError`), the message saying so.
   *
   * @example
   * ```ts
   * await client.deliveries.terminate('70000012');
   * ```
   */
  terminate(trackingNumberOrId: string, options?: RequestOptions): APIPromise<DeliveryChangeResult> {
    return this.onDemand(afterCreateCode, (loaded) => loaded.terminateDelivery(this.core, trackingNumberOrId, options));
  }

  /**
   * The labels of up to 50 orders as one PDF (`POST /deliveries/mass-awb`), as bytes. More than
   * 50 are refused before sending (the service e-mails them instead): call once per 50. The
   * service silently leaves out orders it will not print, so the PDF may have fewer pages.
   *
   * @example
   * ```ts
   * import { writeFile } from 'node:fs/promises';
   *
   * await writeFile('labels.pdf', await client.deliveries.airwayBills(['70000012', '70000013'], { size: 'A6', lang: 'en' }));
   * ```
   */
  airwayBills(trackingNumbers: readonly string[], labelOptions?: AirwayBillOptions, options?: RequestOptions): APIPromise<Uint8Array> {
    return this.onDemand(afterCreateCode, (loaded) => loaded.getAirwayBills(this.core, trackingNumbers, labelOptions, options));
  }

  /**
   * The labels of any number of orders, one PDF per 50 (`{ files: [{ trackingNumbers, pdf }] }`).
   * Pass the orders as read and those the service will not print (Cash Collection, Customer Return
   * Pickup, finished) are refused before sending, by their index.
   *
   * @example
   * ```ts
   * import { writeFile } from 'node:fs/promises';
   *
   * const todays = [];
   * for await (const order of client.deliveries.list({ stateCodes: [DeliveryState.PickupRequested] })) todays.push(order);
   * const { files } = await client.deliveries.airwayBillFiles(todays, { size: 'A6' });
   * for (const [i, { pdf }] of files.entries()) await writeFile(`labels-${i + 1}.pdf`, pdf);
   * ```
   */
  airwayBillFiles(orders: readonly AirwayBillTarget[], labelOptions?: AirwayBillOptions, options?: RequestOptions): Promise<{ files: AirwayBillFile[] }> {
    return operations(afterCreateCode).then((loaded) => loaded.getAirwayBillFiles(this.core, orders, labelOptions, options));
  }

  /**
   * Settles what `createBulk` left open, by `businessReference`: created orders get their
   * tracking numbers, `mayExist` ones come back created or not there; whatever cannot be settled
   * is listed in `unresolved` with why. Pass the orders given to `createBulk` as `orders`.
   *
   * @example
   * ```ts
   * const outcome = await client.deliveries.createBulk(orders).catch((err) => (err instanceof BulkCreationError ? err : Promise.reject(err)));
   * const settled = await client.deliveries.resolveTrackingNumbers(outcome, { orders });
   * for (const { index, trackingNumber } of settled.created) console.log(orders[index]?.businessReference, trackingNumber);
   * ```
   */
  resolveTrackingNumbers(outcome: BulkCreateResult | BulkCreationError, options?: ResolveTrackingNumbersOptions): Promise<ResolvedBulkResult> {
    return operations(afterCreateCode).then((loaded) => loaded.resolveBulkTrackingNumbers(this.core, outcome, options));
  }
}
