import { EDITABLE_STATES } from '../catalogue/limits.js';
import { issueSummary } from '../errors/base.js';
import { AccountErrorCode, accountErrorCodeMeaning, errorCodeFromWire, isKnownErrorCode } from '../errors/codes.js';
import {
  AddressNotServedError,
  ApiError,
  type ApiErrorOptions,
  AuthenticationError,
  createCodedError,
  type DeliveryError,
  DuplicateOrderError,
  ErrorCode,
  errorCodeMeaning,
  formatPath,
  InvalidRequestError,
  isPickupErrorCode,
  NotFoundError,
  OrderStateError,
  PermissionDeniedError,
  PickupLocationInUseError,
  pickupErrorCodeMeaning,
  RateLimitError,
  RedirectError,
  type RequestSummary,
  ServerError,
  SubscriptionRequiredError,
  type ValidationIssue,
} from '../errors/index.js';
import type { DecodedBody } from './body.js';
import { duplicateRefusalOf } from './duplicate-refusal.js';
import { isRecord } from './guards.js';
import { scrubHeaders, scrubText } from './redaction.js';
import type { Refusal } from './request.js';
import { parseRetryAfter } from './retry.js';

// The one module that turns what the service answered into an error class: a whole answer
// (errorFromResponse, redirectError), a refusal of one operation worded in the service's own way
// (the rules below), and one order of a bulk answer (bulkOrderError). Loaded on demand, by the
// first answer that is an error (error-mapping-loader.ts): a page whose calls succeed never loads
// the error classes of every code and status.

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

function readErrorCode(body: unknown): number | undefined {
  if (!isRecord(body)) return undefined;
  const code = errorCodeFromWire(body['errorCode']);
  return typeof code === 'number' && Number.isInteger(code) ? code : undefined;
}

/** A path as the service writes it, `receiver.phone`, `items[0].sku` or `['items', 0, 'sku']`, as segments. */
function pathSegments(raw: unknown): Array<string | number> {
  const parts = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[.[\]]+/).filter((part) => part !== '') : [];
  return parts.flatMap((part: unknown) => (typeof part === 'number' ? [part] : typeof part === 'string' ? [/^\d+$/.test(part) ? Number(part) : part] : []));
}

/**
 * The fields a refusal names, when the body is the service's validator output: an array of
 * `{ message, path, type }`, found as the body, as the `message` of an envelope, or as its `data`
 * (errorCode 777; entries also read as `{ field, message }` or plain text). Empty for any other body.
 */
function issuesOfBody(body: unknown): ValidationIssue[] {
  const issueOf = (entry: unknown): ValidationIssue[] =>
    isRecord(entry) && typeof entry['message'] === 'string'
      ? [{ path: pathSegments(entry['path'] ?? entry['field'] ?? entry['key']), message: entry['message'] }]
      : [];
  if (Array.isArray(body)) return body.flatMap(issueOf);
  if (!isRecord(body)) return [];
  const listed = Array.isArray(body['message']) ? body['message'].flatMap(issueOf) : [];
  // 777's `data` list: records as above, or the messages alone.
  const data = Array.isArray(body['data'])
    ? body['data'].flatMap((entry: unknown) => (typeof entry === 'string' && entry !== '' ? [{ path: [], message: entry }] : issueOf(entry)))
    : [];
  return [...listed, ...data];
}

/**
 * The service's refusal of an address it does not serve ("does not deliver to Dokki", "area not
 * covered"): an `AddressNotServedError` like the one `resolveAddress` throws, with the service's
 * `ApiError` as its cause. The wording is not in the spec (docs/assumptions.md): any 400 text that
 * names a place and says it is not served; "pick up" in it means pickup availability.
 */
