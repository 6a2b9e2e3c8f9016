import type { WebhookOrderType } from '../catalogue/order-types.js';
import { MAX_TIMER } from '../internal/timer.js';
import { SandboxError } from './errors.js';
import { isLinkLocalHostname, webhookTargetRefusal } from './network.js';
import { RingBuffer } from './ring-buffer.js';
import type { OrderRecord, StateEvent } from './store.js';

/** The body the service POSTs on every state change (spec, Events 3). */
export interface SandboxWebhookBody {
  readonly _id: string;
  readonly trackingNumber: string;
  readonly state: number;
  readonly type: WebhookOrderType;
  /** Only in Delivered (45). */
  readonly cod?: number;
  readonly timeStamp: number;
  readonly isConfirmedDelivery: boolean;
  /** DD-MM-YYYY. */
  readonly deliveryPromiseDate: string;
  /** Only in Exception (47). */
  readonly exceptionReason?: string;
  /** Only in Exception (47). */
  readonly exceptionCode?: number;
  readonly businessReference?: string;
  readonly numberOfAttempts: number;
}

/** One try at delivering a webhook, in {@link WebhookDelivery.attempts}. */
export interface WebhookAttempt {
  /** When the attempt started, epoch milliseconds of the sandbox clock. */
  readonly at: number;
  /** HTTP status of the receiver's answer; absent when it did not answer. */
  readonly status?: number;
  /** Why the attempt failed (network error, timeout, non-2xx). */
  readonly error?: string;
}

/** How many webhook deliveries the sandbox keeps in its log: the last ones, never more. */
export const MAX_LOGGED_DELIVERIES = 1000;

/** One webhook the sandbox sent (or is still trying to send), with every attempt. */
export interface WebhookDelivery {
  /** 1, 2, ...: the delivery's number in this sandbox, never reused. */
  readonly id: number;
  /** The delivery this one sends again (`resendWebhook`), when it is a resend. */
  readonly resendOf?: number;
  readonly trackingNumber: string;
  readonly state: number;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: SandboxWebhookBody;
  readonly attempts: readonly WebhookAttempt[];
  /** `pending` while retries remain; `failed` once they ran out (or the sandbox closed). */
  readonly status: 'pending' | 'delivered' | 'failed';
}

/** How the sandbox retries a webhook the receiver did not accept (`webhookRetry` of {@link SandboxOptions}). */
export interface WebhookRetryOptions {
  /** Attempts in all, the first included. Default 4. */
  readonly attempts?: number;
  /** Wait before the first retry; doubled each time. Default 50 ms, so tests stay fast. */
  readonly baseDelayMs?: number;
  /** Time a receiver gets to answer one attempt. Default 5000 ms. */
  readonly timeoutMs?: number;
}

