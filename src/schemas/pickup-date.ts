// The pickup calendar, without the schemas: the main entry publishes it without loading zod.

/** A calendar date as the pickup calls write it, `YYYY-MM-DD`; the compiler refuses most other strings, the SDK the rest before sending. */
export type PickupDate = `${number}-${number}-${number}`;

/** The two pickup time slots the integrations send. */
export type PickupTimeSlot = '10:00 to 13:00' | '13:00 to 16:00';

/** The time slots, in a list (e.g. for a form). */
export const PICKUP_TIME_SLOTS: readonly PickupTimeSlot[] = ['10:00 to 13:00', '13:00 to 16:00'];

/** Whether `text` is a real calendar date written `YYYY-MM-DD`. */
export function isPickupDate(text: unknown): text is PickupDate {
  if (typeof text !== 'string') return false;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
