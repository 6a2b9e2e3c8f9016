import { ValidationError, type ValidationIssue } from '../errors/base.js';
import { isRecord } from '../internal/guards.js';
import { snapshotOf } from '../internal/input.js';
import type { FulfillmentItem } from './order-parts.js';

/** A list of items read once, as JSON; a ValidationError naming `name` for anything but `{ sku, quantity }` lines. */
function itemsOf(items: unknown, name: string): FulfillmentItem[] {
  const lines = snapshotOf(items);
  const fits = (line: unknown): boolean => isRecord(line) && typeof line['sku'] === 'string' && typeof line['quantity'] === 'number';
  if (Array.isArray(lines) && lines.every(fits)) return lines as FulfillmentItem[];
  throw new ValidationError([{ path: [name], message: 'expected a list of { sku, quantity } items' }], { subject: 'Invalid argument' });
}

function totalsBySku(items: readonly FulfillmentItem[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const item of items) totals.set(item.sku, (totals.get(item.sku) ?? 0) + item.quantity);
  return totals;
}

/**
 * Spec rule 1 of a fulfillment return: its items are some or all of the original order's.
 * Quantities add up per `sku` on both sides (an sku may appear on several lines); each sku
 * returned beyond what was sent gives one issue, at the line where the total first goes over.
 * An empty list means the return is a subset.
 *
 * Paths are those of the return order (`fulfillmentInfo.items[2].quantity`), so the issues can
 * go straight into a `ValidationError`.
 *
 * @example
 * ```ts
 * const issues = checkReturnItemsSubset(returnOrder.fulfillmentInfo.items, original.fulfillmentInfo.items);
 * if (issues.length > 0) throw new ValidationError(issues, { subject: 'Invalid fulfillment return' });
 * ```
 */
export function checkReturnItemsSubset(returnItems: readonly FulfillmentItem[], originalItems: readonly FulfillmentItem[]): ValidationIssue[] {
  const returning = itemsOf(returnItems, 'returnItems');
  const sent = totalsBySku(itemsOf(originalItems, 'originalItems'));
  const returned = new Map<string, number>();
  const issues: ValidationIssue[] = [];
  returning.forEach((item, index) => {
    const before = returned.get(item.sku) ?? 0;
    const total = before + item.quantity;
    returned.set(item.sku, total);
    const available = sent.get(item.sku);
    if (available === undefined) {
      if (before === 0) issues.push({ path: ['fulfillmentInfo', 'items', index, 'sku'], message: `'${item.sku}' is not an item of the original order` });
    } else if (total > available && before <= available) {
      issues.push({
        path: ['fulfillmentInfo', 'items', index, 'quantity'],
        message: `returns ${total} of '${item.sku}' in all, but the original order had ${available}`,
      });
    }
  });
  return issues;
}
