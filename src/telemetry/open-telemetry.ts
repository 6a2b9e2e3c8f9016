import {
  type Attributes,
  type Context,
  type Counter,
  context,
  createNoopMeter,
  diag,
  type Histogram,
  isSpanContextValid,
  type MeterProvider,
  metrics,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { isKnownState } from '../catalogue/states.js';
import type {
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
import { ConfigurationError, type DeliveryError } from '../errors/base.js';
import { isTrackingNumber } from '../internal/guards.js';
import { SDK_VERSION } from '../internal/version.js';

/** Options of {@link openTelemetry}. */
export interface OpenTelemetryOptions {
  /** Where spans go. Default: the global one, which `NodeSDK.start()` (or `trace.setGlobalTracerProvider`) registers, even after this call. */
  readonly tracerProvider?: TracerProvider | undefined;
  /** Where metrics go. Default: the global one (`NodeSDK.start()`, `metrics.setGlobalMeterProvider`), read again when it changes. */
  readonly meterProvider?: MeterProvider | undefined;
  /**
   * Send the trace context with every attempt (`traceparent`, through the propagator the
   * application registered: W3C Trace Context in OpenTelemetry's usual set-ups). Default `true`;
   * `false` for a service that refuses headers it does not know.
   */
  readonly propagate?: boolean | undefined;
}

/** The request of each chunk of a bulk upload (functions/deliveries/bulk/request.ts). */
const BULK_ROUTE = '/deliveries/bulk?apiVersion=1';

/** The instrumentation scope of every span and metric, with the SDK's version. */
const SCOPE = 'delivery-sdk';

/**
 * The HTTP methods the conventions know; any other is recorded as `_OTHER`, with the method as
 * sent in `http.request.method_original`. A webhook arrives as POST and the handler answers 405 to
 * anything else, so no list of methods of one's own is taken.
 */
const KNOWN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'QUERY', 'TRACE']);

/** The HTTP semantic conventions' buckets for request durations, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

interface Instruments {
  readonly duration: Histogram;
  readonly created: Counter;
  readonly failed: Counter;
  readonly webhooks: Counter;
}

/** The class of a histogram that records nothing: no meter provider is registered. */
const NOOP_HISTOGRAM = createNoopMeter().createHistogram('noop').constructor;

/** The metric instruments, on `provider` or, without one, on the global provider of the moment (made again when it changes). */
function instrumentsOn(provider: MeterProvider | undefined): () => Instruments {
  let made: { readonly on: MeterProvider; readonly instruments: Instruments } | undefined;
  return () => {
    const on = provider ?? metrics.getMeterProvider();
    if (made?.on === on) return made.instruments;
    const meter = on.getMeter(SCOPE, SDK_VERSION);
    const instruments: Instruments = {
      duration: meter.createHistogram('http.client.request.duration', {
        description: 'Duration of HTTP client requests: each attempt of a call.',
        unit: 's',
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      }),
      created: meter.createCounter('delivery.orders.created', { description: 'Orders the service created.', unit: '{order}' }),
      failed: meter.createCounter('delivery.orders.failed', {
        description: 'Orders not created, or not surely (delivery.may_exist), by the error that stopped them.',
        unit: '{order}',
      }),
      webhooks: meter.createCounter('delivery.webhooks.received', { description: 'Webhook requests the handler answered.', unit: '{request}' }),
    };
    made = { on, instruments };
    return instruments;
  };
}

/** The class of an error (`CodLimitExceededError`), never its message: a message may quote an input. */
function errorType(error: unknown): string {
  if (error instanceof Error) return error.name || error.constructor.name || 'Error';
  return '_OTHER';
}

/**
 * Who refused what failed: `service` when the service answered the refusal (a status, a code of
 * its own), `client` when the SDK refused it before sending or no answer came (a timeout, a lost
 * connection, an abort: `delivery.may_exist` then says whether it may have happened).
 */
function errorSource(error: unknown): 'client' | 'service' {
  const { source, status } = error as { source?: unknown; status?: unknown };
  return source === 'server' || typeof status === 'number' ? 'service' : 'client';
}

/** The error attributes of a failed call: its class, the spec's code, and whether it may have happened all the same. */
function errorAttributes(error: unknown): Attributes {
  const code = (error as { errorCode?: unknown } | undefined)?.errorCode;
  return { 'error.type': errorType(error), ...(typeof code === 'number' ? { 'delivery.error_code': code } : {}) };
}

