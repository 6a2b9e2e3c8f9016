import { isAfterFinalState, isFinalState } from '../catalogue/states.js';
import { FAILED_ATTEMPT_TRANSITIONS, FULFILLMENT_TRANSITIONS } from '../catalogue/transitions.js';
import { ConfigurationError, DeliveryError } from '../errors/base.js';
import { readArgument } from './auth.js';
import { TrackerStoreError, WebhookPayloadError } from './errors.js';
import type { WebhookEvent } from './event.js';
import { type Placement, parseWebhookEvent, placementOf } from './parse.js';
import { toldVerdict } from './verdicts.js';

/** What one event did to its order. */
export interface TrackResult {
  /**
   * The event is now the order's latest (`current`). To store the state, test `!stale` rather
   * than `changed`: the event is recorded before your write, so if the write fails the
   * service's repeat arrives as a `duplicate` with `changed: false`.
   */
  readonly changed: boolean;
  /** The same event (state, type, time and exception code) arrived before: nothing recorded. */
  readonly duplicate: boolean;
  /** The event is older than the order's current one: kept in the history, `current` unchanged. */
  readonly stale: boolean;
  /** The order's latest event after this one. */
  readonly current: WebhookEvent;
  /** The order's latest event before this one; `undefined` for its first event. */
  readonly previous: WebhookEvent | undefined;
  /**
   * The order's version after this step: how many distinct events the tracker holds for it. It
   * only grows, across every instance sharing a store, and a higher version's `current` is never
   * older than a lower one's: write `current` to your database with it, on the condition that the
   * stored version is lower (`UPDATE ... WHERE version < $1`, docs/webhooks.md), and two instances
   * can never write an older state over a newer one. It starts again after `forget` (or expiry).
   * `undefined` only from a custom store that does not report it.
   */
  readonly version: number | undefined;
}

/** Folds webhooks per order, in `timeStamp` order, whatever order they arrive in. */
export interface OrderTracker {
  /** Records one event and says whether it changed the order's current state. */
  track(event: WebhookEvent): TrackResult;
  /** The order's latest event, by `timeStamp`. */
  current(trackingNumber: string): WebhookEvent | undefined;
  /** Every distinct event of the order, oldest first (late arrivals in their place). */
  history(trackingNumber: string): readonly WebhookEvent[];
  /**
   * Drops an order; whether it was tracked. The tracker then knows nothing of it: a repeat of one
   * of its events arriving later (the service delivers again after a failed answer) reads as a new
   * order's first event, `changed: true`. Forget an order only once no repeat can still come.
   */
  forget(trackingNumber: string): boolean;
}

/**
 * {@link OrderTracker} over an {@link OrderTrackerStore}: the same rules, every answer a promise.
 * A store that fails rejects with a {@link TrackerStoreError}; thrown from a webhook callback, it
 * makes the handler answer 500, so the service delivers the event again.
 */
export interface AsyncOrderTracker {
  /** Records one event in one atomic step of the store and says whether it changed the order's current state. */
  track(event: WebhookEvent): Promise<TrackResult>;
  /** The order's latest event, by `timeStamp`. */
  current(trackingNumber: string): Promise<WebhookEvent | undefined>;
  /** Every distinct event of the order, oldest first (late arrivals in their place). */
  history(trackingNumber: string): Promise<readonly WebhookEvent[]>;
  /** Drops an order; whether it was tracked. As with {@link OrderTracker.forget}, a repeat arriving later reads as new. */
  forget(trackingNumber: string): Promise<boolean>;
}

/** One event as a store keeps it. */
export interface StoredEvent {
  readonly trackingNumber: string;
  /** The event's identity: two deliveries with the same `id` are one event (the second is a duplicate). */
  readonly id: string;
  /** Where the event goes in the order's history: its `timeStamp`, or `-Number.MAX_VALUE` (before every timed event) when it has none. */
  readonly timeStamp: number;
  /**
   * Where the event goes among the order's events of the same `timeStamp`: they sort by this key
   * (printable ASCII, no space, so byte order and JavaScript's string order agree), the greatest
   * last. Two events with different `id`s have different keys.
   */
  readonly sortKey: string;
  /** The webhook body as received (JSON): the tracker reads it back with `parseWebhookEvent`. */
  readonly body: string;
}

/**
 * Where an {@link AsyncOrderTracker} keeps its orders, shared by every instance of your server
 * (`createRedisTrackerStore` from `delivery-sdk/webhooks/redis`). Each method is one atomic step.
 */
