import type { WebhookOrderType } from './order-types.js';

/**
 * Every state code of the spec's States table, by name. Webhooks carry the code in `state`.
 *
 * @example
 * ```ts
 * if (event.state === DeliveryState.Delivered) markPaid(event.cod);
 * ```
 */
export const DeliveryState = {
  PickupRequested: 10,
  WaitingForRoute: 11,
  RouteAssigned: 20,
  PickedUpFromBusiness: 21,
  PickingUpFromConsignee: 22,
  PickedUpFromConsignee: 23,
  ReceivedAtWarehouse: 24,
  Fulfilled: 25,
  InTransitBetweenHubs: 30,
  PickingUp: 40,
  /** The spec's "Picked up": out for delivery (SEND, FXF_SEND) or out for return (CRP, RTO, EXCHANGE). */
  OutForDelivery: 41,
  Delivered: 45,
  ReturnedToBusiness: 46,
  Exception: 47,
  Terminated: 48,
  Canceled: 49,
  ReturnedToStock: 60,
  Lost: 100,
  Damaged: 101,
  Investigation: 102,
  AwaitingYourAction: 103,
  Archived: 104,
  OnHold: 105,
} as const;
export type DeliveryState = (typeof DeliveryState)[keyof typeof DeliveryState];

/** The state groups the dashboard shows. */
export type DashboardState =
  | 'New'
  | 'In progress'
  | 'Heading to customer'
  | 'Heading to you'
  | 'Picked up'
  | 'Fulfilled'
  | 'Successful'
  | 'Terminated'
  | 'Unsuccessful'
  | 'Returned'
  | 'Awaiting your action'
  | 'Archived';

/** One row of the spec's States table; see {@link STATES}. */
export interface StateInfo {
  /** The state code webhooks carry in `state`. */
  readonly code: DeliveryState;
  /** The spec's state name. */
  readonly name: string;
  /** The dashboard state; 41 differs by type, see {@link describeState}. */
  readonly dashboardState: DashboardState;
  /** Order types (webhook type strings) the state applies to. */
  readonly appliesTo: readonly WebhookOrderType[];
  /**
   * The order's outcome is settled: delivered, returned, terminated, lost or damaged. No state
   * that changes the outcome follows; only Archived (104) may still follow (after 45, 46 or 60),
   * and it is not final itself: it files the order away and settles nothing. See {@link isFinalState}.
   */
  readonly final: boolean;
}

const ALL: readonly WebhookOrderType[] = ['SEND', 'CASH_COLLECTION', 'EXCHANGE', 'CUSTOMER_RETURN_PICKUP', 'RTO', 'SIGN_AND_RETURN', 'FXF_SEND'];
const ALL_BUT_CASH = /* @__PURE__ */ ALL.filter((type) => type !== 'CASH_COLLECTION');

/** The states that settle an order's outcome (see {@link StateInfo.final}): a list of its own, so a check of finality does not carry the whole table. */
const FINAL_STATES: readonly number[] = [45, 46, 48, 60, 100, 101];

// Pure, so bundlers drop the table from apps that never read it.
/* @__NO_SIDE_EFFECTS__ */
function state(code: DeliveryState, name: string, dashboardState: DashboardState, appliesTo: readonly WebhookOrderType[]): StateInfo {
  return { code, name, dashboardState, appliesTo, final: FINAL_STATES.includes(code) };
}

/** The spec's States table, keyed by code. */
export const STATES: Readonly<Record<DeliveryState, StateInfo>> = {
  10: state(10, 'Pickup requested', 'New', ALL_BUT_CASH),
  11: state(11, 'Waiting for route', 'In progress', ['CASH_COLLECTION']),
  20: state(20, 'Route Assigned', 'In progress', ALL),
  22: state(22, 'Picking up from consignee', 'Heading to customer', ['CUSTOMER_RETURN_PICKUP', 'EXCHANGE']),
  40: state(40, 'Picking up', 'Heading to customer', ['CASH_COLLECTION']),
  21: state(21, 'Picked up from business', 'Picked up', ['SEND', 'EXCHANGE']),
  23: state(23, 'Picked up from consignee', 'Picked up', ['CUSTOMER_RETURN_PICKUP', 'EXCHANGE']),
  41: state(41, 'Picked up', 'Heading to customer', ['SEND', 'FXF_SEND', 'EXCHANGE', 'CUSTOMER_RETURN_PICKUP', 'RTO']),
  24: state(24, 'Received at warehouse', 'In progress', ALL_BUT_CASH),
  25: state(25, 'Fulfilled', 'Fulfilled', ['FXF_SEND']),
  30: state(30, 'In transit between Hubs', 'In progress', ALL_BUT_CASH),
  45: state(45, 'Delivered', 'Successful', ['SEND', 'FXF_SEND', 'CASH_COLLECTION']),
  46: state(46, 'Returned to business', 'Successful', ['EXCHANGE', 'CUSTOMER_RETURN_PICKUP', 'RTO']),
  47: state(47, 'Exception', 'In progress', ALL),
  49: state(49, 'Canceled', 'In progress', ALL),
  48: state(48, 'Terminated', 'Terminated', ALL),
  100: state(100, 'Lost', 'Unsuccessful', ALL),
  101: state(101, 'Damaged', 'Unsuccessful', ALL_BUT_CASH),
  60: state(60, 'Returned to stock', 'Returned', ['FXF_SEND']),
  102: state(102, 'Investigation', 'In progress', ALL),
  103: state(103, 'Awaiting your action', 'Awaiting your action', ['EXCHANGE', 'CUSTOMER_RETURN_PICKUP', 'RTO']),
  104: state(104, 'Archived', 'Archived', ALL_BUT_CASH),
  105: state(105, 'On hold', 'In progress', ALL_BUT_CASH),
};

