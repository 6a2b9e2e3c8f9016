import {
  ApiError,
  type ApiErrorOptions,
  AuthenticationError,
  createCodedError,
  type DeliveryError,
  isKnownErrorCode,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  type RequestSummary,
  ServerError,
} from '../errors/index.js';
import { isRecord } from '../schemas/predicates.js';

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

/**
 * The error for an error answer: the class of its spec errorCode whatever the status,
 * otherwise the class of the status, carrying any unknown code.
 */
export function errorFromResponse(response: Response, decoded: DecodedBody, request: RequestSummary): DeliveryError {
  const { status } = response;
  const headers = Object.fromEntries(response.headers);
  const body = decoded.json ? decoded.value : excerpt(decoded.text);
  const errorCode = readErrorCode(body);
  const serverMessage = isRecord(body) && typeof body['message'] === 'string' && body['message'] !== '' ? body['message'] : undefined;

  if (isKnownErrorCode(errorCode)) {
    return createCodedError(errorCode, { source: 'server', status, body, headers, request, message: serverMessage });
  }

  const statusText = response.statusText === '' ? '' : ` ${response.statusText}`;
  const detail = serverMessage ?? (decoded.json ? undefined : body === '' ? 'empty body' : String(body));
  const message = `${request.method} ${request.url} failed with HTTP ${status}${statusText}${detail === undefined ? '' : `: ${detail}`}${
    errorCode === undefined ? '' : ` (errorCode ${errorCode})`
  }`;
  const options: ApiErrorOptions = { status, body, headers, request, errorCode };
  if (status === 401) return new AuthenticationError(`${message}; check the client's \`apiKey\` (or DELIVERY_API_KEY)`, options);
  if (status === 403) return new PermissionDeniedError(message, options);
  if (status === 404) return new NotFoundError(`${message}; check \`baseUrl\` (the API's root) and the ids in the path`, options);
  if (status === 429) return new RateLimitError(message, { ...options, retryAfter: parseRetryAfter(response.headers.get('retry-after')) });
  if (status >= 500) return new ServerError(message, options);
  return new ApiError(message, options);
}