export interface OrderTrackerStore {
  /**
   * Unless an event of the order with the same `id` is already kept, inserts this one among the
   * order's events by `timeStamp`, then `sortKey`. Either way, answers whether it
   * was already kept, the body of the order's latest event before this step (`undefined` for
   * none) and the order's `version` after it (how many events it holds). One atomic step: of two
   * concurrent calls with the same `id`, exactly one is not a duplicate.
   */
  record(event: StoredEvent): Promise<{ readonly duplicate: boolean; readonly previous: string | undefined; readonly version?: number | undefined }>;
  /** The body of the order's latest event (the last by `timeStamp`, then `sortKey`). */
  current(trackingNumber: string): Promise<string | undefined>;
  /** The bodies of the order's events, oldest first. */
  history(trackingNumber: string): Promise<readonly string[]>;
  /** Drops the order; whether it was kept. */
  forget(trackingNumber: string): Promise<boolean>;
}

/** Options of {@link createOrderTracker}. */
export interface OrderTrackerOptions {
  /** Keep the orders in this store rather than in this process's memory; every method then returns a promise. */
  readonly store?: OrderTrackerStore | undefined;
  /**
   * In memory only: how many orders to keep. Past it, the order whose last event is the oldest to
   * arrive is forgotten (as by `forget`: a repeat of one of its events then reads as a new order's
   * first event, `changed: true`). Default 50,000; `Infinity` for no bound.
   */
  readonly maxOrders?: number | undefined;
}

/** About 1 KB per order: some 50 MB at most. Enough for the orders a single process sees in flight over days. */
const DEFAULT_MAX_TRACKED_ORDERS = 50_000;

// An event without a timeStamp cannot be placed in time: it counts as older than any event with
// one, so it never overwrites a known state; among such events the last to arrive is current.
// -Number.MAX_VALUE rather than -Infinity: a store's sort key must be a finite number.
const timeOf = (event: WebhookEvent): number => event.timeStamp ?? -Number.MAX_VALUE;

/** Two deliveries of one event agree on these; two events of an order differ in one of them. */
function eventId(event: Placement): string {
  return `${event.state}|${event.type}|${event.timeStamp}|${event.exceptionCode ?? ''}`;
}

/**
 * How far along the spec's flows a state is: its distance from creation over the transitions the
 * SDK knows (Received at warehouse 2, Picked up 3, Exception 4); 0 for a state they do not show.
 */
let flowDepths: ReadonlyMap<number, number> | undefined;
function flowDepth(state: number): number {
  if (flowDepths === undefined) {
    const transitions = [...FULFILLMENT_TRANSITIONS, ...FAILED_ATTEMPT_TRANSITIONS];
    const depths = new Map<number | 'start', number>([['start', -1]]);
    for (let frontier: Array<number | 'start'> = ['start']; frontier.length > 0; ) {
      const next: number[] = [];
      for (const from of frontier) {
        for (const transition of transitions) {
          if (transition.from !== from || depths.has(transition.to)) continue;
          depths.set(transition.to, (depths.get(from) as number) + 1);
          next.push(transition.to);
        }
      }
      frontier = next;
    }
    depths.delete('start');
    flowDepths = depths as Map<number, number>;
  }
  return flowDepths.get(state) ?? 0;
}

/**
 * The order of events of the same `timeStamp`, whatever order they arrive in (the greatest is
 * current): a final state after a non-final one, Archived after a final one; among non-final states, the one further along
 * the spec's flows ({@link flowDepth}: Exception after Picked up); then by state code, then by
 * identity (`eventId`: type and exception code), a stable order. Printable ASCII without spaces,
 * so that Redis's byte order and JavaScript's string order agree. The one rule of both the
 * in-memory tracker and every store.
 */
