/**
 * `delivery-sdk/opentelemetry`: traces and metrics of every call, attempt, bulk chunk and webhook
 * over `@opentelemetry/api` (an optional peer dependency: install it beside the SDK). Pass
 * `openTelemetry()` as the `telemetry` option; docs/observability.md shows the set-up.
 *
 * @module delivery-sdk/opentelemetry
 */
export type {
  AttemptTelemetry,
  BulkTelemetry,
  CallTelemetry,
  DeliveryTelemetry,
  TelemetryCallOutcome,
  TelemetryFailedOrder,
  TelemetryOperation,
  WebhookTarget,
  WebhookTelemetry,
  WebhookVerdict,
} from '../core/telemetry.js';
export { type OpenTelemetryOptions, openTelemetry } from './open-telemetry.js';
