/**
 * A webhook handler's telemetry (its `telemetry` option): the span of each request and where it
 * arrived. Loaded by the handler's first request, so that a page whose handler has no telemetry
 * carries none of it.
 */
import type { DeliveryTelemetry, WebhookTarget, WebhookTelemetry } from '../core/telemetry.js';
import { scrubText } from '../internal/redaction.js';
import { guarded } from '../internal/telemetry-guard.js';
import type { ExpectedHeader } from './auth.js';

/** How the handler handles a request: `parsed` is a body a parser already read, `span` the request's telemetry. */
type Handle<P> = (request: Request, parsed: P, span: WebhookTelemetry | undefined) => Promise<Response>;

/** Where `request` arrived: its path scrubbed of the values of the handler's `auth` (as it checked them), and its `route`. */
function targetOf(request: Request, expected: readonly ExpectedHeader[], route: string | undefined): WebhookTarget {
  const url = new URL(request.url);
  const decoder = new TextDecoder();
  const secrets = expected.map((header) => decoder.decode(header.bytes));
  return { scheme: url.protocol.slice(0, -1), path: scrubText(url.pathname, secrets), route };
}

/**
 * Handles `request` by `handle` under a span of `telemetry`: what the telemetry throws, or rejects
 * with, is dropped, so it never changes the answer the service gets.
 */
export async function traced<P>(
  telemetry: DeliveryTelemetry,
  expected: readonly ExpectedHeader[],
  route: string | undefined,
  handle: Handle<P>,
  request: Request,
  parsed: P,
): Promise<Response> {
  const span = guarded(telemetry).webhook(request.method, request.headers, targetOf(request, expected, route));
  let status = 500;
  try {
    const response = await handle(request, parsed, span);
    status = response.status;
    return response;
  } finally {
    span?.end(status);
  }
}
