// What the sandbox did, kept for the dashboard and `sandbox.requestLog()`: every API request
// (bounded, the oldest dropped first) and a signal to whoever watches that something changed.
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
   * keys); JSON parsed, other text as text, cut at 16 KiB. Absent without a
   * body, and until a body still arriving has arrived.
   */
  readonly body?: unknown;
}

/** What changed, for the dashboard's live updates. */
export type ActivityKind = 'requests' | 'orders' | 'webhooks' | 'faults';

/** Field names whose values are secrets wherever they appear in a body (`password`, `apiKey`, `headerValue`, ...). */
const SECRET_FIELD = /pass(word)?|secret|token|otp|api[-_]?key|authorization|cookie|header[-_]?value|^code$/i;

/**
 * `value` with secrets masked: fields named like one, every value of a `webhookCustomHeaders`
 * map, and the `known` secrets (merchants' keys) wherever they occur in a string.
 */
export function maskSecrets(value: unknown, known: readonly string[], key = ''): unknown {
  if (typeof value === 'string') {
    if (SECRET_FIELD.test(key)) return MASKED;
    return known.reduce((text, secret) => (secret.length >= 6 ? text.split(secret).join(MASKED) : text), value);
  }
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, known, key));
  if (typeof value === 'object' && value !== null) {
    const headers = /^webhookCustomHeaders$/i.test(key);
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [
        name,
        headers || (SECRET_FIELD.test(name) && typeof item !== 'object') ? MASKED : maskSecrets(item, known, name),
      ]),
    );
  }
  return value;
}

function bodyOf(text: string, known: readonly string[]): unknown {
  if (text === '') return undefined;
  try {
    return maskSecrets(JSON.parse(text) as unknown, known);
  } catch {
    const masked = maskSecrets(text, known) as string;
    return masked.length > MAX_LOGGED_BODY_CHARS ? `${masked.slice(0, MAX_LOGGED_BODY_CHARS)}… (cut at ${MAX_LOGGED_BODY_CHARS} characters)` : masked;
  }
}

/** A parsed body kept whole unless its JSON is too long, then kept as its text cut short. */
function bounded(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const text = JSON.stringify(body);
  return text.length > MAX_LOGGED_BODY_CHARS ? `${text.slice(0, MAX_LOGGED_BODY_CHARS)}… (cut at ${MAX_LOGGED_BODY_CHARS} characters)` : body;
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

/** The sandbox's request log and change signal. */
export class ActivityLog {
  private readonly requests = new RingBuffer<SandboxRequest & { body?: unknown }>(MAX_LOGGED_REQUESTS);
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

  /** The requests kept, oldest first. */
  list(): readonly SandboxRequest[] {
    return this.requests.values();
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
    const entry: { -readonly [K in keyof SandboxRequest]: SandboxRequest[K] } = {
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
      void bodyText
        ?.then((text) => {
          const body = bounded(bodyOf(text, this.source.secrets()));
          if (body === undefined) return;
          entry.body = body;
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
