/** One order of any type, `POST /deliveries?apiVersion=1`. */

import { orderCheck } from '../../schemas/check.js';
import type { OrderInput } from '../../schemas/order.js';
import { endpoint } from '../endpoint.js';
import { hasUniqueReference, recoverRepeatedCreate } from './idempotency.js';
import { type CreatedDelivery, createdDelivery } from './records.js';

/**
 * Creates one order (`POST /deliveries?apiVersion=1`): Deliver, Cash Collection, Customer
 * Return Pickup, Exchange, and the fulfillment types too (`fulfillment` has typed methods for
 * those). Checked against the spec's rules before sending unless `validate: false`. Not repeated
 * when the outcome is unknown (a 5xx or a timeout), unless the order carries a
 * `uniqueBusinessReference` (the service refuses a second order with it): then a repeat the
 * service refuses as taken resolves with the order the first attempt made. Without one,
 * `findByReference` tells whether it exists before you send it again.
 *
 * @chunk create
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
export const createDelivery = /* @__PURE__ */ endpoint<[order: OrderInput], CreatedDelivery>({
  name: 'deliveries.create',
  method: 'POST',
  route: '/deliveries?apiVersion=1',
  check: orderCheck,
  answer: createdDelivery,
  idempotent: hasUniqueReference,
  recover: recoverRepeatedCreate,
  createsOrder: true,
});
