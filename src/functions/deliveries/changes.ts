/** Changing an order after its creation, and cancelling it. */
import { EDITABLE_STATES } from '../../catalogue/limits.js';
import { isFinalState } from '../../catalogue/states.js';
import { OrderStateError } from '../../errors/index.js';
import { asRecord, idString, isRecord } from '../../internal/guards.js';
import { requireId } from '../../internal/url.js';
import type { DeliveryChanges } from '../../schemas/after-create.js';
import { changesCheck } from '../../schemas/check.js';
import { endpoint } from '../endpoint.js';
import type { DeliveryRecord } from './records.js';

/** What `update` and `terminate` answer: the order's `_id`, and whatever else the service sends. */
export interface DeliveryChangeResult {
  _id?: string | undefined;
  [field: string]: unknown;
}

/** An order to change: its tracking number or `_id`, or the order as read (then its state is checked first). */
export type DeliveryTarget = string | (Pick<DeliveryRecord, 'trackingNumber' | 'state' | 'type'> & { _id?: string | undefined });

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

/** The state code of an order as read, when it was passed in. */
function stateOf(target: unknown): unknown {
  return isRecord(target) && isRecord(target['state']) ? target['state']['code'] : undefined;
}

/**
 * Changes an order (`PUT /deliveries/business/{id}`): any of `notes`, `receiver`,
 * `dropOffAddress`, `cod`, `goodsInfo`, `specs`, `businessReference`. The create rules that apply
 * to what changes are checked first (cod limits, address rules, phone), unless `validate: false`.
 *
 * Pass the order you just read (from `get` or `list`) instead of its tracking number, and the SDK
 * also checks its state (changes are allowed in 10, 11, 20, 21, 22, 24, 30, 41, 47) and its type's
 * cod rules before sending. Otherwise the service decides, and its refusal because of the state
 * is an `OrderStateError` too (`source: 'server'`).
 *
 * @chunk afterCreate
 *
 * @throws `OrderStateError` (nothing sent) for a read order past the states that allow changes;
 * the rule's coded class or a `ValidationError` for changes the create rules refuse.
 *
 * @example
 * ```ts
 * const order = await client.deliveries.get('70000012');
 * await client.deliveries.update(order, { receiver: { firstName: 'Mona', lastName: 'Adel', phone: '01011112222' } });
 * await client.deliveries.update('70000013', { notes: 'Call before arriving' });
 * ```
 */
export const updateDelivery = /* @__PURE__ */ endpoint<[trackingNumberOrOrder: DeliveryTarget, changes: DeliveryChanges], DeliveryChangeResult>({
  name: 'deliveries.update',
  method: 'PUT',
  route: '/deliveries/business/{id}',
  request: (trackingNumberOrOrder, changes) => {
    const id = targetId(trackingNumberOrOrder);
    const read = isRecord(trackingNumberOrOrder) ? trackingNumberOrOrder : undefined;
    const state = stateOf(trackingNumberOrOrder);
    if (typeof state === 'number' && !EDITABLE_STATES.includes(state)) {
      throw new OrderStateError({ trackingNumber: id, state, allowedStates: EDITABLE_STATES, operation: 'a change' });
    }
    const typeCode = read !== undefined && isRecord(read['type']) ? read['type']['code'] : undefined;
    return { params: { id }, body: changes, check: changesCheck(typeCode) };
  },
  answer: changeResult,
  refusal: 'orderChange',
});

/**
 * Cancels an order (`DELETE /deliveries/business/{id}/terminate`). The service allows it only
 * before the order is on its way (the official plugin offers it while the order is "Pickup
 * requested" or "Created"). Pass the tracking number or `_id`, or the order as read (from `get`
 * or `list`): then an order already finished (delivered, returned, terminated, lost) is refused
 * before anything is sent.
 *
 * @chunk afterCreate
 *
 * @throws `AuthenticationError` (401) or `PermissionDeniedError` (403) whose message names the
 * likely cause: a key without full access; `OrderStateError` (`source: 'server'`) when the service
 * refuses because of the order's state, and (`source: 'client'`, nothing sent) for an order read
 * in a final state.
 *
 * @example
 * ```ts
 * await client.deliveries.terminate('70000012');
 * const order = await client.deliveries.get('70000013');
 * await client.deliveries.terminate(order);
 * ```
 */
export const terminateDelivery = /* @__PURE__ */ endpoint<[trackingNumberOrOrder: DeliveryTarget], DeliveryChangeResult>({
  name: 'deliveries.terminate',
  method: 'DELETE',
  route: '/deliveries/business/{id}/terminate',
  request: (trackingNumberOrOrder) => {
    const id = targetId(trackingNumberOrOrder);
    const state = stateOf(trackingNumberOrOrder);
    if (typeof state === 'number' && isFinalState(state)) throw new OrderStateError({ trackingNumber: id, state, allowedStates: [], operation: 'terminating' });
    return { params: { id } };
  },
  answer: changeResult,
  refusal: 'orderTermination',
});