/** Reports a fault of the telemetry itself through OpenTelemetry's diagnostic logger: a call never fails for it. */
function fault(where: string, error: unknown): void {
  try {
    diag.error(`delivery-sdk telemetry: ${where} failed`, error);
  } catch {
    // nowhere left to report it
  }
}

/** Where a client sends its requests: `baseUrl`'s host, port and path. */
interface Server {
  readonly address: string;
  readonly port: number;
  /** The path of `baseUrl` (`/v2`), which precedes every route. */
  readonly basePath: string;
}

/** Each client's `baseUrl` read once (a few per process). */
const servers = new Map<string, Server>();

function serverOf(baseUrl: string): Server {
  let server = servers.get(baseUrl);
  if (server === undefined) {
    const url = new URL(baseUrl);
    server = {
      // An IPv6 host without its brackets, as server.address carries it.
      address: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port === '' ? (url.protocol === 'http:' ? 80 : 443) : Number(url.port),
      basePath: url.pathname.replace(/\/+$/, ''),
    };
    servers.set(baseUrl, server);
  }
  return server;
}

const headersGetter: TextMapGetter<Headers> = {
  keys: (headers) => [...headers.keys()],
  get: (headers, key) => headers.get(key) ?? undefined,
};

/** What every span and metric of one `openTelemetry()` shares. */
class Telemetry implements DeliveryTelemetry {
  readonly #tracer: Tracer;
  readonly instruments: () => Instruments;
  readonly propagate: boolean;

  constructor(tracer: Tracer, instruments: () => Instruments, propagate: boolean) {
    this.#tracer = tracer;
    this.instruments = instruments;
    this.propagate = propagate;
  }

  span(name: string, kind: SpanKind, attributes: Attributes, parent: Context): Span {
    return this.#tracer.startSpan(name, { kind, attributes }, parent);
  }

  call(operation: TelemetryOperation, baseUrl: string, trackingNumber: string | undefined): CallTelemetry | undefined {
    try {
      const order = isTrackingNumber(trackingNumber) ? { 'delivery.tracking_number': trackingNumber } : undefined;
      const call = new CallSpan(this, operation, serverOf(baseUrl), operation.name, context.active(), order);
      // No OpenTelemetry SDK registered (no trace to join, no metric recorded, no propagator): the call is left alone.
      if (!call.spanned && call.instruments.duration.constructor === NOOP_HISTOGRAM && (!this.propagate || propagation.fields().length === 0)) return undefined;
      return call;
    } catch (error) {
      fault('a call span', error);
      return UNTRACED_CALL;
    }
  }

  bulk(operation: string, baseUrl: string): BulkTelemetry {
    try {
      let chunks = bulkOperations.get(operation);
      if (chunks === undefined) bulkOperations.set(operation, (chunks = { name: operation, method: 'POST', route: BULK_ROUTE }));
      return new BulkSpan(this, chunks, serverOf(baseUrl));
    } catch (error) {
      fault('a bulk span', error);
      return UNTRACED_BULK;
    }
  }

  webhook(method: string, headers: Headers, target: WebhookTarget): WebhookTelemetry {
    try {
      return new WebhookSpan(this, method, headers, target);
    } catch (error) {
      fault('a webhook span', error);
      return UNTRACED_WEBHOOK;
    }
  }
}

/** The chunks' requests of each bulk operation (`deliveries.createBulk`, `deliveries.streamBulk`), one object each. */
const bulkOperations = new Map<string, TelemetryOperation>();

/** What every call of an operation to a server shares, made once: its request's attributes and its attempts' name. */
interface Shape {
  /** `delivery.operation`, `server.address` and `server.port`: of the call (an INTERNAL span, which carries no `http.*`). */
  readonly call: Attributes;
  /** The call's with `http.request.method` and `url.template`: of each attempt and each duration. */
  readonly request: Attributes;
  /** The HTTP client conventions' name of an attempt: `{method} {url.template}`, or the method alone. */
  readonly attemptName: string;
  /** `request` with each `http.response.status_code` answered so far: an attempt that succeeds allocates none. */
  readonly answered: Map<number, Attributes>;
}

const shapes = new WeakMap<TelemetryOperation, Map<Server, Shape>>();

