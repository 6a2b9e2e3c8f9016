// What the sandbox did, kept for the dashboard and `sandbox.requestLog()`: every API request
// (bounded, the oldest dropped first) and a signal to whoever watches that something changed.
import { scrubText } from '../internal/redaction.js';
import type { FaultKind } from './faults.js';
import { RingBuffer } from './ring-buffer.js';
import { apiPath } from './router.js';

/** How many API requests the sandbox keeps: a sandbox running all day holds the last ones, never more. */
export const MAX_LOGGED_REQUESTS = 1000;

/** The longest request body kept for a logged request, in characters; a longer one is cut there and marked. */
export const MAX_LOGGED_BODY_CHARS = 16 * 1024;

/** What replaces a secret in a logged request body. */
export const MASKED = '••••••';

/** One API request the sandbox answered, as `sandbox.requestLog()` lists it and the dashboard shows it. */
export interface SandboxRequest {
  /** 1, 2, ...: the request's number in this sandbox, never reused. */
  readonly id: number;
  /** When it arrived, epoch milliseconds of the sandbox clock. */
  readonly at: number;
  /** The merchant whose key it carried (`'default'`, `'merchant-1'`, ...); absent without a known key. */
  readonly merchantId?: string;
  readonly method: string;
  /** Its path under the base URL (`/deliveries/business/70000001`), as `injectFault`'s `path` matches it. */
  readonly path: string;
  /** The query string, `?` included, or `''`. */
  readonly query: string;
  /** The answer's HTTP status; absent when the connection was dropped (an injected fault). */
  readonly status?: number;
  /** The answer's spec `errorCode`, when it carried one. */
  readonly errorCode?: number;
  /** The answer's `message` when the request was refused (status 400 and above). */
  readonly message?: string;
  /** The injected fault that bent it, if any. */
  readonly fault?: FaultKind;
  /** Time to answer, in milliseconds of real time (a `slow` fault included). */
  readonly durationMs: number;
  /**
   * The body as received, secrets masked (passwords, one-time codes, tokens, header values, API
   * keys): JSON parsed, other text as text, and a body longer than 16 KiB as its text cut there
   * (after its last whole value) and marked. Absent without a body, and until a body still
   * arriving has arrived. Masked when first read.
   */
  readonly body?: unknown;
}

/** What changed, for the dashboard's live updates. */
export type ActivityKind = 'requests' | 'orders' | 'webhooks' | 'faults';

/** Field names whose values are secrets wherever they appear in a body (`password`, `apiKey`, `headerValue`, ...). */
const SECRET_FIELD = /pass(word)?|secret|token|otp|api[-_]?key|authorization|cookie|header[-_]?value|^code$/i;

