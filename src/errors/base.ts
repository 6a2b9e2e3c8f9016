/** The request an error belongs to. Never carries headers, so never the API key. */
export interface RequestSummary {
  /** e.g. `POST`. */
  readonly method: string;
  /** The full URL, query included. */
  readonly url: string;
}

/** One problem found in an input, with the path of the field it concerns. */
export interface ValidationIssue {
  /** Path of the field, e.g. `['dropOffAddress', 'firstLine']`; empty for the input itself. */
  readonly path: ReadonlyArray<string | number>;
  /** What is wrong, for people. */
  readonly message: string;
  /** The spec's errorCode for this rule, where the spec gives one. */
  readonly errorCode?: number;
}

/** Formats an issue path the way users write it: `deliveryImages[0].images[3]`. */
export function formatPath(path: ReadonlyArray<string | number>): string {
  let out = '';
  try {
    for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? String(part) : `.${String(part)}`;
  } catch {
    // Not a list of keys (a JavaScript caller's undefined, a revoked Proxy): no path to show.
    return '(input)';
  }
  return out === '' ? '(input)' : out;
}

/** @internal The issues of one invalid element of a list, with paths starting at its index (`[3].cod`). */
export function issuesAt(index: number, error: { readonly message: string; readonly issues?: readonly ValidationIssue[] }): ValidationIssue[] {
  const inner: readonly ValidationIssue[] = Array.isArray(error.issues) && error.issues.length > 0 ? error.issues : [{ path: [], message: error.message }];
  return inner.map((issue) => ({ ...issue, path: [index, ...issue.path] }));
}

/** What every SDK error can be built with. You need it only to construct errors yourself (e.g. in tests). */
export interface DeliveryErrorOptions {
  /** The spec's errorCode, when one applies. */
  errorCode?: number | undefined;
  /** The underlying error, kept as the standard `Error.cause`. */
  cause?: unknown;
  /** A note for developers (which option to set, where the rule comes from), kept out of `message`. */
  hint?: string | undefined;
}

/**
 * The base of every error the SDK throws. Catch this one to handle them all;
 * narrow with {@link isDeliveryError} or `instanceof` on a subclass.
 */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  /** The spec's errorCode when one applies (server answer or client-side rule). */
  readonly errorCode: number | undefined;
  /**
   * A note for developers, when the SDK has one: which option or argument to change. `message`
   * stays fit to show to customers (it names the problem and echoes at most a short excerpt of
   * their input); log `hint` next to it.
   */
  readonly hint: string | undefined;
  /**
   * Whether what the call asked for (an order created, a change made) may have happened at the
   * service although the call failed: true when the request may have reached it (a connection
   * lost after sending, a timeout, an abort while in flight, a 5xx, an answer that could not be
   * read), false when it certainly did not (refused before sending, connection refused, a 4xx).
   * Always false for reads. When true, look the order up before sending it again.
   */
  readonly mayExist: boolean = false;

  constructor(message: string, options: DeliveryErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.errorCode = options.errorCode;
    this.hint = options.hint;
  }

  /** A plain, key-free description, so `JSON.stringify(err)` is useful in logs. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (key !== 'name' && key !== 'message' && value !== undefined) out[key] = value;
    }
    return out;
  }
}

/** What an {@link ApiError} (and its status subclasses) is built with: the server's answer. */
export interface ApiErrorOptions extends DeliveryErrorOptions {
  /** HTTP status of the answer. */
  status: number;
  /** The parsed error body, or an excerpt of a non-JSON one. */
  body?: unknown;
  /** Response headers, lower-cased names. */
  headers?: Record<string, string>;
  /** Method and URL of the request. */
  request: RequestSummary;
  /** The fields the service named, from a body that lists them (`[{ message, path, type }]`). */
  issues?: readonly ValidationIssue[] | undefined;
}

/** The server answered with an error status. */
export class ApiError extends DeliveryError {
  override name = 'ApiError';
  /** HTTP status of the answer. */
  readonly status: number;
  /** The parsed error body (`{ success, message, errorCode, data }`), or a short excerpt of a non-JSON body. */
  readonly body: unknown;
  /** Response headers, lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Method and URL of the request. */
  readonly request: RequestSummary;
  /** The fields the service refused, with their paths, when its body listed them (`[{ message, path, type }]`); empty otherwise. */
  readonly issues: readonly ValidationIssue[];

  constructor(message: string, options: ApiErrorOptions) {
    super(message, options);
    this.status = options.status;
    this.body = options.body;
    this.headers = options.headers ?? {};
    this.request = options.request;
    this.issues = options.issues ?? [];
  }
}