let knownStates: ReadonlySet<unknown> | undefined;

/** Whether a number is a state code the SDK knows. Unknown codes still arrive: the service may add some. */
export function isKnownState(code: unknown): code is DeliveryState {
  // From the codes alone, not STATES: a webhook route that only parses events need not carry the names.
  knownStates ??= new Set(Object.values(DeliveryState));
  return knownStates.has(code);
}

/**
 * Whether the order's outcome is settled: Delivered (45), Returned to business (46), Terminated
 * (48), Returned to stock (60), Lost (100), Damaged (101). An order reaches at most one final
 * state, so "notify when final" fires once.
 *
 * What can still follow a final state: Archived (104), after Delivered, Returned to business or
 * Returned to stock. Archived is not final: it files away an order a final state already settled.
 * Canceled (49) is not final either: the spec's dashboard shows it "In progress", and what follows
 * it is not shown. Unknown codes are not final.
 *
 * @example
 * ```ts
 * if (isFinalState(event.state) && !isFinalState(previous ?? 0)) notifyCustomer(event);
 * ```
 */
export function isFinalState(code: number): boolean {
  return FINAL_STATES.includes(code);
}

/**
 * Whether a state may follow a final one: Archived (104), which files away an order that
 * Delivered, Returned to business or Returned to stock already settled. Of two events at the
 * same moment, such a state is the later.
 */
export function isAfterFinalState(code: number): boolean {
  return code === DeliveryState.Archived;
}

/** What {@link describeState} returns: a state code explained for one order type. */
export interface StateDescription {
  /** The code as given. */
  readonly code: number;
  /** False when the code is not in the SDK's catalogue (the service may add states). */
  readonly known: boolean;
  /** The spec's state name, or `Unknown state <code>`. */
  readonly name: string;
  /** The dashboard state for this order type; undefined for unknown codes. */
  readonly dashboardState: DashboardState | undefined;
  /** What the state means for this order type. */
  readonly meaning: string;
}

const RETURN_TYPES: ReadonlySet<string> = new Set(['CUSTOMER_RETURN_PICKUP', 'RTO', 'EXCHANGE']);

/**
 * The type-specific meaning of a state, as the spec words it.
 *
 * @example
 * ```ts
 * describeState(41, 'SEND').meaning;  // 'Out for delivery'
 * describeState(41, 'RTO').meaning;   // 'Out for return: the courier takes the order from the warehouse back to the business'
 * ```
 */
export function describeState(code: number, type?: string): StateDescription {
  if (!isKnownState(code)) {
    // Not `${code}` alone: a symbol or a revoked Proxy from a JavaScript caller would throw in the template.
    const name = `Unknown state ${typeof code === 'number' ? code : '?'}`;
    return { code, known: false, name, dashboardState: undefined, meaning: `${name}: not in the SDK's catalogue yet` };
  }
  const info = STATES[code];
  let meaning = info.name;
  let dashboardState = info.dashboardState;
  if (code === 41) {
    if (type !== undefined && RETURN_TYPES.has(type)) {
      meaning = 'Out for return: the courier takes the order from the warehouse back to the business';
      dashboardState = 'Heading to you';
    } else {
      meaning = 'Out for delivery';
    }
  } else if (code === 22) {
    meaning = type === 'EXCHANGE' ? 'Out for exchange' : 'Out for pickup from the customer';
  } else if (code === 40) {
    meaning = 'Collecting cash: the courier is out to collect money from the customer';
  }
  return { code, known: true, name: info.name, dashboardState, meaning };
}
