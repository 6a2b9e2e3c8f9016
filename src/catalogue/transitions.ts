import type { WebhookOrderType } from './order-types.js';
import type { DeliveryState } from './states.js';

/** One row of the spec's "Transitions shown" table. */
export interface Transition {
  /** `'start'` for creation; otherwise the state left. */
  readonly from: DeliveryState | 'start';
  readonly trigger: string;
  readonly condition?: string;
  readonly to: DeliveryState;
  readonly also?: string;
}

/** The transitions the spec documents for fulfillment send orders, in event order. */
export const FULFILLMENT_TRANSITIONS: readonly Transition[] = [
  { from: 'start', trigger: 'order created', condition: 'fulfillment send order', to: 10 },
  { from: 10, trigger: 'progress', condition: 'fulfillment order', to: 25 },
  { from: 25, trigger: 'progress', to: 24 },
  { from: 24, trigger: 'progress', condition: 'first receipt', to: 30, also: 'skipped when pickup and drop-off addresses are close enough' },
  { from: 30, trigger: 'progress', to: 24, also: 'second receipt at warehouse' },
  { from: 24, trigger: 'courier takes order', to: 41 },
  { from: 41, trigger: 'delivery succeeds', condition: 'successful flow', to: 45 },
  { from: 41, trigger: 'delivery fails', condition: 'exception flows', to: 47, also: 'webhook carries exceptionReason and exceptionCode' },
  { from: 47, trigger: 'progress', to: 24 },
  { from: 24, trigger: 'courier takes order again', condition: 'exception-then-success flow', to: 41, also: 'then 41 to 45' },
  { from: 24, trigger: 'progress', condition: 'unsuccessful flow', to: 24, also: 'order type changes from FXF_SEND to RTO' },
  { from: 24, trigger: 'progress', condition: 'unsuccessful flow, type now RTO', to: 30, also: 'then 30 to 24' },
  { from: 24, trigger: 'progress', condition: 'unsuccessful flow, final', to: 60 },
];

/** @internal The automatic ends after repeated failures (spec, Events 6). */
export const FAILED_ATTEMPTS_LIMIT = 3;
/**
 * The transitions out of Exception (47) after three failed attempts:
 * to Terminated (48) for return pickups and cash collections, to Awaiting your action (103) for returns.
 */
export const FAILED_ATTEMPT_TRANSITIONS: readonly Transition[] = [
  {
    from: 47,
    trigger: '3 failed attempts to pick up a return order or collect money',
    condition: 'return pickup or cash collection',
    to: 48,
    also: 'automatic; a webhook is pushed',
  },
  { from: 47, trigger: '3 failed attempts to return the shipment to the business', condition: 'return in progress', to: 103, also: 'a webhook is pushed' },
];

/** One event of a documented flow: the state reached and the order's webhook type at that moment. */
export interface FlowStep {
  readonly state: DeliveryState;
  readonly type: WebhookOrderType;
}

const fulfillmentSend = (...states: DeliveryState[]): FlowStep[] => states.map((state) => ({ state, type: 'FXF_SEND' }));

/** The three fulfillment send flows of the spec, as the event sequences a webhook receiver sees. */
export const FULFILLMENT_FLOWS: Readonly<Record<'success' | 'exceptionThenSuccess' | 'unsuccessful', readonly FlowStep[]>> = {
  success: fulfillmentSend(10, 25, 24, 30, 24, 41, 45),
  exceptionThenSuccess: fulfillmentSend(10, 25, 24, 30, 24, 41, 47, 24, 41, 45),
  unsuccessful: [
    ...fulfillmentSend(10, 25, 24, 30, 24, 41, 47, 24),
    { state: 24, type: 'RTO' },
    { state: 30, type: 'RTO' },
    { state: 24, type: 'RTO' },
    { state: 60, type: 'RTO' },
  ],
};
