/** Where an order is: its tracking for a customer's page, and a wait for a state. */
import { isFinalState } from '../../catalogue/states.js';
import type { RequestOptions } from '../../core/options.js';
import { ApiError, ConfigurationError, ConnectionError, DeliveryError, RequestAbortedError, ResponseShapeError, TimeoutError } from '../../errors/index.js';
import { AttemptCut, abortedByCaller, sleep } from '../../internal/attempt-clock.js';
import { isOutOfTime, leftOf, MIN_TIME_LEFT, totalDeadline } from '../../internal/deadline.js';
import { asRecord, idString, isRecord } from '../../internal/guards.js';
import { requireId } from '../../internal/url.js';
import { coreInternals, type DeliveryCore, requireCore } from '../delivery-core.js';
import { endpoint } from '../endpoint.js';
import { getDelivery } from './reads.js';
import type { DeliveryRecord } from './records.js';

/** One state of an order's tracking: its code (read `code`, not `value`: "Delivered" reads the same for 45 and 46). */
export interface TrackingEvent {
  /** The state code (`DeliveryState`), when the service gave a number. */
  code: number | undefined;
  /** The state's name, as the service words it. */
  value: string | undefined;
  /** When the order entered the state, as the service writes it. */
  timestamp: string | undefined;
}

/**
 * An order's tracking, for a "track my order" page: where it is now and where it has been. Read
 * from either shape the service answers (`CurrentStatus` with `stateHistory`, or the public
 * tracker's `TransitEvents`); every other field the answer has is kept.
 */
export interface DeliveryTracking {
  trackingNumber: string;
  /** The order's state now; undefined when the answer had none. */
  currentState: TrackingEvent | undefined;
  /** Every state the order went through, oldest first. */
  history: TrackingEvent[];
  /** The delivery date the service promises, when it says. */
  promisedDate?: string | undefined;
  /** The service's own tracking page, when it gives one. */
  trackingUrl?: string | undefined;
  [field: string]: unknown;
}

const firstOf = (record: Record<string, unknown>, names: readonly string[]): unknown => names.map((name) => record[name]).find((value) => value !== undefined);
const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;

function trackingEvent(raw: unknown): TrackingEvent | undefined {
  if (!isRecord(raw)) return undefined;
  // `{ state: 'Delivered', code: 45 }` (the tracker) or `{ state: { code, value } }` (an order's own record).
  const nested = isRecord(raw['state']) ? raw['state'] : undefined;
  const code = Number(raw['code'] ?? nested?.['code']);
  return {
    code: Number.isInteger(code) && code >= 0 ? code : undefined,
    value: textOf(firstOf(raw, ['value', 'state'])) ?? textOf(nested?.['value']),
    timestamp: textOf(firstOf(raw, ['timestamp', 'date'])),
  };
}

/** Reads an answer of `GET /deliveries/{trackingNumber}/tracking` in any of the spellings integrations meet (docs/assumptions.md). */
function deliveryTracking(data: unknown, asked: string): DeliveryTracking {
  const record = asRecord(data);
  const history = firstOf(record, ['history', 'stateHistory', 'TransitEvents']);
  const events = (Array.isArray(history) ? history : []).flatMap((entry) => trackingEvent(entry) ?? []);
  const current = trackingEvent(firstOf(record, ['currentState', 'CurrentStatus'])) ?? events.at(-1);
  return {
    ...record,
    trackingNumber: idString(firstOf(record, ['trackingNumber', 'TrackingNumber'])) ?? asked,
    currentState: current,
    history: events,
    promisedDate: textOf(firstOf(record, ['promisedDate', 'PromisedDate'])),
    trackingUrl: textOf(firstOf(record, ['trackingUrl', 'TrackingURL'])),
  };
}

