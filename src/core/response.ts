import {
  ApiError,
  type ApiErrorOptions,
  AuthenticationError,
  createCodedError,
  formatPath,
  type DeliveryError,
  isKnownErrorCode,
  isPickupErrorCode,
  NotFoundError,
  PermissionDeniedError,
  pickupErrorCodeMeaning,
  RateLimitError,
  RedirectError,
  type RequestSummary,
  ServerError,
  type ValidationIssue,
} from '../errors/index.js';
import { isRecord } from '../schemas/predicates.js';
import { scrubDeep, scrubHeaders, scrubText } from './secrets.js';

/**
 * The body's text, or `undefined` when it is longer than `maxBytes`: then the rest is not read
 * (the stream is cancelled), and a `Content-Length` above the limit stops it before the first byte.
 */
export async function readTextWithin(response: Response, maxBytes: number): Promise<string | undefined> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const body = response.body;
  if (declared > maxBytes) {
    body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (body === null) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let received = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    received += value.byteLength;
    if (received > maxBytes) {
      reader.cancel().catch(() => undefined);
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** What a body turned out to be: parsed JSON, or the raw text when it is not JSON. */
export type DecodedBody = { json: true; value: unknown } | { json: false; text: string };

export function decodeBody(text: string): DecodedBody {
  if (text === '') return { json: true, value: undefined };
  try {
    return { json: true, value: JSON.parse(text) as unknown };
  } catch {
    return { json: false, text };
  }
}

/**
 * The live service wraps answers as `{ success, message, data }` (`success` has been seen as the
 * string "true"). Returns `data` for such an envelope, the body itself otherwise.
 */
export function unwrapEnvelope(body: unknown): unknown {
  if (isRecord(body) && (body['success'] === true || body['success'] === 'true') && 'data' in body) return body['data'];
  return body;
}

/** Whether a 2xx body is nonetheless the spec's error shape. */
export function isErrorEnvelope(body: unknown): body is Record<string, unknown> {
  return isRecord(body) && (body['success'] === false || body['success'] === 'false');
}

/** `Retry-After` in milliseconds, from delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

function readErrorCode(body: unknown): number | undefined {
  if (!isRecord(body)) return undefined;
  const raw = body['errorCode'];
  const code = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  return typeof code === 'number' && Number.isInteger(code) ? code : undefined;
}

/** A path as the service writes it, `receiver.phone`, `items[0].sku` or `['items', 0, 'sku']`, as segments. */
function pathSegments(raw: unknown): Array<string | number> {
  const parts = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[.[\]]+/).filter((part) => part !== '') : [];
  return parts.flatMap((part: unknown) => (typeof part === 'number' ? [part] : typeof part === 'string' ? [/^\d+$/.test(part) ? Number(part) : part] : []));
}

/**
 * The fields a refusal names, when the body is the service's validator output: an array of
 * `{ message, path, type }` (also found as the `message` of an envelope). Empty for any other body.
 */
export function issuesOfBody(body: unknown): ValidationIssue[] {
  const list = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body['message']) ? body['message'] : [];
  return list.flatMap((entry: unknown) => (isRecord(entry) && typeof entry['message'] === 'string' ? [{ path: pathSegments(entry['path']), message: entry['message'] }] : []));
}

/** The issues as one line for `err.message`: the first ten messages, and how many more. */
function issuesText(issues: readonly ValidationIssue[]): string | undefined {
  if (issues.length === 0) return undefined;
  // Validator messages usually name their field ('"receiver.phone" must be a string'); the others get its path.
  const shown = issues.slice(0, 10).map(({ path, message }) => (path.length === 0 || message.includes(String(path[path.length - 1])) ? message : `${formatPath(path)}: ${message}`));
  return `${shown.join('; ')}${issues.length > shown.length ? `; and ${issues.length - shown.length} more` : ''}`;
}

/** A redirect: a 3xx, or what a browser answers for one under `redirect: 'manual'` (type `opaqueredirect`, status 0). */
export function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/**
 * The error for a redirect (3xx, or the opaque answer a browser gives for one), which the client
 * never follows: the key and the body stay with `baseUrl`'s origin.
 */
export function redirectError(response: Response, request: RequestSummary, secrets: readonly string[]): RedirectError {
  const headers = scrubHeaders(Object.fromEntries(response.headers), secrets);
  const location = headers['location'];
  const status = response.type === 'opaqueredirect' ? 'a redirect' : `HTTP ${response.status}`;
  const where = location === undefined ? '' : ` to ${location}`;
  return new RedirectError(`${request.method} ${request.url} answered ${status}${where}, which is not followed: the API key and the body stay with baseUrl's origin. Check \`baseUrl\``, {
    status: response.status,
    headers,
    request,
    location,
  });
}

/**
 * The error for an error answer: the class of its spec errorCode whatever the status,
 * otherwise the class of the status, carrying any unknown code. The secrets (the key, the auth
 * header's value) are scrubbed from everything taken from the answer.
 */
export function errorFromResponse(response: Response, decoded: DecodedBody, request: RequestSummary, secrets: readonly string[] = []): DeliveryError {
  const { status } = response;
  const headers = scrubHeaders(Object.fromEntries(response.headers), secrets);
  const body = decoded.json ? scrubDeep(decoded.value, secrets) : excerpt(scrubText(decoded.text, secrets));
  const errorCode = readErrorCode(body);
  const issues = issuesOfBody(body);
  const serverMessage = (isRecord(body) && typeof body['message'] === 'string' && body['message'] !== '' ? body['message'] : undefined) ?? issuesText(issues);

  if (isKnownErrorCode(errorCode)) {
    return createCodedError(errorCode, { source: 'server', status, body, headers, request, message: serverMessage });
  }

  const statusText = response.statusText === '' ? '' : ` ${scrubText(response.statusText, secrets)}`;
  const detail = serverMessage ?? (decoded.json ? undefined : body === '' ? 'empty body' : String(body));
  // A pickup code is known from one integration only: its meaning is added, the class stays ApiError.
  const meaning = isPickupErrorCode(errorCode) ? ` (errorCode ${errorCode}: ${pickupErrorCodeMeaning[errorCode]})` : undefined;
  const message = `${request.method} ${request.url} failed with HTTP ${status}${statusText}${detail === undefined ? '' : `: ${detail}`}${
    meaning ?? (errorCode === undefined ? '' : ` (errorCode ${errorCode})`)
  }`;
  const options: ApiErrorOptions = { status, body, headers, request, errorCode, issues };
  if (status === 401) return new AuthenticationError(`${message}; check the client's \`apiKey\` (or DELIVERY_API_KEY)`, options);
  if (status === 403) return new PermissionDeniedError(message, options);
  if (status === 404) return new NotFoundError(`${message}; check \`baseUrl\` (the API's root) and the ids in the path`, options);
  if (status === 429) return new RateLimitError(message, { ...options, retryAfter: parseRetryAfter(response.headers.get('retry-after')) });
  if (status >= 500) return new ServerError(message, options);
  return new ApiError(message, options);
}
