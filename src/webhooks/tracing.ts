/**
 * A webhook handler's telemetry (its `telemetry` option): the span of each request. Loaded by the
 * handler's first request, so that a page whose handler has no telemetry carries none of it.
 */
import type { DeliveryTelemetry, WebhookTelemetry } from '../core/telemetry.js';
import { guarded } from '../internal/telemetry-guard.js';

/** How the handler handles a request: `parsed` is a body a parser already read, `span` the request's telemetry. */
type Handle<P> = (request: Request, parsed: P, span: WebhookTelemetry | undefined) => Promise<Response>;

/**
 * Handles `request` by `handle` under a span of `telemetry`: what the telemetry throws, or rejects
 * with, is dropped, so it never changes the answer the service gets.
 */
export async function traced<P>(telemetry: DeliveryTelemetry, handle: Handle<P>, request: Request, parsed: P): Promise<Response> {
  const span = guarded(telemetry).webhook(request.method, request.headers);
  let status = 500;
  try {
    const response = await handle(request, parsed, span);
    status = response.status;
    return response;
  } finally {
    span?.end(status);
  }
}
