import type { WebhookEvent } from './event.js';

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

interface OrderLog {
  /** Sorted by `timeStamp`; equal times keep arrival order, so the last one is current. */
  readonly events: WebhookEvent[];
  readonly seen: Set<string>;
}

/**
 * The service may deliver a webhook twice (it retries on failure) or out of order. The tracker
 * keeps one history per `trackingNumber` ordered by `timeStamp`, ignores exact repeats, and
 * never lets an older event overwrite a newer state. Events with the same `timeStamp` count in
 * arrival order. It lives in memory: with several server instances, keep the state in your
 * database the same way (compare `timeStamp` before you overwrite).
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
// An event without a timeStamp cannot be placed in time: it counts as older than any event with
// one, so it never overwrites a known state; among such events the last to arrive is current.
const timeOf = (event: WebhookEvent): number => event.timeStamp ?? Number.NEGATIVE_INFINITY;

export function createOrderTracker(): OrderTracker {
  const orders = new Map<string, OrderLog>();

  return {
    track(event) {
      let log = orders.get(event.trackingNumber);
      if (log === undefined) {
        log = { events: [], seen: new Set() };
        orders.set(event.trackingNumber, log);
      }
      const previous = log.events.at(-1);
      const key = `${event.state}|${event.type}|${event.timeStamp}|${event.exceptionCode ?? ''}`;
      const stale = previous !== undefined && timeOf(event) < timeOf(previous);
      if (log.seen.has(key)) return { changed: false, duplicate: true, stale, current: previous ?? event, previous };
      log.seen.add(key);
      let at = log.events.length;
      while (at > 0 && timeOf(log.events[at - 1] as WebhookEvent) > timeOf(event)) at--;
      log.events.splice(at, 0, event);
      return { changed: !stale, duplicate: false, stale, current: log.events.at(-1) ?? event, previous };
    },
    current: (trackingNumber) => orders.get(trackingNumber)?.events.at(-1),
    history: (trackingNumber) => [...(orders.get(trackingNumber)?.events ?? [])],
    forget: (trackingNumber) => orders.delete(trackingNumber),
  };
}