/**
 * An order's tracking (`GET /deliveries/{trackingNumber}/tracking`), for a "track my order" page:
 * `currentState` and `history` (`{ code, value, timestamp }`, oldest first), `promisedDate` when
 * the service says. Read `code`, not `value`.
 *
 * @chunk afterCreate
 *
 * @throws `NotFoundError` (404) when there is no such order.
 *
 * @example
 * ```ts
 * const { currentState, history } = await client.deliveries.track('70000012');
 * console.log(currentState?.code, history.map((event) => `${event.timestamp} ${event.value}`));
 * ```
 */
export const trackDelivery = /* @__PURE__ */ endpoint<[trackingNumber: string], DeliveryTracking>({
  name: 'deliveries.track',
  method: 'GET',
  route: '/deliveries/{trackingNumber}/tracking',
  answer: (data, { params }) => deliveryTracking(data, params['trackingNumber'] as string),
});

/** Where a wait stands after a read of the order (`onProgress`). */
export interface WaitProgress {
  /** Reads of the order that answered so far, this one included. */
  reads: number;
  /** The order's state code as last read; undefined while none was read. */
  state: number | undefined;
}

/** How {@link waitForDeliveryState} waits. */
export interface WaitForStateOptions extends RequestOptions {
  /**
   * The state to wait for: a state code (`DeliveryState.Delivered`, 45), any of a list of them, or
   * a function of the state code (and of the order as read) that says when the wait is over.
   * Default: a final state (`isFinalState`).
   */
  until?: number | readonly number[] | ((state: number, order: DeliveryRecord) => boolean) | undefined;
  /** Called after each read that does not end the wait, with the reads so far and the state read. */
  onProgress?: ((progress: WaitProgress) => void) | undefined;
  /** Milliseconds before the second read; each wait after is half as long again, up to `maxPollInterval`. Default 10,000. */
  pollInterval?: number | undefined;
  /** The longest wait between two reads, in milliseconds. Default 300,000 (5 minutes). */
  maxPollInterval?: number | undefined;
}

/** `until` as a function of the state: a code, or a list of codes, is the state waited for. */
function untilOf(until: unknown): (state: number, order: DeliveryRecord) => boolean {
  if (typeof until === 'function') return until as (state: number, order: DeliveryRecord) => boolean;
  const codes = typeof until === 'number' ? [until] : Array.isArray(until) ? (until as unknown[]) : undefined;
  if (codes === undefined || codes.length === 0 || !codes.every((code) => Number.isSafeInteger(code)))
    throw new ConfigurationError('until: expected a state code, a list of state codes, or a function of the state code');
  return (state) => codes.includes(state);
}

function pollingOf(options: WaitForStateOptions | undefined) {
  let until: unknown;
  let onProgress: unknown;
  let pollInterval: unknown;
  let maxPollInterval: unknown;
  let requestOptions: RequestOptions;
  try {
    ({ until = isFinalState, onProgress, pollInterval = 10_000, maxPollInterval = 300_000, ...requestOptions } = options ?? {});
  } catch (cause) {
    throw new ConfigurationError('waitForState options could not be read.', { cause });
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new ConfigurationError('onProgress: expected a function');
  for (const [name, value] of [
    ['pollInterval', pollInterval],
    ['maxPollInterval', maxPollInterval],
  ] as const) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new ConfigurationError(`${name}: expected a number of milliseconds, 0 or more`);
  }
  return {
    until: untilOf(until),
    onProgress: onProgress as ((progress: WaitProgress) => void) | undefined,
    first: pollInterval as number,
    longest: maxPollInterval as number,
    requestOptions,
  };
}

/**
 * A failure that another read may not meet: the service or the way to it failed for now (a 5xx,
 * 408, 429, a lost connection, an attempt that timed out, a garbled answer). A wait reads again
 * after it, within `totalTimeout`; a refusal in words (404, 401) ends the wait.
 */
function isTransient(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 408 || error.status === 429 || error.status >= 500;
  return error instanceof ConnectionError || error instanceof ResponseShapeError;
}

