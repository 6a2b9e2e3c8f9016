/**
 * The seam between the SDK and a tracing or metrics back end: what the SDK tells about each call,
 * bulk upload and webhook while it happens. `openTelemetry()` (the `delivery-sdk/opentelemetry`
 * entry) implements it over `@opentelemetry/api`; nothing here imports it. Without a `telemetry`
 * option the SDK calls none of it and allocates nothing for it.
 *
 * What crosses the seam is chosen to be safe to record: operation names, routes with `{name}` in
 * place of ids, URLs and paths with the key and every secret scrubbed, the server's host and port,
 * statuses, error classes and codes, counts, tracking numbers and state codes. Never a key, a
 * header value, a body or a message (messages can quote an input: a name, a phone, an address).
 */
import type { DeliveryError } from '../errors/base.js';

/**
 * What is called: an operation's declaration (functions/endpoint.ts), or as much of one as
 * `client.request` and a bulk upload's chunks have.
 */
export interface TelemetryOperation {
  /** `'deliveries.create'`, `'lookup.cities'`; `'request'` for `client.request`. */
  readonly name: string;
  /** `GET`, `POST`, ... */
  readonly method: string;
  /** The route below `baseUrl` with `{name}` where an id goes (`/deliveries/business/{trackingNumber}`); none for `client.request`. */
  readonly route?: string | undefined;
  /** Each call that succeeds creates one order (`deliveries.create`): counted as orders created, or failed. */
  readonly createsOrder?: boolean | undefined;
}

/** What one order of a bulk chunk that was not created says. */
export interface TelemetryFailedOrder {
  readonly error: DeliveryError;
  readonly mayExist: boolean;
}

/** How a call ended. */
export interface TelemetryCallOutcome {
  /** What the call resolved with, when it did. */
  readonly result?: unknown;
  /** What it rejected with (its `mayExist` final), when it did. */
  readonly error?: DeliveryError | undefined;
  /** A bulk chunk's orders: how many it held, those created, and each one that was not (the chunk failed with the first one's error). */
  readonly orders?: { readonly size: number; readonly created: readonly unknown[]; readonly failed: readonly TelemetryFailedOrder[] } | undefined;
}

/** One attempt of a call, from sending to the last byte of the answer (or the error that ended it). */
export interface AttemptTelemetry {
  /** The headers this attempt sends: the call's `headers` as they are, or a copy with the trace context (`traceparent`). */
  headers(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>>;
  /** The attempt ended: answered with `status`, or in `error` (whose `status`, if any, is what was answered). */
  end(status: number | undefined, error?: DeliveryError): void;
}

/** One call as it happens. */
export interface CallTelemetry {
  /**
   * An attempt starts; `resendCount` is 0 for the first, 1 for the first retry (the wait since the
   * last attempt ended was the retry's delay). `url` is the request's absolute URL with the key
   * and every secret header value scrubbed wherever it appears (`[redacted]`), the path included.
   */
  attempt(resendCount: number, url: string): AttemptTelemetry;
  /** The call ended. Called once. */
  end(outcome: TelemetryCallOutcome): void;
}

/** One bulk upload as it happens: its chunks, each a call (`POST /deliveries/bulk`, or none when no order of it passed the check). */
export interface BulkTelemetry {
  /** A chunk starts: the input index of its first order, and how many orders it holds. Its `end` gives the orders. */
  chunk(start: number, size: number): CallTelemetry;
  /** The upload ended, with the error the operation throws, if any. Called once. */
  end(error: DeliveryError | undefined): void;
}

/** What the order tracker made of an event: a new state (`changed`), the same event again (`repeat`), or an event older than the order's latest (`older`). */
export type WebhookVerdict = 'changed' | 'repeat' | 'older';

/** Where a webhook request arrived. */
export interface WebhookTarget {
  /** The scheme of its URL, as the server saw it: `https`, `http`. */
  readonly scheme: string;
  /** Its path, the values of the handler's `auth` scrubbed wherever they appear (`[redacted]`). */
  readonly path: string;
  /** The route the server mounted the handler on, when the handler was told (its `route` option). */
  readonly route?: string | undefined;
}

/** One webhook request as the handler handles it. */
export interface WebhookTelemetry {
  /** The body was read into an event: its state code, the order's tracking number, and the exception code of an Exception (47). */
  event(event: { readonly state: number; readonly trackingNumber: string; readonly exceptionCode?: number | undefined }): void;
  /** A tracker's `track` took the event the handler passed to your callbacks. */
  verdict(verdict: WebhookVerdict): void;
  /** What refused the body (a `WebhookPayloadError`) or what your callback threw. */
  error(error: unknown): void;
  /** The handler answered `status`. Called once. */
  end(status: number): void;
}

/**
 * What the SDK tells a tracing or metrics back end: the `telemetry` option of `DeliveryClient`,
 * `DeliveryCore` and the webhook handlers. `openTelemetry()` from `delivery-sdk/opentelemetry`
 * makes one. A client calls these methods on the path of every call, a webhook handler on every
 * request; what one throws, or the promise it returns rejects with, is dropped, so a tracing back
 * end that fails never changes an outcome (an async method's result is not waited for). The time
 * they take is not counted against an attempt's `timeout`.
 */
export interface DeliveryTelemetry {
  /**
   * A call of `operation` to `baseUrl` starts; `trackingNumber` when its route names the order.
   * Undefined when nothing of the call would be recorded or sent: the SDK then tells nothing more of it.
   */
  call(operation: TelemetryOperation, baseUrl: string, trackingNumber: string | undefined): CallTelemetry | undefined;
  /** A bulk upload (`deliveries.createBulk`, `deliveries.streamBulk`) to `baseUrl` starts sending; each chunk is a `POST /deliveries/bulk?apiVersion=1`. */
  bulk(operation: string, baseUrl: string): BulkTelemetry;
  /** A webhook request arrives: its method as sent, its headers (for a trace context its sender propagated) and where it arrived. */
  webhook(method: string, headers: Headers, target: WebhookTarget): WebhookTelemetry;
}
