/**
 * How a webhook handler with `telemetry` learns the order tracker's verdict on the event it is
 * handling: it waits on the event object it passes to your callbacks, and the tracker tells what
 * it made of that object. Without telemetry nothing waits, and `track` finds nobody to tell.
 */
import type { WebhookTelemetry } from '../core/telemetry.js';
import type { WebhookEvent } from './event.js';

const waiting = new WeakMap<WebhookEvent, WebhookTelemetry>();

/** The handler is about to pass `event` to your callbacks. */
export function awaitVerdict(event: WebhookEvent, traced: WebhookTelemetry): void {
  waiting.set(event, traced);
}

/** A tracker recorded `event`: tells the handler handling it, if one is, what became of it (the first verdict counts); returns `result`. */
export function toldVerdict<R extends { readonly duplicate: boolean; readonly stale: boolean }>(event: WebhookEvent, result: R): R {
  const traced = waiting.get(event);
  if (traced === undefined) return result;
  waiting.delete(event);
  traced.verdict(result.duplicate ? 'repeat' : result.stale ? 'older' : 'changed');
  return result;
}