/**
 * Reads the order (`get`) until its state is one `until` accepts (a state code, a list of them, a
 * function of the state; default: a final state, `isFinalState`) and resolves with the order as
 * last read; `onProgress` hears of each read that does not end it. Between reads it waits `pollInterval`
 * (10 s), then half as long again each time, up to `maxPollInterval` (5 min), and never past what
 * is left of the wait: a `totalTimeout` shorter than the interval still gets a last read before
 * it ends. The whole wait is bounded by `totalTimeout` (the call's, else the client's 2 minutes:
 * pass a longer one to wait for a delivery) and by `signal`. A read that fails for now (a 5xx, a
 * lost connection, a 429) is read again at the next poll, within `totalTimeout`, as any read is
 * retried. Meant for scripts and tests; a server reacts to webhooks instead.
 *
 * @operation deliveries.waitForState
 * @chunk afterCreate
 * @calls deliveries.get
 *
 * @throws `TimeoutError` when `totalTimeout` runs out first (its message names the last state read,
 * its `cause` the last failed read, if any), `RequestAbortedError` when `signal` aborts, a
 * `DeliveryError` whose `cause` is what `until` or `onProgress` threw, and the errors of `get` that
 * another read would meet too (`NotFoundError`, `AuthenticationError`).
 *
 * @example
 * ```ts
 * const order = await client.deliveries.waitForState('70000012', { until: DeliveryState.Delivered, totalTimeout: 3_600_000 });
 * console.log(order.state?.code);
 * ```
 */
export async function waitForDeliveryState(core: DeliveryCore, trackingNumber: string, options?: WaitForStateOptions): Promise<DeliveryRecord> {
  requireCore(core);
  const id = requireId(trackingNumber, 'trackingNumber');
  const { until, onProgress, first, longest, requestOptions } = pollingOf(options);
  const deadlineAt = totalDeadline(coreInternals(core), requestOptions);
  const what = `Waiting for the state of ${id}`;
  const request = { method: 'GET', url: `${core.baseUrl}/deliveries/business/${id}` };
  let wait = first;
  let reads = 0;
  let state: number | undefined;
  let failure: DeliveryError | undefined;
  const timedOut = (): TimeoutError =>
    new TimeoutError(
      `${what} took longer than totalTimeout: the order is ${state === undefined ? 'in a state not read yet' : `still in state ${state}`}${
        failure === undefined ? '' : ` (the last read failed: ${failure.message})`
      }.`,
      { request, ...(failure === undefined ? {} : { cause: failure }) },
    );
  for (;;) {
    const readAt = Date.now();
    try {
      const order = await getDelivery(core, id, leftOf(requestOptions, deadlineAt));
      reads += 1;
      failure = undefined;
      const code = order.state?.code;
      if (typeof code === 'number') state = code;
      let accepted: boolean;
      try {
        accepted = typeof code === 'number' && until(code, order) === true;
      } catch (cause) {
        throw new DeliveryError(`${what}: until threw`, { cause });
      }
      if (accepted) return order;
      try {
        onProgress?.({ reads, state });
      } catch (cause) {
        throw new DeliveryError(`${what}: onProgress threw`, { cause });
      }
    } catch (error) {
      if (error instanceof RequestAbortedError || !(error instanceof DeliveryError)) throw error;
      // The deadline cut the read, or left too little to send it: the wait's own error, naming the last state.
      if (error instanceof TimeoutError && isOutOfTime(deadlineAt)) throw timedOut();
      if (!isTransient(error)) throw error;
      failure = error;
    }
    const now = Date.now();
    // Room for one more read: the wait ends early enough for a read as long as the last one, and
    // never later than a request may start (MIN_TIME_LEFT before the deadline).
    const lastChance = deadlineAt - now - Math.max(now - readAt, MIN_TIME_LEFT);
    if (lastChance <= 0) throw timedOut();
    const pause = Math.min(wait, longest, lastChance);
    await sleep(pause, requestOptions.signal).catch((cut: unknown) => {
      throw cut instanceof AttemptCut ? abortedByCaller(what, requestOptions.signal) : cut;
    });
    wait = Math.min(wait * 1.5, longest);
  }
}
