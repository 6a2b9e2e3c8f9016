// Events of one order with the same timeStamp: which one is current, whatever order they arrive
// in. One list for the in-memory tracker and the Redis store, which must agree.
import { parseWebhookEvent, type WebhookEvent } from '../../src/webhooks/index.js';
import { T0, webhookBody } from '../support/webhook-bodies.js';

export interface TieCase {
  readonly why: string;
  readonly bodies: ReadonlyArray<Record<string, unknown>>;
  /** The index in `bodies` of the event that must end current. */
  readonly current: number;
}

const at = (state: number, extra: Record<string, unknown> = {}): Record<string, unknown> => webhookBody({ state, timeStamp: T0, ...extra });

export const TIE_CASES: readonly TieCase[] = [
  { why: 'a final state beats a non-final one (Delivered over Picked up)', bodies: [at(45), at(41)], current: 0 },
  { why: 'the later state by the known transitions (Exception after Picked up)', bodies: [at(41), at(47)], current: 1 },
  { why: 'the later state by the known transitions (Fulfilled after Pickup requested)', bodies: [at(25), at(10)], current: 0 },
  { why: 'Archived files away a settled order: it beats the final state it follows (Delivered)', bodies: [at(104), at(45)], current: 0 },
  { why: 'two final states: the higher code (Terminated over Delivered)', bodies: [at(48), at(45)], current: 0 },
  { why: 'Archived also beats a non-final state it cannot follow', bodies: [at(41), at(104)], current: 1 },
  { why: 'states the flows do not show: the higher code', bodies: [at(20), at(21)], current: 1 },
  { why: 'the same state: a fixed order by type', bodies: [at(24, { type: 'RTO' }), at(24)], current: 0 },
  { why: 'three at once along a flow', bodies: [at(41), at(45), at(24)], current: 1 },
  {
    why: 'events without a timeStamp follow the same rule',
    bodies: [
      { ...at(45), timeStamp: undefined },
      { ...at(24), timeStamp: undefined },
    ],
    current: 0,
  },
];

/** Every order of arrival of `items`. */
export function arrivals<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => arrivals([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/** The case's events, parsed, for the given tracking number. */
export function tieEvents(tieCase: TieCase, trackingNumber: string): WebhookEvent[] {
  return tieCase.bodies.map((body) => parseWebhookEvent({ ...body, trackingNumber }));
}
