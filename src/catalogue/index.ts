export {
  describeException,
  type ExceptionCode,
  type ExceptionDescription,
  type ExceptionDirection,
  ExceptionReason,
  type ForwardExceptionCode,
  ForwardExceptionReason,
  type ReturnExceptionCode,
  ReturnExceptionReason,
} from './exceptions.js';
export { DeliveryType, FulfillmentType, WebhookOrderType, webhookTypeOf } from './order-types.js';
export {
  type DashboardState,
  DeliveryState,
  describeState,
  isAfterFinalState,
  isFinalState,
  isKnownState,
  STATES,
  type StateDescription,
  type StateInfo,
} from './states.js';
export { FAILED_ATTEMPT_TRANSITIONS, type FlowStep, FULFILLMENT_FLOWS, FULFILLMENT_TRANSITIONS, type Transition } from './transitions.js';