/**
 * The service refused an order because its `uniqueBusinessReference` is already used by another
 * order, created earlier (yesterday's checkout, another instance). A create that was repeated by
 * the SDK itself after an unknown outcome never ends here: it resolves with the order its first
 * attempt created. `trackingNumber` is the existing order's, when the refusal names it.
 */
export class DuplicateOrderError extends ApiError {
  override name = 'DuplicateOrderError';
  /** The reference the service says is taken. */
  readonly uniqueBusinessReference: string | undefined;
  /** The tracking number of the order that holds the reference, when the refusal names it. */
  readonly trackingNumber: string | undefined;

  constructor(message: string, options: ApiErrorOptions & { uniqueBusinessReference?: string | undefined; trackingNumber?: string | undefined }) {
    super(message, options);
    this.uniqueBusinessReference = options.uniqueBusinessReference;
    this.trackingNumber = options.trackingNumber;
  }
}

/**
 * The service answered with a redirect (3xx), which the client never follows: the key and the
 * body must not leave `baseUrl`'s origin. Usually `baseUrl` is out of date; `location` says where
 * the service pointed. In browsers the redirect is opaque: `status` is 0 and `location` unknown.
 */
export class RedirectError extends ApiError {
  override name = 'RedirectError';
  /** The `Location` the service answered with, when it could be read. */
  readonly location: string | undefined;

  constructor(message: string, options: ApiErrorOptions & { location?: string | undefined }) {
    super(message, options);
    this.location = options.location;
  }
}

/** 401: the API key is missing or wrong. */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}

/**
 * errorCode 8000002 ("Active bundle subscription required"): the business's plan does not cover
 * the call, seen on order creation. Nothing was created; renew the plan in the dashboard.
 */
export class SubscriptionRequiredError extends ApiError {
  override name = 'SubscriptionRequiredError';
}

/**
 * The service refused to delete a pickup location that an upcoming pickup is linked to: cancel or
 * move that pickup (`pickups.update` with another `businessLocationId`) first. Nothing was deleted.
 */
export class PickupLocationInUseError extends ApiError {
  override name = 'PickupLocationInUseError';
}

/** 403: the key is valid but may not do this. */
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
}

/** 404: the path or the resource does not exist. */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}

/** 429: too many requests; `retryAfter` says how long the server asked to wait. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  /** Milliseconds the server asked to wait (from `Retry-After`), when it said. */
  readonly retryAfter: number | undefined;

  constructor(message: string, options: ApiErrorOptions & { retryAfter?: number | undefined }) {
    super(message, options);
    this.retryAfter = options.retryAfter;
  }
}

/** 5xx: the server failed. For a create, the order may or may not exist. */
export class ServerError extends ApiError {
  override name = 'ServerError';
}

/**
 * Input refused: by the SDK before sending (`source: 'client'`, nothing sent), or by the service,
 * naming the fields it refused (`source: 'server'`: an {@link InvalidRequestError}, nothing done).
 * `issues` lists every problem with its path, so one `catch` handles both.
 */
export class ValidationError extends DeliveryError {
  override name = 'ValidationError';
  /** The problems found, each with the path of its field (the first 100); `message` names the first ten. */
  readonly issues: readonly ValidationIssue[];
  /** How many more problems were found than `issues` lists (0 unless there were more than 100). */
  readonly unlistedIssues: number;
  /** `'client'`: the SDK refused the input and sent nothing; `'server'`: the service refused it. */
  readonly source: 'client' | 'server';

  constructor(
    issues: readonly ValidationIssue[],
    options: DeliveryErrorOptions & { subject?: string; unlistedIssues?: number; source?: 'client' | 'server' | undefined } = {},
  ) {
    super(describeIssues(options.subject ?? 'Invalid input', issues, options.unlistedIssues), options);
    this.issues = issues;
    this.unlistedIssues = options.unlistedIssues ?? 0;
    this.source = options.source ?? 'client';
  }
}

/**
 * The service refused fields of the request, and named them: its validator's list
 * (`[{ message, path, type }]`), errorCode 777 with the fields in `data`, or a refusal whose text
 * names its field (`receiver.phone must be a phone number`). A `ValidationError` with
 * `source: 'server'`, `issues` holding the fields with their paths, so the `catch` that handles
 * the SDK's own check handles the service's too; and the answer as an `ApiError` carries it
 * (`status`, `body`, `headers`, `request`; `errorCode` 777 when the service sent it). Nothing was done.
 */
export class InvalidRequestError extends ValidationError {
  override name = 'InvalidRequestError';
  /** HTTP status of the answer. */
  readonly status: number;
  /** The parsed error body, or a short excerpt of a non-JSON body. */
  readonly body: unknown;
  /** Response headers, lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Method and URL of the request. */
  readonly request: RequestSummary;

  constructor(message: string, options: ApiErrorOptions) {
    super(options.issues ?? [], { ...options, source: 'server' });
    this.message = message;
    this.status = options.status;
    this.body = options.body;
    this.headers = options.headers ?? {};
    this.request = options.request;
  }
}

