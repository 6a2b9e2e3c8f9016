/**
 * `delivery-sdk/webhooks`: typed state-change events, the state and exception catalogues, a
 * Fetch-API handler with header authentication, and an order tracker. Runs in browsers, edge
 * workers, Deno, Bun and Node (no Node built-ins); the Node `(req, res)` adapter is
 * `delivery-sdk/webhooks/node`.
 *
 * @module delivery-sdk/webhooks
 */

export type {
  DashboardState,
  ExceptionCode,
  ExceptionDescription,
  ExceptionDirection,
  FlowStep,
  ForwardExceptionCode,
  ReturnExceptionCode,
  StateDescription,
  StateInfo,
  Transition,
} from '../catalogue/index.js';
export {
  DeliveryState,
  describeException,
  describeState,
  ExceptionReason,
  FAILED_ATTEMPT_TRANSITIONS,
  ForwardExceptionReason,
  FULFILLMENT_FLOWS,
  FULFILLMENT_TRANSITIONS,
  isAfterFinalState,
  isFinalState,
  isKnownState,
  ReturnExceptionReason,
  STATES,
  WebhookOrderType,
} from '../catalogue/index.js';
export { ConfigurationError, DeliveryError } from '../errors/base.js';
export { verifyWebhookHeaders, type WebhookAuth, type WebhookHeaders } from './auth.js';
export { TrackerStoreError, WebhookPayloadError } from './errors.js';
export type {
  DeliveredEvent,
  ExceptionEvent,
  PlainState,
  StateChangeEvent,
  UnknownStateCode,
  UnknownStateEvent,
  WebhookEvent,
  WebhookEventBase,
  WebhookEventFor,
  WebhookIssue,
} from './event.js';
export {
  createWebhookHandler,
  DEFAULT_MAX_WEBHOOK_BODY_BYTES,
  DEFAULT_WEBHOOK_BODY_TIMEOUT_MS,
  type WebhookHandlerOptions,
  type WebhookStateHandlers,
} from './handler.js';
export { parseWebhookEvent } from './parse.js';
export {
  type AsyncOrderTracker,
  createOrderTracker,
  type OrderTracker,
  type OrderTrackerOptions,
  type OrderTrackerStore,
  type StoredEvent,
  type TrackResult,
} from './tracker.js';
