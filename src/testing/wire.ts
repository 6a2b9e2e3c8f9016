import { type ErrorCode, errorCodeMeaning } from '../errors/codes.js';
import { SandboxError } from './errors.js';

/** CORS headers on every answer, so browser tests can call a `listen()`ed sandbox; its server narrows them to the allowed origins. */
const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Retry-After, Content-Type',
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...CORS_HEADERS, ...headers },
  });
}

/** The spec's success envelope (wire contract). */
export function ok(data: unknown, status = 200, message = 'Success'): Response {
  return json(status, { success: true, message, data });
}

/** The spec's error body; `errorCode` is left out for errors the spec has no code for. */
export function errorResponse(status: number, message: string, errorCode?: number, data: unknown = null, headers: Record<string, string> = {}): Response {
  const body = errorCode === undefined ? { success: false, message, data } : { success: false, message, errorCode, data };
  return json(status, body, headers);
}

/** Answer to a CORS preflight: every method, and whatever headers the browser asks for (custom ones too). */
export function preflight(request: Request): Response {
  const asked = request.headers.get('access-control-request-headers');
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      'access-control-allow-headers': asked ?? 'Authorization, Content-Type',
      'access-control-max-age': '600',
    },
  });
}

/** One entry of the service's validator output, which it answers as a bare array: `[{ message, path, type }]`. */
interface ValidatorIssue {
  message: string;
  path: string;
  type: string;
}

/**
 * A rule broken by a request: the HTTP status, the message, and the spec code when there is one.
 * With `issue`, its answer is the validator's array body rather than the spec's error envelope.
 */
export class RuleViolation {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly errorCode?: number,
    readonly issue?: ValidatorIssue,
  ) {}

  toResponse(): Response {
    return this.issue === undefined ? errorResponse(this.status, this.message, this.errorCode) : json(this.status, [this.issue]);
  }
}

/** A violation of a spec rule: status 400 and the spec's own wording, followed by the detail. */
export function codedRefusal(code: ErrorCode, detail?: string): RuleViolation {
  const meaning = errorCodeMeaning[code];
  return new RuleViolation(400, detail === undefined ? meaning : `${meaning}: ${detail}`, code);
}

/** A broken rule the spec has no code for (missing field, wrong type): status 400 without `errorCode`. */
export function invalid(message: string): RuleViolation {
  return new RuleViolation(400, message);
}

/** A field of the wrong JSON type: refused by the service's validator, which answers `[{ message, path, type }]`. */
export function wrongType(path: string, expected: 'string' | 'number' | 'boolean' | 'object' | 'array'): RuleViolation {
  const must = `must be ${expected === 'object' || expected === 'array' ? 'an' : 'a'} ${expected}`;
  return new RuleViolation(400, `${path} ${must}`, undefined, { message: `"${path}" ${must}`, path, type: `${expected}.base` });
}

export function notFound(message: string, errorCode?: number): RuleViolation {
  return new RuleViolation(404, message, errorCode);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a JSON body; a missing or unreadable one is a 400 the caller returns. */
export async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') throw invalid('The request body must be JSON');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalid('The request body is not valid JSON');
  }
}

/** Who sent a request, as its socket and headers tell: what the control endpoints decide on. */
export interface Peer {
  /** The socket's remote address (`127.0.0.1`, `::1`, `::ffff:127.0.0.1`, ...). */
  readonly remoteAddress: string | undefined;
  /** The `Host` header. */
  readonly host: string | undefined;
  /** The `Origin` header a browser adds to a cross-origin request. */
  readonly origin: string | undefined;
}

export const CONTROL_PREFIX = '/__sandbox';

/** Path of the dashboard a `listen()` server serves, for a browser on this machine. */
export const DASHBOARD_PREFIX = '/__dashboard';

/** The header a control request carries the sandbox's {@link Sandbox.controlToken} in. */
export const CONTROL_TOKEN_HEADER = 'X-Sandbox-Token';

/** A `%`-escaped path segment, decoded; a malformed escape is the caller's mistake (400), not the server's. */
export function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new SandboxError(`Malformed %-escape in the path: ${segment}`);
  }
}