/**
 * A message that names each field: `Invalid order: cod: must be at most 30000; receiver.phone: required`.
 * `unlisted` counts problems found beyond `issues`, for the "and N more".
 */
function describeIssues(subject: string, issues: readonly ValidationIssue[], unlisted = 0): string {
  return issues.length === 0 ? subject : `${subject}: ${issueSummary(issues, unlisted)}`;
}

/**
 * @internal The first ten issues, each as `line` writes it, and how many more (`unlisted` counts
 * those found beyond `issues`): `cod: required; receiver.phone: required; and 3 more`.
 */
export function issueSummary(
  issues: readonly ValidationIssue[],
  unlisted = 0,
  line: (issue: ValidationIssue) => string = (issue) => `${formatPath(issue.path)}: ${issue.message}`,
): string {
  const shown = issues.slice(0, 10).map(line);
  const hidden = issues.length - shown.length + unlisted;
  return `${shown.join('; ')}${hidden > 0 ? `; and ${hidden} more` : ''}`;
}

/** The SDK was set up wrongly (missing baseUrl, webhook header name without value, ...). */
export class ConfigurationError extends DeliveryError {
  override name = 'ConfigurationError';
}

/** The request never got an answer: DNS, refused or reset connection, or an unreadable body. */
export class ConnectionError extends DeliveryError {
  override name = 'ConnectionError';
  /** Method and URL of the request, when one was being made. */
  readonly request: RequestSummary | undefined;

  constructor(message: string, options: DeliveryErrorOptions & { request?: RequestSummary } = {}) {
    super(message, options);
    this.request = options.request;
  }
}

/** An attempt (`timeout`) or the whole call (`totalTimeout`) took too long. */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError';
}

/** The caller aborted the call through its `signal`. */
export class RequestAbortedError extends DeliveryError {
  override name = 'RequestAbortedError';
}

/**
 * The answer was larger than `maxResponseBytes`: the call stopped reading it. Not retried (the next
 * answer would be as large). For a create, the order may exist: look it up before sending again.
 */
export class ResponseTooLargeError extends DeliveryError {
  override name = 'ResponseTooLargeError';
  /** HTTP status of the answer. */
  readonly status: number;
  /** Method and URL of the request. */
  readonly request: RequestSummary;
  /** The limit the answer went past, in bytes. */
  readonly maxResponseBytes: number;

  constructor(message: string, options: DeliveryErrorOptions & { status: number; request: RequestSummary; maxResponseBytes: number }) {
    super(message, options);
    this.status = options.status;
    this.request = options.request;
    this.maxResponseBytes = options.maxResponseBytes;
  }
}

/**
 * A paged read that cannot end: the service answered a page with the orders of the page before
 * (it ignored `page`), or the read went past `maxPages`. What was read so far was yielded.
 */
export class PagingError extends DeliveryError {
  override name = 'PagingError';
  /** The page that was refused. */
  readonly page: number;

  constructor(message: string, options: DeliveryErrorOptions & { page: number }) {
    super(message, options);
    this.page = options.page;
  }
}

/**
 * A call made of several requests (`airwayBillFiles`, `customerHistory`) failed part-way: what
 * the requests before the failure gave is still a result, and `partial` carries it (the files
 * printed and the orders each covers; the orders counted so far). `cause` is the failure itself,
 * with its class and `mayExist`; `mayExist` here is the cause's.
 */
export class PartialResultError<T = unknown> extends DeliveryError {
  override name = 'PartialResultError';
  /** What the call had when it failed, in the shape its result has (with what was not done, where the call says). */
  declare readonly partial: T;
  declare readonly cause: DeliveryError;

  constructor(message: string, options: DeliveryErrorOptions & { partial: T; cause: DeliveryError }) {
    super(`${message}: ${options.cause.message}`, options);
    // Not enumerable: logging the error (toJSON, util.inspect) must not print PDFs or every order counted.
    Object.defineProperty(this, 'partial', { value: options.partial, enumerable: false });
    (this as { mayExist: boolean }).mayExist = options.cause.mayExist;
  }
}

/** A 2xx answer whose body is not what the endpoint should return (e.g. not JSON). */
export class ResponseShapeError extends DeliveryError {
  override name = 'ResponseShapeError';
  /** HTTP status of the answer (a 2xx, or an error answer the SDK could not read). */
  readonly status: number;
  /** Method and URL of the request. A create may have succeeded: look the order up before retrying. */
  readonly request: RequestSummary;

  constructor(message: string, options: DeliveryErrorOptions & { status: number; request: RequestSummary }) {
    super(message, options);
    this.status = options.status;
    this.request = options.request;
  }
}
