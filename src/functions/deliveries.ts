import { APIPromise } from '../core/api-promise.js';
import type { Endpoint } from '../core/http.js';
import { DuplicateOrderError } from '../errors/index.js';
import { type Checked, type InputCheck, orderCheck } from '../schemas/check.js';
import type { OrderInput } from '../schemas/order.js';
import { isFilled, isRecord } from '../schemas/predicates.js';
import { type CheckedCall, callApi } from './call-api.js';
import type { DeliveryCore } from './delivery-core.js';
import type { RequestOptions } from './options.js';
import { createdRecord, type ResponseContext } from './shared.js';

/**
 * A created order. The spec does not show the answer: `_id` and `trackingNumber` are always
 * there (as strings, even when the service sends a number); the other fields are what the
 * service is known to send, and any field it adds is kept.
 */
export interface CreatedDelivery {
  _id: string;
  trackingNumber: string;
  /** As created: 10, 15, 25, 30, `'FXF_SEND'` or `'CUSTOMER_RETURN_PICKUP'`. */
  type?: number | string;
  /** The state it starts in: 10 Pickup requested (11 Waiting for route for Cash Collection). */
  state?: { code?: number; value?: string; [field: string]: unknown };
  cod?: number;
  businessReference?: string;
  createdAt?: string;
  [field: string]: unknown;
}

/** Reads a created order; a `ResponseShapeError` when `_id` or `trackingNumber` is missing (the order may exist). */
function createdDelivery(data: unknown, context: ResponseContext): CreatedDelivery {
  return createdRecord(data, context, ['_id', 'trackingNumber']) as CreatedDelivery;
}

/**
 * Whether the order, as it is sent, carries a `uniqueBusinessReference`: the service refuses a
 * second order with the same one (one source says so), so sending it again after an unknown
 * outcome cannot create a second order.
 */
function hasUniqueReference(order: unknown): boolean {
  const reference = isRecord(order) ? order['uniqueBusinessReference'] : undefined;
  return isFilled(reference);
}

/**
 * `POST /deliveries?apiVersion=1`, the one endpoint that creates a single order of any type, for
 * an order passing `check`. Repeated after an unknown outcome only when the order sent carries a
 * `uniqueBusinessReference`.
 */
function orderCall(order: unknown, check: InputCheck): CheckedCall<CreatedDelivery> {
  return { input: order, check, endpoint: orderEndpoint };
}

function orderEndpoint({ value, json }: Checked): Endpoint<CreatedDelivery> {
  return { method: 'POST', path: '/deliveries', query: { apiVersion: 1 }, json, transform: createdDelivery, idempotent: hasUniqueReference(value) };
}

/**
 * Creates one order of any type (`POST /deliveries?apiVersion=1`), as
 * `client.deliveries.create` does: checked against the spec's rules before sending unless
 * `validate: false`; repeated after an unknown outcome (timeout, 5xx) only when it carries a
 * `uniqueBusinessReference`, which the service refuses twice.
 *
 * @throws The rule's coded class (`CodLimitExceededError` 3007, ...) or a `ValidationError`
 * before anything is sent; the same classes with `source: 'server'` when the service refuses it.
 *
 * @example
 * ```ts
 * import { DeliveryCore, createDelivery } from 'delivery-sdk/functions';
 *
 * const core = new DeliveryCore({ baseUrl: 'https://api.example.com/v2' });
 * const order = await createDelivery(core, {
 *   type: 10,
 *   dropOffAddress: { city: 'Giza', districtId: 'aiJudRHeOt', firstLine: '12 Tahrir Street' },
 *   receiver: { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' },
 *   cod: 250,
 * });
 * ```
 */
export function createDelivery(core: DeliveryCore, order: OrderInput, options?: RequestOptions): APIPromise<CreatedDelivery> {
  return sendOrder(core, order, () => orderCheck, options);
}

/**
 * Sends one order through the check `checkOf` gives (made inside the typed-error boundary). When the SDK repeated it after an unknown outcome and the
 * service refused the repeat because the order's `uniqueBusinessReference` is taken, the first
 * attempt created it: the call resolves with that order (repeated-create.ts). Without an earlier
 * attempt that may have reached the service, the refusal is the caller's `DuplicateOrderError`.
 */
export function sendOrder(core: DeliveryCore, order: unknown, checkOf: () => InputCheck, options: RequestOptions | undefined): APIPromise<CreatedDelivery> {
  const startedAt = Date.now();
  let sent: unknown;
  const created = callApi(core, options, () => {
    const call = orderCall(order, checkOf());
    return { ...call, endpoint: (checked: Checked) => ((sent = checked.value), call.endpoint(checked)) };
  });
  return new APIPromise(
    created.withResponse().catch(async (error: unknown) => {
      if (!(error instanceof DuplicateOrderError) || !error.mayExist) throw error;
      const { orderHoldingReference } = await import('./repeated-create.js');
      return orderHoldingReference(core, error, sent, startedAt, options);
    }),
  );
}