function shapeOf(operation: TelemetryOperation, server: Server): Shape {
  let byServer = shapes.get(operation);
  if (byServer === undefined) shapes.set(operation, (byServer = new Map()));
  let shape = byServer.get(server);
  if (shape === undefined) {
    const { name, method, route } = operation;
    const call: Attributes = { 'delivery.operation': name, 'server.address': server.address, 'server.port': server.port };
    const request: Attributes = { ...call, 'http.request.method': method };
    // A path, as the conventions have it: the fixed query (`?apiVersion=1`) is in `url.full`.
    const template = route === undefined ? undefined : `${server.basePath}${route.split('?')[0]}`;
    if (template !== undefined) request['url.template'] = template;
    byServer.set(server, (shape = { call, request, attemptName: template === undefined ? method : `${method} ${template}`, answered: new Map() }));
  }
  return shape;
}

/** One call: an INTERNAL span named for its operation, its attempts CLIENT spans under it. A bulk chunk is one too, with its orders. */
class CallSpan implements CallTelemetry {
  readonly span: Span;
  readonly context: Context;
  /** The span has a trace to join (an SDK is registered): its attempts are spans too. Without one, they are timed alone. */
  readonly spanned: boolean;
  readonly shape: Shape;
  #instruments: Instruments | undefined;
  /** When the last attempt ended (`performance.now()`, 0 before one did), and its error. */
  #lastEnd = 0;
  #lastError: DeliveryError | undefined;
  /** The call's route named its order. */
  readonly #knowsOrder: boolean;
  #ended = false;

  constructor(
    readonly telemetry: Telemetry,
    readonly operation: TelemetryOperation,
    server: Server,
    name: string,
    parent: Context,
    more: Attributes | undefined,
  ) {
    this.shape = shapeOf(operation, server);
    this.#knowsOrder = more?.['delivery.tracking_number'] !== undefined;
    this.span = telemetry.span(name, SpanKind.INTERNAL, more === undefined ? this.shape.call : { ...this.shape.call, ...more }, parent);
    // No tracer provider registered: the span is a blank one, and its attempts would be too.
    this.spanned = isSpanContextValid(this.span.spanContext());
    this.context = this.spanned ? trace.setSpan(parent, this.span) : parent;
  }

