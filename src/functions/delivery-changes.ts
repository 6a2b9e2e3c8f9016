import { EDITABLE_STATES } from '../catalogue/limits.js';
import { APIPromise } from '../core/api-promise.js';
import { asRecord, idString } from '../core/guards.js';
import { path } from '../core/http.js';
import { ApiError, AuthenticationError, OrderStateError, PermissionDeniedError } from '../errors/index.js';
import type { DeliveryChanges } from '../schemas/after-create.js';
import { changesCheck } from '../schemas/check.js';
import { isRecord } from '../schemas/predicates.js';
import { callApi } from './call-api.js';
import type { DeliveryCore } from './delivery-core.js';
import type { DeliveryRecord } from './delivery-record.js';
import type { RequestOptions } from './options.js';
import { refusalText, requireId, sameAnswer } from './shared.js';

/** What `update` and `terminate` answer: the order's `_id`, and whatever else the service sends. */
export interface DeliveryChangeResult {
  _id?: string | undefined;
  [field: string]: unknown;
}

/** An order to change: its tracking number or `_id`, or the order as read (then its state is checked first). */
export type DeliveryTarget = string | Pick<DeliveryRecord, 'trackingNumber' | '_id' | 'state' | 'type'>;

function changeResult(data: unknown): DeliveryChangeResult {
  const record = asRecord(data);
  const id = idString(record['_id']);
  return id === undefined ? { ...record } : { ...record, _id: id };
}

/** The id to send: the string given, or a read order's tracking number (the form most integrations send). */
function targetId(target: unknown): string {
  if (isRecord(target)) return requireId(idString(target['trackingNumber']) ?? idString(target['_id']), 'trackingNumber');
  return requireId(target, 'trackingNumberOrId');
}

/**
 * Changes an order (`PUT /deliveries/business/{id}`): any of `notes`, `receiver`,
 * `dropOffAddress`, `cod`, `goodsInfo`, `specs`, `businessReference`. The create rules that apply
 * to what changes are checked first (cod limits, address rules, phone), unless `validate: false`.
 *
 * Pass the order you just read (from `getDelivery` or `listDeliveries`) instead of its tracking
 * number, and the SDK also checks its state (changes are allowed in 10, 11, 20, 21, 22, 24, 30, 41,
 * 47) and its type's cod rules before sending. Otherwise the service decides, and its refusal is
 * the error.
 *
 * @throws `OrderStateError` (nothing sent) for a read order past the states that allow changes;
 * the rule's coded class or a `ValidationError` for changes the create rules refuse.
 *
 * @example
 * ```ts
 * const order = await getDelivery(core, '70000012');
 * await updateDelivery(core, order, {
 *   dropOffAddress: { city: 'Giza', districtId: 'aiJudRHeOt', firstLine: '3 Mosaddak Street, 2nd floor' },
 * });
 * ```
 */
export function updateDelivery(
  core: DeliveryCore,
  trackingNumberOrOrder: DeliveryTarget,
  changes: DeliveryChanges,
  options?: RequestOptions,
): APIPromise<DeliveryChangeResult> {
  let target = '';
  const sent = callApi(core, options, () => {
    const id = targetId(trackingNumberOrOrder);
    const read = isRecord(trackingNumberOrOrder) ? trackingNumberOrOrder : undefined;
    const state = read === undefined || !isRecord(read['state']) ? undefined : read['state']['code'];
    if (typeof state === 'number' && !EDITABLE_STATES.includes(state)) {
      throw new OrderStateError({ trackingNumber: id, state, allowedStates: EDITABLE_STATES, operation: 'a change' });
    }
    const typeCode = read !== undefined && isRecord(read['type']) ? read['type']['code'] : undefined;
    target = id;
    return {
      input: changes,
      check: changesCheck(typeCode),
      endpoint: ({ json }) => ({ method: 'PUT', path: path`/deliveries/business/${id}`, json, transform: changeResult }),
    };
  });
  return new APIPromise(sent.withResponse().catch((error: unknown) => Promise.reject(stateRefusal(error, target, 'a change', EDITABLE_STATES))));
}

/**
 * The service's refusal of a change because of the order's state ("cannot be updated in state
 * 45"), as the `OrderStateError` the SDK throws when it can tell first; any other error as it is.
 * The wording is not in the spec (docs/assumptions.md): a 400, 409 or 422 whose text names the
 * state or says the order cannot be changed, cancelled or terminated.
 */
function stateRefusal(error: unknown, trackingNumber: string, operation: string, allowedStates: readonly number[]): unknown {
  if (!(error instanceof ApiError) || ![400, 409, 422].includes(error.status)) return error;
  const text = refusalText(error);
  const aboutState =
    /\bstate\b|\bcan(?:not|[’']t)\s+(?:be\s+)?(?:updat|chang|edit|terminat|cancel)|\bnot\s+(?:allowed|possible)\s+to\s+(?:updat|chang|edit|terminat|cancel)|\balready\s+(?:on\s+its\s+way|picked|delivered|terminated|cancel)/i;
  if (!aboutState.test(text)) return error;
  const state = Number(/\bstate\s*:?\s*(\d+)\b/i.exec(text)?.[1]);
  return new OrderStateError({ trackingNumber, state: Number.isInteger(state) ? state : undefined, allowedStates, operation, source: 'server', cause: error });
}

/** The same error class, its message naming the likely cause of a refusal to terminate. */
function explainRefusal(error: unknown): unknown {
  if (!(error instanceof AuthenticationError || error instanceof PermissionDeniedError)) return error;
  const Class = error instanceof AuthenticationError ? AuthenticationError : PermissionDeniedError;
  const hint = 'terminating an order needs an API key with full access; a key limited to creating orders (as plugins often use) is refused';
  return new Class(`${error.message} (${hint})`, sameAnswer(error));
}

/**
 * Cancels an order (`DELETE /deliveries/business/{id}/terminate`). The service allows it only
 * before the order is on its way (the official plugin offers it while the order is "Pickup
 * requested" or "Created"). Pass the tracking number or `_id`.
 *
 * @throws `AuthenticationError` (401) or `PermissionDeniedError` (403) whose message names the
 * likely cause: a key without full access.
 *
 * @example
 * ```ts
 * await terminateDelivery(core, '70000012');
 * ```
 */
export function terminateDelivery(core: DeliveryCore, trackingNumberOrId: string, options?: RequestOptions): APIPromise<DeliveryChangeResult> {
  let target = '';
  const sent = callApi(core, options, () => {
    target = targetId(trackingNumberOrId);
    return { method: 'DELETE', path: path`/deliveries/business/${target}/terminate`, transform: changeResult };
  });
  return new APIPromise(sent.withResponse().catch((error: unknown) => Promise.reject(stateRefusal(explainRefusal(error), target, 'terminating', []))));
}