/** A `"name": value` pair of JSON text whose value is a string or a number (groups: name, the colon, the value). */
const JSON_PAIR = /"((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*)/g;
/** A `webhookCustomHeaders` map, every value of which is a secret: its opening, and its pairs. */
const HEADERS_MAP = /("webhookCustomHeaders"\s*:\s*\{)([^{}]*)/gi;

/**
 * A request body's text with its secrets masked: the values of fields named like one (`password`,
 * `token`, `otp`, `apiKey`, `headerValue`, ...), every value of a `webhookCustomHeaders` map, and
 * the `known` secrets (the merchants' keys) wherever they occur. Text, not a parsed value, so that a
 * body cut short is masked as well as a whole one.
 */
export function maskSecrets(text: string, known: readonly string[]): string {
  const maskPair = (pair: string, name: string, colon: string, all = false): string => (all || SECRET_FIELD.test(name) ? `"${name}"${colon}"${MASKED}"` : pair);
  let masked = text.replace(
    HEADERS_MAP,
    (_, open: string, pairs: string) => open + pairs.replace(JSON_PAIR, (pair, name: string, colon: string) => maskPair(pair, name, colon, true)),
  );
  masked = masked.replace(JSON_PAIR, (pair, name: string, colon: string) => maskPair(pair, name, colon));
  // In any form a body may carry them: a `\u` escape, which the parsed body would decode, included.
  return scrubText(masked, known, MASKED);
}

/** A logged body as shown: its masked JSON parsed, or its masked text (marked when it was cut). */
function shownBody(text: string, cut: boolean, known: readonly string[]): unknown {
  const masked = maskSecrets(text, known);
  if (cut) return `${masked}… (cut at ${MAX_LOGGED_BODY_CHARS} characters)`;
  try {
    return JSON.parse(masked) as unknown;
  } catch {
    return masked;
  }
}

interface Refusal {
  readonly errorCode?: number;
  readonly message?: string;
}

async function refusalOf(response: Response): Promise<Refusal> {
  if (response.status < 400 || !(response.headers.get('content-type') ?? '').includes('json')) return {};
  try {
    const body = (await response.clone().json()) as unknown;
    const first = Array.isArray(body) ? (body[0] as unknown) : body;
    if (typeof first !== 'object' || first === null) return {};
    const { errorCode, message } = first as { errorCode?: unknown; message?: unknown };
    return { ...(typeof errorCode === 'number' ? { errorCode } : {}), ...(typeof message === 'string' ? { message } : {}) };
  } catch {
    return {};
  }
}

/** What the activity log needs to know of the sandbox: its clock, who a key belongs to, and the secrets to mask. */
export interface ActivitySource {
  readonly now: () => number;
  readonly merchantOfKey: (apiKey: string) => string | undefined;
  readonly secrets: () => readonly string[];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A logged request as kept: its body as received, cut at {@link MAX_LOGGED_BODY_CHARS}, masked only when shown. */
interface Entry extends Mutable<Omit<SandboxRequest, 'body'>> {
  bodyText?: string;
  cut?: boolean;
}

/** The sandbox's request log and change signal. */
export class ActivityLog {
  private readonly requests = new RingBuffer<Entry>(MAX_LOGGED_REQUESTS);
  private readonly listeners = new Set<(kind: ActivityKind) => void>();
  private counter = 0;

  constructor(private readonly source: ActivitySource) {}

  /** Calls `listener` on every change until the returned function is called. */
  subscribe(listener: (kind: ActivityKind) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(kind: ActivityKind): void {
    for (const listener of [...this.listeners]) listener(kind);
  }

  /** The requests kept, oldest first; each body is masked when first read, not before. */
  list(): readonly SandboxRequest[] {
    return this.requests.values().map((entry) => {
      const { bodyText, cut, ...request } = entry;
      if (bodyText === undefined) return request;
      let body: unknown;
      return Object.defineProperty(request, 'body', { enumerable: true, get: () => (body ??= shownBody(bodyText, cut === true, this.source.secrets())) });
    });
  }

  /**
   * Answers `request` through `answer` and logs it: the body is read from a copy as it arrives,
   * never waited for (a request refused before its body is answered at once).
   */
  async record(request: Request, answer: (onFault: (kind: FaultKind) => void) => Promise<Response>): Promise<Response> {
    const started = performance.now();
    const url = new URL(request.url);
    const key = request.headers.get('authorization')?.trim();
    const merchantId = key === undefined ? undefined : this.source.merchantOfKey(key);
    const bodyText = request.body === null ? undefined : request.clone().text();
    let fault: FaultKind | undefined;
    const entry: Entry = {
      id: ++this.counter,
      at: this.source.now(),
      ...(merchantId === undefined ? {} : { merchantId }),
      method: request.method,
      path: apiPath(url) ?? url.pathname,
      query: url.search,
      durationMs: 0,
    };
    const finish = (): void => {
      entry.durationMs = Math.round((performance.now() - started) * 10) / 10;
      if (fault !== undefined) entry.fault = fault;
      this.requests.push(entry);
      this.notify('requests');
      // Kept as text, cut short: masking (and parsing) waits until someone reads the body.
      void bodyText
        ?.then((text) => {
          if (text === '') return;
          entry.cut = text.length > MAX_LOGGED_BODY_CHARS;
          // Cut after the last whole JSON value: a secret cut in half would no longer be recognised.
          const end = entry.cut ? text.lastIndexOf(',', MAX_LOGGED_BODY_CHARS) : text.length;
          entry.bodyText = text.slice(0, end > 0 ? end : MAX_LOGGED_BODY_CHARS);
          this.notify('requests');
        })
        .catch(() => undefined);
    };
    try {
      const response = await answer((kind) => {
        fault = kind;
      });
      entry.status = response.status;
      Object.assign(entry, await refusalOf(response));
      finish();
      return response;
    } catch (err) {
      finish();
      throw err;
    }
  }
}