function unservedRefusal(text: string | undefined, issues: readonly ValidationIssue[], cause: ApiError): AddressNotServedError | undefined {
  if (text === undefined || cause.status !== 400) return undefined;
  const unserved =
    /\b(?:not|no longer)\s+(?:served|covered)\b|\bdoes(?:n[’']t| not)\s+(?:deliver|pick\s*up|serve|cover)\b|\b(?:drop\s*off|pickup)Availability\b|\bno\s+coverage\b|\bout\s+of\s+(?:coverage|service)\b/i;
  if (!/\b(?:city|zone|district|area|address)\b|deliver|pick\s*up/i.test(text) || !unserved.test(text)) return undefined;
  const availability = /pick\s*-?\s*up/i.test(text) ? 'pickupAvailability' : 'dropOffAvailability';
  const found = issues.length > 0 ? issues : [{ path: [availability === 'pickupAvailability' ? 'pickupAddress' : 'dropOffAddress'], message: text }];
  return new AddressNotServedError(found, { subject: 'Address not served', availability, source: 'server', cause });
}

/** The issues as one line for `err.message`: the first ten messages, and how many more. */
function issuesText(issues: readonly ValidationIssue[]): string | undefined {
  if (issues.length === 0) return undefined;
  // Validator messages usually name their field ('"receiver.phone" must be a string'); the others get its path.
  return issueSummary(issues, 0, ({ path, message }) =>
    path.length === 0 || message.includes(String(path[path.length - 1])) ? message : `${formatPath(path)}: ${message}`,
  );
}

/**
 * The error for a redirect (3xx, or the opaque answer a browser gives for one), which the client
 * never follows: the key and the body stay with `baseUrl`'s origin.
 */
export function redirectError(response: Response, request: RequestSummary, secrets: readonly string[]): RedirectError {
  const headers = scrubHeaders(response.headers, secrets);
  const location = headers['location'];
  const status = response.type === 'opaqueredirect' ? 'a redirect' : `HTTP ${response.status}`;
  const where = location === undefined ? '' : ` to ${location}`;
  return new RedirectError(
    `${request.method} ${request.url} answered ${status}${where}, which is not followed: the API key and the body stay with baseUrl's origin. Check \`baseUrl\``,
    {
      status: response.status,
      headers,
      request,
      location,
    },
  );
}

/**
 * The error for an error answer: the class of its spec errorCode whatever the status,
 * otherwise the class of the status, carrying any unknown code. `decoded` is already scrubbed
 * (see scrubParsed); the headers and status text are scrubbed here.
 */
export function errorFromResponse(
  response: Response,
  decoded: DecodedBody,
  request: RequestSummary,
  secrets: readonly string[],
  refusal?: Refusal | undefined,
): DeliveryError {
  const error = errorOfStatus(response, decoded, request, secrets);
  const read = refusal === undefined ? error : REFUSALS[refusal.rule](error, refusal.subject);
  return fieldRefusal(read);
}

/**
 * A refusal that names the fields it refused, as the `ValidationError` the SDK throws for its own
 * check (`InvalidRequestError`, `source: 'server'`): a plain `ApiError` (no class of its status or
 * code, no code or 777) of a 4xx whose body listed the fields, or whose text names one. Any other
 * error as it is.
 */
function fieldRefusal(error: DeliveryError): DeliveryError {
  if (error.constructor !== ApiError) return error;
  const refused = error as ApiError;
  if (refused.status < 400 || refused.status >= 500 || (refused.errorCode !== undefined && refused.errorCode !== AccountErrorCode.InvalidRequest)) return error;
  const issues = refused.issues.length > 0 ? refused.issues : issuesOfMessage(refusalText(refused));
  if (issues.length === 0) return error;
  const { status, body, headers, request, errorCode } = refused;
  return new InvalidRequestError(refused.message, { status, body, headers, request, errorCode, issues });
}

// A refusal whose text starts with the field it refuses, as validators word them: `receiver.phone
// must be ...`, `"dropOffAddress.city" is required`, `[0] receiver.phone is required`, `cod must be
// a number`. The field is written as code writes it (lower-case first letter, dots and [n]), so
// a sentence (`Delivery 7000 cannot ...`, `Invalid token`) is not taken for one.
const FIELD_REFUSAL = /^\s*(?:\[(\d+)\]\s*)?"?([a-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[\d+\])*)"?\s+(?:must|is|are|should|needs?|has|have|cannot|can't|may)\b/;

/** The field a refusal's text names, as an issue with its path; none when the text names none. */
function issuesOfMessage(text: string): ValidationIssue[] {
  const found = FIELD_REFUSAL.exec(text);
  if (found === null) return [];
  const [, index, field = ''] = found;
  return [{ path: [...(index === undefined ? [] : [Number(index)]), ...pathSegments(field)], message: text.trim() }];
}

function errorOfStatus(response: Response, decoded: DecodedBody, request: RequestSummary, secrets: readonly string[]): DeliveryError {
  const { status } = response;
  const headers = scrubHeaders(response.headers, secrets);
  const body = decoded.json ? decoded.value : excerpt(decoded.text);
  const errorCode = readErrorCode(body);
  const issues = issuesOfBody(body);
  const serverMessage = (isRecord(body) && typeof body['message'] === 'string' && body['message'] !== '' ? body['message'] : undefined) ?? issuesText(issues);

  if (isKnownErrorCode(errorCode)) {
    return createCodedError(errorCode, { source: 'server', status, body, headers, request, message: serverMessage });
  }
  const account = Object.values(AccountErrorCode).find((code) => code === errorCode);

  const statusText = response.statusText === '' ? '' : ` ${scrubText(response.statusText, secrets)}`;
  const detail = serverMessage ?? (decoded.json ? undefined : body === '' ? 'empty body' : String(body));
  // A pickup code is known from one integration only: its meaning is added, the class stays ApiError.
  const meaning = isPickupErrorCode(errorCode)
    ? ` (errorCode ${errorCode}: ${pickupErrorCodeMeaning[errorCode]})`
    : account === undefined
      ? undefined
      : ` (errorCode ${account}: ${accountErrorCodeMeaning[account]})`;
  const message = `${request.method} ${request.url} failed with HTTP ${status}${statusText}${detail === undefined ? '' : `: ${detail}`}${
    meaning ?? (errorCode === undefined ? '' : ` (errorCode ${errorCode})`)
  }`;
  const options: ApiErrorOptions = { status, body, headers, request, errorCode, issues };
  const duplicate = status < 500 ? duplicateRefusalOf(serverMessage, isRecord(body) ? body['data'] : undefined) : undefined;
  if (duplicate !== undefined) return new DuplicateOrderError(message, { ...options, ...duplicate });
  if (account === AccountErrorCode.SubscriptionRequired)
    return new SubscriptionRequiredError(`${message}; renew the business's plan in the dashboard`, options);
  // 777: the service's validation error, a field refusal even when it names no field.
  if (account === AccountErrorCode.InvalidRequest) return new InvalidRequestError(message, options);
  if (status === 401 || account === AccountErrorCode.InvalidApiKey)
    return new AuthenticationError(`${message}; check the client's \`apiKey\` (or DELIVERY_API_KEY)`, options);
  if (status === 403) return new PermissionDeniedError(message, options);
  if (status === 404) return new NotFoundError(`${message}; check \`baseUrl\` (the API's root) and the ids in the path`, options);
  if (status === 429) return new RateLimitError(message, { ...options, retryAfter: parseRetryAfter(response.headers.get('retry-after')) });
  if (status >= 500) return new ServerError(message, options);
  const refused = new ApiError(message, options);
  return unservedRefusal(serverMessage, issues, refused) ?? refused;
}

/** What the service said in a refusal: its envelope's `message`, or the body when it is text; '' otherwise. */
function refusalText(error: ApiError): string {
  const { body } = error;
  return isRecord(body) && typeof body['message'] === 'string' ? body['message'] : typeof body === 'string' ? body : '';
}

/** The answer `error` carries, to raise it as another class: the same status, body and headers, `error` as the cause. */
function sameAnswer(error: ApiError): ApiErrorOptions {
  const { status, body, headers, request, errorCode, issues } = error;
  return { status, body, headers, request, errorCode, issues, cause: error };
}

/**
 * The service's refusal of a change because of the order's state ("cannot be updated in state
 * 45"), as the `OrderStateError` the SDK throws when it can tell first; any other error as it is.
 * The wording is not in the spec (docs/assumptions.md): a 400, 409 or 422 whose text names the
 * state or says the order cannot be changed, cancelled or terminated.
 */
function stateRefusal(error: DeliveryError, trackingNumber: string, operation: string, allowedStates: readonly number[]): DeliveryError {
  if (!(error instanceof ApiError) || ![400, 409, 422].includes(error.status)) return error;
  const text = refusalText(error);
  const aboutState =
    /\bstate\b|\bcan(?:not|[’']t)\s+(?:be\s+)?(?:updat|chang|edit|terminat|cancel)|\bnot\s+(?:allowed|possible)\s+to\s+(?:updat|chang|edit|terminat|cancel)|\balready\s+(?:on\s+its\s+way|picked|delivered|terminated|cancel)/i;
  if (!aboutState.test(text)) return error;
  const state = Number(/\bstate\s*:?\s*(\d+)\b/i.exec(text)?.[1]);
  return new OrderStateError({ trackingNumber, state: Number.isInteger(state) ? state : undefined, allowedStates, operation, source: 'server', cause: error });
}

/** A refused termination: the same class, its message naming the likely cause of a 401 or 403; a refusal for the order's state as for a change. */
function terminationRefusal(error: DeliveryError, trackingNumber: string): DeliveryError {
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) {
    const Class = error instanceof AuthenticationError ? AuthenticationError : PermissionDeniedError;
    const hint = 'terminating an order needs an API key with full access; a key limited to creating orders (as plugins often use) is refused';
    return new Class(`${error.message} (${hint})`, sameAnswer(error));
  }
  return stateRefusal(error, trackingNumber, 'terminating', []);
}

/**
 * The refusal to delete a location an upcoming pickup uses, as its own class. The wording is not
 * in the spec (docs/assumptions.md): a 4xx naming a pickup that the location is linked to.
 */
function locationInUse(error: DeliveryError): DeliveryError {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500 || error.status === 404) return error;
  const text = refusalText(error);
  if (!/pickup/i.test(text) || !/\b(?:linked|upcoming|scheduled|assigned|in use|used by)\b/i.test(text)) return error;
  return new PickupLocationInUseError(error.message, sameAnswer(error));
}

/** How each operation's own refusals are read (an endpoint's `refusal`), given the id it was about. */
const REFUSALS: Readonly<Record<Refusal['rule'], (error: DeliveryError, subject: string) => DeliveryError>> = {
  orderChange: (error, trackingNumber) => stateRefusal(error, trackingNumber, 'a change', EDITABLE_STATES),
  orderTermination: terminationRefusal,
  locationInUse,
};

// The spec's messages a per-order failure may carry without its code (the service answers bulk
// failures as `{ businessReference, errorMessage }`). Not 1061 or 1073: those concern the upload.
const MESSAGE_CODES = [2150, 2151, 2152, 3001, 3002, 3003, 3004, 3005, 3006, 3007, 3008, 3009] as const satisfies readonly ErrorCode[];

/** The spec code whose own message `text` is, alone or followed by details (`District Not Found: 12`). */
function codeOfMessage(text: string): ErrorCode | undefined {
  const said = text.trim().toLowerCase();
  return MESSAGE_CODES.find((code) => {
    const meaning = errorCodeMeaning[code].toLowerCase();
    return said.startsWith(meaning) && !/[\p{L}\p{N}]/u.test(said.charAt(meaning.length));
  });
}

/**
 * The error of one failed order of a bulk answer: its own code's class when the entry names a
 * known one; the code the entry's message is the spec's text of (`inferredFrom: 'message'`); else
 * the code of the whole answer (a non-2xx one, `whole`, also the `cause`).
 */
export function bulkOrderError(
  entry: Record<string, unknown>,
  context: { status: number; request: RequestSummary; error?: DeliveryError | undefined },
): DeliveryError {
  const own = errorCodeFromWire(entry['errorCode']);
  const options = { status: context.status, body: entry, request: context.request, cause: context.error };
  const reason = entry['errorMessage'] ?? entry['message'] ?? 'rejected by the service';
  const message = typeof reason === 'string' ? reason : JSON.stringify(reason);
  if (isKnownErrorCode(own)) return createCodedError(own, { source: 'server', message, ...options });
  const inferred = typeof own === 'number' ? undefined : codeOfMessage(message);
  if (inferred !== undefined) return createCodedError(inferred, { source: 'server', message, inferredFrom: 'message', ...options });
  const whole = context.error?.errorCode;
  const code = typeof own === 'number' ? own : whole === ErrorCode.BulkCreationFailed ? undefined : whole;
  if (isKnownErrorCode(code)) return createCodedError(code, { source: 'server', message, ...options });
  // A failure whose text names the order's field it refused, as a single create's refusal reads.
  const issues = code === undefined || code === AccountErrorCode.InvalidRequest ? issuesOfMessage(message) : [];
  if (issues.length > 0) return new InvalidRequestError(message, { ...options, errorCode: code, issues });
  return new ApiError(message, { ...options, errorCode: code });
}
