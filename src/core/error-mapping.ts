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
  formatPath,
  InvalidRequestError,
  isPickupErrorCode,
  NotFoundError,
  PermissionDeniedError,
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
import { parseRetryAfter } from './retry.js';

// Loaded on demand, by the first answer that is an error (call.ts): a page whose calls succeed
// never loads the error classes of every code and status.

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
export function errorFromResponse(response: Response, decoded: DecodedBody, request: RequestSummary, secrets: readonly string[]): DeliveryError {
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
