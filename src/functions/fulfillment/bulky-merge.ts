import { ValidationError, type ValidationIssue } from '../../errors/index.js';
import { isRecord, shown } from '../../internal/guards.js';
import { snapshotOf } from '../../internal/input.js';
import type { FulfillmentItem, FulfillmentSendOrder } from '../../schemas/index.js';
import { receiverPhoneOf } from '../../schemas/predicates.js';

/** One order the bulky upload will create: the elements of one customer, merged. */
export interface BulkyMergeGroup {
  /** The customer's `receiver.phone` in the one form the SDK sends it (`01012345678` for `+20 10 1234 5678`): what the service merges by. */
  receiverPhone: string;
  /** Input indexes of the elements merged into this order, in input order. */
  mergedFrom: number[];
  /** The order as the service will create it: the first element's fields, with the items of all of them combined per `sku`. */
  order: FulfillmentSendOrder;
  /**
   * Fields other than `fulfillmentInfo` that differ between the merged elements: only the first
   * element's value is kept. Check `cod` above all: two orders of 100 merge into one of 100, not 200.
   */
  differingFields: string[];
}

/** Compares two values of the orders' wire form, as JSON. */
const differs = (a: unknown, b: unknown): boolean => JSON.stringify(a) !== JSON.stringify(b);

function combine(into: Map<string, FulfillmentItem>, items: readonly FulfillmentItem[]): void {
  for (const item of items.filter(isRecord)) {
    const known = into.get(item.sku);
    into.set(item.sku, known === undefined ? { ...item } : { ...known, quantity: known.quantity + item.quantity });
  }
}

/**
 * Shows, without sending anything, how `fulfillment.createBulky` will merge its elements: one
 * order per customer phone (`receiver.phone`), with the items of that customer's elements
 * combined (quantities of the same `sku` added up) and the other fields of the first element.
 *
 * @throws `ValidationError` when an element has no `receiver.phone` (the service could not merge it).
 *
 * @example
 * ```ts
 * for (const group of previewBulkyMerge(bulky)) {
 *   if (group.differingFields.includes('cod')) console.warn(`orders ${group.mergedFrom} become one: only the first cod is kept`);
 * }
 * ```
 */
export function previewBulkyMerge(given: readonly FulfillmentSendOrder[]): BulkyMergeGroup[] {
  // Read once, as createBulky sends them (what JSON cannot carry is refused the same way): its preview is of those bytes.
  const orders = snapshotOf(given);
  if (!Array.isArray(orders))
    throw new ValidationError([{ path: [], message: `expected an array of orders, received ${shown(given)}` }], { subject: 'Invalid bulky upload' });
  const issues: ValidationIssue[] = [];
  const groups = new Map<string, { mergedFrom: number[]; elements: FulfillmentSendOrder[] }>();
  orders.forEach((order, index) => {
    const phone = receiverPhoneOf(order);
    if (phone === undefined) {
      issues.push({ path: [index, 'receiver', 'phone'], message: 'required: bulky orders are merged by it' });
      return;
    }
    const group = groups.get(phone) ?? { mergedFrom: [], elements: [] };
    group.mergedFrom.push(index);
    group.elements.push(order);
    groups.set(phone, group);
  });
  if (issues.length > 0) throw new ValidationError(issues, { subject: 'Invalid bulky upload' });

  return [...groups].map(([receiverPhone, { mergedFrom, elements }]) => {
    const [first] = elements as [FulfillmentSendOrder];
    const items = new Map<string, FulfillmentItem>();
    for (const element of elements) combine(items, Array.isArray(element.fulfillmentInfo?.items) ? element.fulfillmentInfo.items : []);
    const differing = new Set<string>();
    for (const element of elements.slice(1)) {
      for (const key of new Set([...Object.keys(first), ...Object.keys(element)])) {
        if (key === 'fulfillmentInfo') continue;
        const a = (first as unknown as Record<string, unknown>)[key];
        const b = (element as unknown as Record<string, unknown>)[key];
        if (differs(a, b)) differing.add(key);
      }
    }
    const order: FulfillmentSendOrder = { ...first, fulfillmentInfo: { ...first.fulfillmentInfo, items: [...items.values()] } };
    return { receiverPhone, mergedFrom, order, differingFields: [...differing] };
  });
}