  attempt(resendCount: number, url: string): AttemptTelemetry {
    try {
      // The wait before a retry: an event where it began, saying how long it lasted and what it followed.
      if (resendCount > 0 && this.#lastEnd > 0) {
        const attributes: Attributes = { 'delivery.retry.delay_ms': Math.round(performance.now() - this.#lastEnd) };
        if (this.#lastError !== undefined) attributes['error.type'] = errorType(this.#lastError);
        // A performance.now() time: the clock the SDK times spans with.
        this.span.addEvent('delivery.retry', attributes, this.#lastEnd);
      }
      return new AttemptSpan(this, resendCount, url);
    } catch (error) {
      fault('an attempt span', error);
      return UNTRACED_ATTEMPT;
    }
  }

  /** An attempt ended: a retry waits from now. */
  answered(error: DeliveryError | undefined): void {
    this.#lastEnd = performance.now();
    this.#lastError = error;
  }

  /** The metric instruments, looked up once per call. */
  get instruments(): Instruments {
    this.#instruments ??= this.telemetry.instruments();
    return this.#instruments;
  }

  end(outcome: TelemetryCallOutcome): void {
    if (this.#ended) return;
    this.#ended = true;
    try {
      this.#record(outcome);
    } catch (error) {
      fault('the end of a call span', error);
    } finally {
      this.span.end();
    }
  }

  #record({ result, orders, error = orders?.failed[0]?.error }: TelemetryCallOutcome): void {
    const { span, operation } = this;
    // A create learns its order's tracking number from the answer.
    const trackingNumber = (result as { trackingNumber?: unknown } | null | undefined)?.trackingNumber;
    if (!this.#knowsOrder && isTrackingNumber(trackingNumber)) span.setAttribute('delivery.tracking_number', trackingNumber);
    const failed = orders === undefined ? (error === undefined ? [] : [{ error, mayExist: error.mayExist }]) : orders.failed;
    if (orders !== undefined)
      span.setAttributes({ 'delivery.bulk.orders': orders.size, 'delivery.bulk.created': orders.created.length, 'delivery.bulk.failed': failed.length });
    if (error !== undefined) {
      span.setAttributes({ ...errorAttributes(error), 'delivery.may_exist': failed.some((order) => order.mayExist) });
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorType(error) });
    }
    if (orders !== undefined || operation.createsOrder === true) {
      countOrders(this.instruments, operation.name, orders?.created.length ?? (error === undefined ? 1 : 0), failed);
    }
  }
}

/** `delivery.orders.created` and `delivery.orders.failed` of an operation; the failed ones by error class, who refused them and `mayExist`. */
function countOrders(instruments: Instruments, operation: string, created: number, failed: readonly TelemetryFailedOrder[]): void {
  if (created > 0) instruments.created.add(created, { 'delivery.operation': operation });
  if (failed.length === 0) return;
  const byKind = new Map<string, { count: number; attributes: Attributes }>();
  for (const { error, mayExist } of failed) {
    const type = errorType(error);
    const source = errorSource(error);
    const key = `${type}|${source}|${mayExist}`;
    const kind = byKind.get(key);
    if (kind !== undefined) kind.count++;
    else
      byKind.set(key, {
        count: 1,
        attributes: { 'delivery.operation': operation, 'error.type': type, 'error.source': source, 'delivery.may_exist': mayExist },
      });
  }
  for (const { count, attributes } of byKind.values()) instruments.failed.add(count, attributes);
}

/** One attempt: a CLIENT span (`POST /v2/deliveries`), the trace context it sends, and its duration in `http.client.request.duration`. */
class AttemptSpan implements AttemptTelemetry {
  readonly #call: CallSpan;
  /** None when the call has no trace to join (no tracer provider registered). */
  readonly #span: Span | undefined;
  readonly #started = performance.now();

  constructor(call: CallSpan, resendCount: number, url: string) {
    this.#call = call;
    if (!call.spanned) return;
    const { request, attemptName } = call.shape;
    // The URL as sent, with the key and every secret the SDK knows scrubbed wherever they appear (the seam's promise).
    const attributes: Attributes = { ...request, 'url.full': url };
    if (resendCount > 0) attributes['http.request.resend_count'] = resendCount;
    this.#span = call.telemetry.span(attemptName, SpanKind.CLIENT, attributes, call.context);
  }

  headers(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    try {
      // No propagator registered (a no-op one names no field): nothing to send.
      if (!this.#call.telemetry.propagate || propagation.fields().length === 0) return headers;
      // The propagator the application registered writes its headers (`traceparent`); a no-op one, none.
      const carrier: Record<string, string> = {};
      const span = this.#span;
      propagation.inject(span === undefined ? this.#call.context : trace.setSpan(this.#call.context, span), carrier);
      return Object.keys(carrier).length === 0 ? headers : { ...headers, ...carrier };
    } catch (error) {
      fault('the trace context of an attempt', error);
      return headers;
    }
  }

  end(answered: number | undefined, error?: DeliveryError): void {
    const span = this.#span;
    try {
      const seconds = (performance.now() - this.#started) / 1000;
      const call = this.#call;
      const status = answered ?? (error as { status?: number } | undefined)?.status;
      call.answered(error);
      const { duration } = call.instruments;
      // Neither a span nor a histogram records anything: no OpenTelemetry SDK is registered.
      if (span === undefined && duration.constructor === NOOP_HISTOGRAM) return;
      const { request, answered: byStatus } = call.shape;
      let measured: Attributes;
      if (error === undefined && status !== undefined) {
        measured = byStatus.get(status) ?? { ...request, 'http.response.status_code': status };
        if (byStatus.size < 64) byStatus.set(status, measured);
        span?.setAttributes(measured);
      } else {
        measured = { ...request };
        if (status !== undefined) measured['http.response.status_code'] = status;
        if (error !== undefined) {
          measured['error.type'] = errorType(error);
          span?.setAttributes({ ...measured, ...errorAttributes(error) });
          span?.setStatus({ code: SpanStatusCode.ERROR, message: errorType(error) });
        } else span?.setAttributes(measured);
      }
      duration.record(seconds, measured);
    } catch (caught) {
      fault('the end of an attempt span', caught);
    } finally {
      span?.end();
    }
  }
}

/** A bulk upload: an INTERNAL span with a child per chunk, and the counts of all of them. */
class BulkSpan implements BulkTelemetry {
  readonly #span: Span;
  readonly #context: Context;
  readonly #operation: TelemetryOperation;
  readonly #server: Server;
  readonly #telemetry: Telemetry;
  #chunks = 0;
  #orders = 0;
  #created = 0;
  #failed = 0;
  #mayExist = false;
  #ended = false;

  constructor(telemetry: Telemetry, operation: TelemetryOperation, server: Server) {
    this.#telemetry = telemetry;
    this.#operation = operation;
    this.#server = server;
    const parent = context.active();
    const attributes: Attributes = { 'delivery.operation': operation.name, 'server.address': server.address, 'server.port': server.port };
    this.#span = telemetry.span(operation.name, SpanKind.INTERNAL, attributes, parent);
    this.#context = isSpanContextValid(this.#span.spanContext()) ? trace.setSpan(parent, this.#span) : parent;
  }

  chunk(start: number, size: number): CallTelemetry {
    try {
      this.#chunks++;
      const operation = this.#operation;
      const more = { 'delivery.bulk.start': start, 'delivery.bulk.orders': size };
      const chunk = new CallSpan(this.#telemetry, operation, this.#server, `${operation.name} chunk`, this.#context, more);
      return {
        attempt: (resendCount, url) => chunk.attempt(resendCount, url),
        end: (outcome) => {
          const { orders } = outcome;
          if (orders !== undefined) {
            this.#orders += orders.size;
            this.#created += orders.created.length;
            this.#failed += orders.failed.length;
            this.#mayExist ||= orders.failed.some((order) => order.mayExist);
          }
          chunk.end(outcome);
        },
      };
    } catch (error) {
      fault('a bulk chunk span', error);
      return UNTRACED_CALL;
    }
  }

  end(error: DeliveryError | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    const span = this.#span;
    try {
      span.setAttributes({
        'delivery.bulk.chunks': this.#chunks,
        'delivery.bulk.orders': this.#orders,
        'delivery.bulk.created': this.#created,
        'delivery.bulk.failed': this.#failed,
      });
      if (this.#failed > 0 || error !== undefined) span.setAttribute('delivery.may_exist', this.#mayExist);
      if (error !== undefined) span.setAttributes(errorAttributes(error));
      if (error !== undefined || this.#failed > 0)
        span.setStatus({ code: SpanStatusCode.ERROR, message: error === undefined ? `${this.#failed} orders not created` : errorType(error) });
    } catch (caught) {
      fault('the end of a bulk span', caught);
    } finally {
      span.end();
    }
  }
}

/** A webhook request: a SERVER span, and `delivery.webhooks.received` by state code, verdict and status. */
class WebhookSpan implements WebhookTelemetry {
  readonly #span: Span;
  readonly #telemetry: Telemetry;
  readonly #counted: Attributes = {};
  #ended = false;

  constructor(telemetry: Telemetry, method: string, headers: Headers, { scheme, path, route }: WebhookTarget) {
    this.#telemetry = telemetry;
    const active = context.active();
    // Under the server's own span when it has one (an HTTP instrumentation), else under the context the sender propagated.
    const parent = trace.getSpan(active) === undefined ? propagation.extract(active, headers, headersGetter) : active;
    const known = KNOWN_METHODS.has(method);
    const attributes: Attributes = { 'http.request.method': known ? method : '_OTHER', 'url.scheme': scheme, 'url.path': path };
    // The method as sent, when the conventions' list does not know it: cut short, it is anyone's to choose.
    if (!known) attributes['http.request.method_original'] = method.slice(0, 32);
    if (route !== undefined) attributes['http.route'] = route;
    // `{method} {http.route}`, as the HTTP server conventions name a span; the path is no route.
    const name = `${known ? method : 'HTTP'}${route === undefined ? '' : ` ${route}`}`;
    this.#span = telemetry.span(name, SpanKind.SERVER, attributes, parent);
  }

  event(event: { readonly state: number; readonly trackingNumber: string; readonly exceptionCode?: number | undefined }): void {
    try {
      const attributes: Attributes = { 'delivery.webhook.state': event.state };
      if (isTrackingNumber(event.trackingNumber)) attributes['delivery.tracking_number'] = event.trackingNumber;
      if (event.exceptionCode !== undefined) attributes['delivery.webhook.exception_code'] = event.exceptionCode;
      this.#span.setAttributes(attributes);
      // A state code the SDK does not know is left out of the metric: a stranger's codes must not make series without end.
      if (isKnownState(event.state)) this.#counted['delivery.webhook.state'] = event.state;
    } catch (error) {
      fault('a webhook event', error);
    }
  }

  verdict(verdict: WebhookVerdict): void {
    try {
      this.#span.setAttribute('delivery.webhook.verdict', verdict);
      this.#counted['delivery.webhook.verdict'] = verdict;
    } catch (error) {
      fault('a webhook verdict', error);
    }
  }

  error(error: unknown): void {
    try {
      this.#span.setAttribute('error.type', errorType(error));
    } catch (caught) {
      fault('a webhook error', caught);
    }
  }

  end(status: number): void {
    if (this.#ended) return;
    this.#ended = true;
    const span = this.#span;
    try {
      span.setAttribute('http.response.status_code', status);
      // A server's span fails on its own faults (5xx); a 4xx is the sender's, as the HTTP conventions have it.
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      this.#telemetry.instruments().webhooks.add(1, { ...this.#counted, 'http.response.status_code': status });
    } catch (error) {
      fault('the end of a webhook span', error);
    } finally {
      span.end();
    }
  }
}

const UNTRACED_ATTEMPT: AttemptTelemetry = { headers: (headers) => headers, end: () => undefined };
const UNTRACED_CALL: CallTelemetry = { attempt: () => UNTRACED_ATTEMPT, end: () => undefined };
const UNTRACED_BULK: BulkTelemetry = { chunk: () => UNTRACED_CALL, end: () => undefined };
const UNTRACED_WEBHOOK: WebhookTelemetry = { event: () => undefined, verdict: () => undefined, error: () => undefined, end: () => undefined };

/**
 * Traces and metrics over `@opentelemetry/api`, for the `telemetry` option of `DeliveryClient`,
 * `DeliveryCore`, `createWebhookHandler` and `createNodeWebhookHandler`:
 *
 * - a span per call (INTERNAL, named for the operation: `deliveries.create`), with a CLIENT span
 *   per attempt under it, as OpenTelemetry's HTTP client conventions have it (`POST
 *   /v2/deliveries`, `url.full`, `url.template`, `http.request.resend_count` on the retries, a
 *   `delivery.retry` event for each wait between them); the call span carries no `http.*`;
 * - a span per bulk upload with a child per chunk (its orders, created and failed);
 * - a SERVER span per webhook (`url.scheme`, `url.path`, `http.route` when the handler has
 *   `route`; state code, tracking number, the tracker's verdict);
 * - `traceparent` on every attempt (see `propagate`);
 * - the metrics `http.client.request.duration`, `delivery.orders.created`,
 *   `delivery.orders.failed` (by `error.source`: who refused) and `delivery.webhooks.received`;
 * - all under the instrumentation scope `delivery-sdk`, with the SDK's version.
 *
 * No attribute, event or metric carries the key, a secret header value, a body or a message: the
 * key and every secret are scrubbed from `url.full` and `url.path` wherever they appear, and
 * metrics carry routes with `{name}` in place of ids (`url.template`), never a URL. Spans and
 * metrics are made by the OpenTelemetry SDK the application registers; with none, next to nothing
 * is spent. See docs/observability.md, which tables every attribute.
 *
 * @throws `ConfigurationError` when an option is of the wrong type.
 *
 * @example
 * ```ts
 * import { DeliveryClient } from 'delivery-sdk';
 * import { openTelemetry } from 'delivery-sdk/opentelemetry';
 *
 * const client = new DeliveryClient({
 *   apiKey: process.env.DELIVERY_API_KEY,
 *   baseUrl: 'https://api.example.com/v2',
 *   telemetry: openTelemetry(), // the providers NodeSDK registers
 * });
 * ```
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): DeliveryTelemetry {
  let read: OpenTelemetryOptions;
  try {
    read = { ...options };
  } catch (cause) {
    throw new ConfigurationError('openTelemetry options could not be read.', { cause });
  }
  const { tracerProvider, meterProvider, propagate = true } = read;
  if (tracerProvider !== undefined && typeof tracerProvider?.getTracer !== 'function')
    throw new ConfigurationError('openTelemetry `tracerProvider`: expected a TracerProvider (with getTracer).');
  if (meterProvider !== undefined && typeof meterProvider?.getMeter !== 'function')
    throw new ConfigurationError('openTelemetry `meterProvider`: expected a MeterProvider (with getMeter).');
  if (typeof propagate !== 'boolean') throw new ConfigurationError(`openTelemetry \`propagate\`: expected true or false, received ${typeof propagate}.`);
  // The global provider is a proxy: spans reach the SDK registered after this call too.
  const tracer = (tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE, SDK_VERSION);
  return new Telemetry(tracer, instrumentsOn(meterProvider), propagate);
}