function sortKeyOf(event: WebhookEvent, id = eventId(event)): string {
  const rank = isAfterFinalState(event.state) ? 2 : isFinalState(event.state) ? 1 : 0;
  const depth = rank > 0 ? 0 : Math.min(flowDepth(event.state), 99);
  const identity = id.replace(/[^\w.|-]/g, (char) => `%${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `${rank}${String(depth).padStart(2, '0')}${String(event.state).padStart(17, '0')}${identity}`;
}

/** Negative when `a` comes before `b` in the order's history; 0 only for one event. */
function compareEvents(a: WebhookEvent, b: WebhookEvent): number {
  const byTime = timeOf(a) - timeOf(b);
  if (byTime !== 0) return byTime;
  const [keyA, keyB] = [sortKeyOf(a), sortKeyOf(b)];
  return keyA < keyB ? -1 : keyA > keyB ? 1 : 0;
}

/**
 * `read` on an event the caller passed: a Proxy or a getter that throws (a revoked Proxy) is a
 * `WebhookPayloadError`, as any other event not from `parseWebhookEvent`, never a TypeError.
 */
function readingEvent<T>(read: () => T): T {
  try {
    return read();
  } catch (cause) {
    if (cause instanceof DeliveryError) throw cause;
    throw new WebhookPayloadError('track: the event could not be read; pass an event from parseWebhookEvent', { cause });
  }
}

/** A caller's mistake (an event not from `parseWebhookEvent`) as a typed error, not a TypeError further down. */
function checkEvent(event: WebhookEvent): void {
  if (typeof event !== 'object' || event === null)
    throw new WebhookPayloadError(`track: expected an event from parseWebhookEvent, received ${event === null ? 'null' : typeof event}`);
  if (typeof event.trackingNumber !== 'string' || event.trackingNumber === '')
    throw new WebhookPayloadError('track: expected a non-empty string', { field: 'trackingNumber' });
  const finite = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);
  if (!finite(event.state)) throw new WebhookPayloadError('track: expected a state code, a whole number', { field: 'state' });
  if (event.timeStamp !== undefined && (typeof event.timeStamp !== 'number' || !Number.isFinite(event.timeStamp)))
    throw new WebhookPayloadError('track: expected epoch milliseconds', { field: 'timeStamp' });
  if (event.type !== undefined && typeof event.type !== 'string') throw new WebhookPayloadError('track: expected an order type string', { field: 'type' });
  if (event.exceptionCode !== undefined && !finite(event.exceptionCode)) {
    throw new WebhookPayloadError('track: expected an exception code, a whole number', { field: 'exceptionCode' });
  }
}

/**
 * The service may deliver a webhook twice (it retries on failure) or out of order. The tracker
 * keeps one history per `trackingNumber` ordered by `timeStamp`, ignores exact repeats, and
 * never lets an older event overwrite a newer state. Of events with the same `timeStamp`, in any
 * order of arrival, a final state wins over a non-final one, then the state further along the
 * spec's flows (Exception over Picked up), then the higher state code, then a fixed order by type.
 *
 * In memory it keeps {@link OrderTrackerOptions.maxOrders} orders (default 50,000), forgetting
 * the least recently updated one past that.
 *
 * Without a `store` it lives in this process's memory and answers at once. With one (Redis:
 * `createRedisTrackerStore` from `delivery-sdk/webhooks/redis`) several server instances share
 * it, and every method returns a promise: each `track` is one atomic step of the store, so of the
 * instances that receive the same event at once, at most one is told `changed`.
 *
 * @throws `ConfigurationError` at once, when `store` lacks one of its four methods.
 *
 * @example
 * ```ts
 * const tracker = createOrderTracker();
 * const handler = createWebhookHandler({
 *   onEvent: async (event) => {
 *     const { stale, current } = tracker.track(event);
 *     // not `changed`: a repeat after a failed write must write again (the same state: harmless)
 *     if (!stale) await orders.setState(current.trackingNumber, current.state);
 *   },
 * });
 * ```
 */
export function createOrderTracker(options?: { readonly store?: undefined; readonly maxOrders?: number | undefined }): OrderTracker;
export function createOrderTracker(options: { readonly store: OrderTrackerStore }): AsyncOrderTracker;
export function createOrderTracker(options: OrderTrackerOptions): OrderTracker | AsyncOrderTracker;
export function createOrderTracker(given: OrderTrackerOptions = {}): OrderTracker | AsyncOrderTracker {
  const options: OrderTrackerOptions = readArgument('options', () => ({ ...given }));
  const store = options.store;
  if (store === undefined) {
    const maxOrders = options.maxOrders ?? DEFAULT_MAX_TRACKED_ORDERS;
    if (maxOrders !== Infinity && (!Number.isSafeInteger(maxOrders) || maxOrders < 1)) {
      throw new ConfigurationError(`maxOrders: expected a positive whole number or Infinity, received ${String(maxOrders)}`);
    }
    return memoryTracker(maxOrders);
  }
  for (const method of ['record', 'current', 'history', 'forget'] as const) {
    if (typeof store?.[method] !== 'function')
      throw new ConfigurationError(
        `store.${method}: expected a function, received ${typeof store?.[method]}; pass a store such as createRedisTrackerStore({ client })`,
      );
  }
  return storeTracker(store);
}

interface OrderLog {
  /** Sorted by {@link compareEvents}: the last one is current. */
  readonly events: WebhookEvent[];
  readonly seen: Set<string>;
}

function memoryTracker(maxOrders: number): OrderTracker {
  // In the order of their last event's arrival: the first is the one to forget past maxOrders.
  const orders = new Map<string, OrderLog>();

  return {
    track(event) {
      // Every field the tracker reads, read first: an event that cannot be read changes nothing.
      const { trackingNumber, id } = readingEvent(() => (checkEvent(event), { trackingNumber: event.trackingNumber, id: eventId(event) }));
      let log = orders.get(trackingNumber);
      if (log === undefined) log = { events: [], seen: new Set() };
      else orders.delete(trackingNumber);
      orders.set(trackingNumber, log);
      if (orders.size > maxOrders) orders.delete(orders.keys().next().value as string);
      const previous = log.events.at(-1);
      const stale = previous !== undefined && compareEvents(event, previous) < 0;
      if (log.seen.has(id))
        return toldVerdict(event, { changed: false, duplicate: true, stale, current: previous ?? event, previous, version: log.events.length });
      log.seen.add(id);
      // Binary search: late events of a long history cost O(log n) comparisons each.
      let [low, high] = [0, log.events.length];
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (compareEvents(log.events[middle] as WebhookEvent, event) < 0) low = middle + 1;
        else high = middle;
      }
      log.events.splice(low, 0, event);
      return toldVerdict(event, { changed: !stale, duplicate: false, stale, current: log.events.at(-1) ?? event, previous, version: log.events.length });
    },
    current: (trackingNumber) => orders.get(trackingNumber)?.events.at(-1),
    history: (trackingNumber) => [...(orders.get(trackingNumber)?.events ?? [])],
    forget: (trackingNumber) => orders.delete(trackingNumber),
  };
}

function storeTracker(store: OrderTrackerStore): AsyncOrderTracker {
  return {
    async track(event) {
      const { trackingNumber, timeStamp, body, id, sortKey } = readingEvent(() => {
        checkEvent(event);
        const id = eventId(event);
        return { trackingNumber: event.trackingNumber, timeStamp: timeOf(event), body: encode(event), id, sortKey: sortKeyOf(event, id) };
      });
      // The store keeps `raw` and every instance reads it back: it must say what the event says.
      const reread = placementOf(body);
      if (reread.trackingNumber !== trackingNumber || eventId(reread) !== id)
        throw new WebhookPayloadError('track: raw is not the body this event was parsed from', { field: 'raw' });
      // Not through `attempt`: two async steps fewer on the path every webhook takes.
      let duplicate: boolean;
      let previous: WebhookEvent | undefined;
      let version: number | undefined;
      try {
        const recorded = await store.record({ trackingNumber, id, timeStamp, sortKey, body });
        version = Number.isSafeInteger(recorded.version) ? recorded.version : undefined;
        duplicate = recorded.duplicate;
        previous = recorded.previous === undefined ? undefined : decode(recorded.previous);
      } catch (err) {
        throw storeFailure('track', trackingNumber, err);
      }
      const stale = previous !== undefined && compareEvents(event, previous) < 0;
      // A duplicate or a stale event leaves the order's latest event where it was.
      const current = previous !== undefined && (duplicate || stale) ? previous : event;
      return toldVerdict(event, { changed: !duplicate && !stale, duplicate, stale, current, previous, version });
    },
    current: (trackingNumber) =>
      attempt('current', trackingNumber, async () => {
        const body = await store.current(trackingNumber);
        return body === undefined ? undefined : decode(body);
      }),
    history: (trackingNumber) => attempt('history', trackingNumber, async () => (await store.history(trackingNumber)).map(decode)),
    forget: (trackingNumber) => attempt('forget', trackingNumber, () => store.forget(trackingNumber)),
  };
}

/**
 * The body as the service sent it: the one form every version of the SDK reads alike. A field
 * JSON cannot write (nested too deeply for the stack) is left out rather than failing the event,
 * which the service would redeliver for ever: the fields the tracker reads are flat.
 */
function encode(event: WebhookEvent): string {
  try {
    return JSON.stringify(event.raw);
  } catch {
    const writable: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(event.raw)) {
      try {
        JSON.stringify(value);
        writable[field] = value;
      } catch {
        // left out: see above
      }
    }
    return JSON.stringify(writable);
  }
}

const decode = (body: string): WebhookEvent => parseWebhookEvent(body);

async function attempt<T>(operation: TrackerStoreError['operation'], trackingNumber: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw storeFailure(operation, trackingNumber, err);
  }
}

function storeFailure(operation: TrackerStoreError['operation'], trackingNumber: string, err: unknown): TrackerStoreError {
  if (err instanceof TrackerStoreError) return err;
  const reason = err instanceof Error ? err.message : String(err);
  return new TrackerStoreError(`The order tracker's store failed to ${operation} order ${trackingNumber}: ${reason}`, {
    operation,
    trackingNumber,
    cause: err,
  });
}
