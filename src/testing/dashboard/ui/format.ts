// How values read: times in the sandbox's clock, money, merchants by name. Every value the page
// shows goes into the page as text (preact sets text nodes and attributes, never HTML).
import { html } from 'htm/preact';
import type { ordersView } from '../views.js';

/** A merchant as the views name it (src/testing/dashboard/views.ts): by id and business name, never by key. */
export type Merchant = ReturnType<typeof ordersView>['merchants'][number];

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

const day = (d: Date): string => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** `13:45:02.120` today, `2026-11-27 13:45:02.120` another day: local time, to the millisecond (tests make many changes a second). */
export function time(epochMs: number | null | undefined): string {
  if (typeof epochMs !== 'number') return '—';
  const d = new Date(epochMs);
  const clock = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
  return day(d) === day(new Date()) ? clock : `${day(d)} ${clock}`;
}

export const money = (cod: number | null | undefined): string => (typeof cod === 'number' ? `${cod} EGP` : '—');

export function merchantName(merchants: readonly Merchant[] | undefined, id: string | null | undefined): string {
  if (id === null || id === undefined) return '—';
  const found = merchants?.find((merchant) => merchant.id === id);
  return found === undefined ? id : `${found.name} (${id})`;
}

/** An order's tracking number as the link to its page, wherever it is shown. */
export const orderLink = (trackingNumber: string) => html`<a href=${`#/orders/${encodeURIComponent(trackingNumber)}`}>${trackingNumber}</a>`;

/** A JSON value for reading, as text. */
export const pretty = (value: unknown): string => JSON.stringify(value, null, 2) ?? '';

/** A value of an order as sent, for a definition list: text as itself, anything else as JSON. */
export const fieldText = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : pretty(value);

/** An object's fields as a definition list. */
export function fields(value: unknown) {
  if (typeof value !== 'object' || value === null) return html`<p class="muted">Not sent.</p>`;
  return html`<dl class="fields">
    ${Object.entries(value).map(([name, item]) => html`<dt>${name}</dt><dd>${fieldText(item)}</dd>`)}
  </dl>`;
}