interface WebhookTarget {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** `DD-MM-YYYY` in UTC, as the spec writes deliveryPromiseDate. */
export function formatPromiseDate(epochMs: number): string {
  const date = new Date(epochMs);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}-${pad(date.getUTCMonth() + 1)}-${date.getUTCFullYear()}`;
}

/** The spec's body for one state change: cod only in 45, exception fields only in 47. */
export function webhookBody(order: OrderRecord, event: StateEvent): SandboxWebhookBody {
  return {
    _id: order._id,
    trackingNumber: order.trackingNumber,
    state: event.state,
    type: event.type,
    ...(event.state === 45 ? { cod: order.cod ?? 0 } : {}),
    timeStamp: event.timeStamp,
    isConfirmedDelivery: event.state === 45 || event.state === 46,
    deliveryPromiseDate: order.deliveryPromiseDate,
    ...(event.state === 47 && event.exceptionCode !== undefined ? { exceptionReason: event.exceptionReason ?? '', exceptionCode: event.exceptionCode } : {}),
    ...(order.businessReference === undefined ? {} : { businessReference: order.businessReference }),
    numberOfAttempts: event.numberOfAttempts,
  };
}

interface MutableDelivery {
  id: number;
  resendOf?: number;
  trackingNumber: string;
  state: number;
  url: string;
  headers: Record<string, string>;
  body: SandboxWebhookBody;
  attempts: WebhookAttempt[];
  status: WebhookDelivery['status'];
}

/** Sends webhooks (with the global `fetch` unless given another), retries failures with exponential backoff, and keeps a log. */
export class WebhookDispatcher {
  private readonly deliveries = new RingBuffer<MutableDelivery>(MAX_LOGGED_DELIVERIES);
  private counter = 0;
  /** Told of every new delivery and every attempt (the dashboard's live updates). */
  onChange: () => void = () => undefined;
  private readonly pending = new Set<Promise<void>>();
  private readonly wakers = new Set<() => void>();
  private readonly inFlight = new Set<AbortController>();
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly timeoutMs: number;
  private closed = false;

  constructor(
    options: WebhookRetryOptions,
    private readonly now: () => number,
    private readonly webhookFetch: ((url: string, init: RequestInit) => Promise<Response>) | undefined = undefined,
    /** Where the sandbox may send webhooks itself (see `webhookHosts`); `undefined` with `webhookFetch`. */
    private readonly webhookHosts: ReadonlySet<string> | undefined = undefined,
  ) {
    this.maxAttempts = Math.max(1, Math.floor(options.attempts ?? 4));
    this.baseDelayMs = Math.max(0, options.baseDelayMs ?? 50);
    this.timeoutMs = Math.max(1, options.timeoutMs ?? 5000);
  }

  /** Sends one webhook; resolves after the first attempt, retries go on in the background. */
  async send(target: WebhookTarget, body: SandboxWebhookBody): Promise<void> {
    await this.deliver({
      id: ++this.counter,
      trackingNumber: body.trackingNumber,
      state: body.state,
      url: target.url,
      headers: { 'content-type': 'application/json', 'user-agent': 'delivery-sdk-sandbox', ...target.headers },
      body,
      attempts: [],
      status: 'pending',
    });
  }

  /**
   * Sends a logged delivery again, as a new delivery (same URL, headers and body) with attempts
   * and retries of its own; resolves with it after its first attempt. Throws `SandboxError` for a
   * delivery the log no longer holds (or never held).
   */
  async resend(id: number): Promise<WebhookDelivery> {
    const original = this.deliveries.values().find((delivery) => delivery.id === id);
    if (original === undefined) throw new SandboxError(`No webhook delivery ${id} in the log (it keeps the last ${MAX_LOGGED_DELIVERIES})`);
    const delivery: MutableDelivery = {
      ...original,
      id: ++this.counter,
      resendOf: original.id,
      headers: { ...original.headers },
      attempts: [],
      status: 'pending',
    };
    await this.deliver(delivery);
    return copyOf(delivery);
  }

  private async deliver(delivery: MutableDelivery): Promise<void> {
    this.deliveries.push(delivery);
    this.onChange();
    // An order's webhookUrl is not checked as setWebhook's is: the service accepts it, the sandbox just never calls it.
    const refusal = isLinkLocalUrl(delivery.url)
      ? 'the sandbox sends no webhooks to a link-local address (169.254.0.0/16, fe80::/10)'
      : this.webhookHosts === undefined
        ? undefined
        : webhookTargetRefusal(delivery.url, this.webhookHosts);
    if (refusal !== undefined) {
      delivery.attempts.push({ at: this.now(), error: `not sent: ${refusal}` });
      delivery.status = 'failed';
      this.onChange();
      return;
    }
    const delivered = await this.attempt(delivery);
    if (delivered || this.closed) return;
    const retries = this.retry(delivery);
    this.pending.add(retries);
    void retries.finally(() => this.pending.delete(retries));
  }

  private async retry(delivery: MutableDelivery): Promise<void> {
    while (delivery.attempts.length < this.maxAttempts && !this.closed) {
      await this.sleep(this.baseDelayMs * 2 ** (delivery.attempts.length - 1));
      if (this.closed) break;
      if (await this.attempt(delivery)) return;
    }
    delivery.status = 'failed';
    this.onChange();
  }

  private async attempt(delivery: MutableDelivery): Promise<boolean> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    unref(timer);
    this.inFlight.add(controller);
    const at = this.now();
    try {
      // The global fetch is looked up at each attempt, so that a stub installed later is used.
      const response = await (this.webhookFetch ?? globalThis.fetch)(delivery.url, {
        method: 'POST',
        headers: delivery.headers,
        body: JSON.stringify(delivery.body),
        signal: controller.signal,
        // Never followed: a receiver the sandbox accepted must not send the body, and the webhook's
        // secret header, on to a host the sandbox refuses (169.254.169.254 included).
        redirect: 'manual',
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
        delivery.attempts.push({ at, status: response.status, error: `redirect not followed (HTTP ${response.status})` });
      } else if (response.ok) {
        delivery.attempts.push({ at, status: response.status });
        delivery.status = 'delivered';
        this.onChange();
        return true;
      } else delivery.attempts.push({ at, status: response.status, error: `HTTP ${response.status}` });
    } catch (err) {
      const reason = this.closed
        ? 'the sandbox was closed'
        : controller.signal.aborted
          ? `no answer within ${this.timeoutMs} ms`
          : err instanceof Error
            ? describeNetworkError(err)
            : String(err);
      delivery.attempts.push({ at, error: reason });
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
    if (delivery.attempts.length >= this.maxAttempts || this.closed) delivery.status = 'failed';
    this.onChange();
    return false;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      unref(timer);
      this.wakers.add(wake);
    });
  }

  /**
   * Resolves once no retry is pending (delivered or given up). The retry timers do not keep Node
   * running on their own, so that a retry nobody waits for never holds a process open; one that a
   * caller awaits here must, or a script would exit in the middle of its `await`.
   */
  async drain(): Promise<void> {
    if (this.pending.size === 0) return;
    const keepAlive = setInterval(() => undefined, MAX_TIMER);
    try {
      while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    } finally {
      clearInterval(keepAlive);
    }
  }

  /** The deliveries kept (the last {@link MAX_LOGGED_DELIVERIES}), oldest first. */
  log(): readonly WebhookDelivery[] {
    return this.deliveries.values().map(copyOf);
  }

  /**
   * Stops every pending retry and aborts attempts in flight, so a receiver that never answers
   * does not hold `sandbox.close()` for the whole timeout; pending deliveries end as `failed`.
   */
  close(): void {
    this.closed = true;
    for (const controller of [...this.inFlight]) controller.abort();
    for (const wake of [...this.wakers]) wake();
  }
}

function copyOf(delivery: MutableDelivery): WebhookDelivery {
  return { ...delivery, headers: { ...delivery.headers }, attempts: [...delivery.attempts] };
}

function isLinkLocalUrl(url: string): boolean {
  try {
    return isLinkLocalHostname(new URL(url).hostname);
  } catch {
    return false;
  }
}

function describeNetworkError(err: Error): string {
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}

/** Timers must not keep a test process alive (Node); browsers have no `unref`. */
function unref(timer: ReturnType<typeof setTimeout>): void {
  if (typeof timer === 'object' && timer !== null && 'unref' in timer && typeof timer.unref === 'function') timer.unref();
}
