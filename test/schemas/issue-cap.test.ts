// Pathological but valid-looking input stays cheap to refuse: an error lists the first 100
// problems and counts the rest, and an order with a million bad items is checked without
// building a million issues. (Behaviour, not timing: the counts say how much was built.)
import { describe, expect, it } from 'vitest';
import { CodLimitExceededError, ValidationError } from '../../src/index.js';
import { checkOrder, validateOrder } from '../../src/validation.js';
import { validOrders } from '../support/orders.js';
import { sized } from '../support/sizes.js';

/** A million in `npm run test:full`, 200,000 in `npm test` (test/support/sizes.ts). */
const ITEMS = sized(200_000, 1_000_000);

const fulfillmentWith = (items: unknown[]) => ({ ...validOrders.fulfillmentSend(), fulfillmentInfo: { items } });

function refusal(input: unknown): ValidationError {
  const result = checkOrder(input);
  if (result.ok) throw new Error('expected a refusal');
  return result.error as ValidationError;
}

describe('an error lists at most 100 issues and counts the rest', () => {
  it(`${ITEMS.toLocaleString('en')} bad items (two problems each): 100 listed, ${(2 * ITEMS - 100).toLocaleString('en')} counted, and the message says so`, () => {
    const items = Array.from({ length: ITEMS }, () => ({ sku: '', quantity: 0 }));
    const error = refusal(fulfillmentWith(items));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues).toHaveLength(100);
    expect(error.unlistedIssues).toBe(2 * ITEMS - 100);
    expect(error.issues[0]).toEqual({ path: ['fulfillmentInfo', 'items', 0, 'sku'], message: 'must not be empty' });
    expect(error.issues[99]).toEqual({ path: ['fulfillmentInfo', 'items', 49, 'quantity'], message: 'must be a whole number of at least 1' });
    // The message lists 10 of the 100 and counts the others.
    expect(error.message).toMatch(new RegExp(`; and ${2 * ITEMS - 10} more$`));
  });

  it('exactly 100 problems: all listed, none counted', () => {
    const error = refusal(fulfillmentWith(Array.from({ length: 100 }, () => ({ sku: 'A', quantity: 0 }))));
    expect(error.issues).toHaveLength(100);
    expect(error.unlistedIssues).toBe(0);
    expect(error.message).toMatch(/; and 90 more$/);
  });

  it('101 problems: 100 listed, 1 counted', () => {
    const error = refusal(fulfillmentWith(Array.from({ length: 101 }, () => ({ sku: 'A', quantity: 0 }))));
    expect(error.issues).toHaveLength(100);
    expect(error.unlistedIssues).toBe(1);
  });

  it('the items of every kind of problem are counted: not an object, no sku, a name that is not text', () => {
    const items = [
      ...Array.from({ length: 150 }, () => 7),
      ...Array.from({ length: 50 }, () => ({ quantity: 1 })),
      ...Array.from({ length: 10 }, () => ({ sku: 'A', quantity: 1, name: 5 })),
    ];
    const error = refusal(fulfillmentWith(items));
    expect(error.issues.length + error.unlistedIssues).toBe(210);
    expect(error.issues[0]).toEqual({ path: ['fulfillmentInfo', 'items', 0], message: 'expected an object, received 7' });
  });

  it('a coded rule elsewhere in the order still picks the class, and the count still holds', () => {
    const items = Array.from({ length: 300 }, () => ({ sku: '', quantity: 1 }));
    const error = (() => {
      try {
        validateOrder({ ...fulfillmentWith(items), cod: 45_000 });
      } catch (caught) {
        return caught as CodLimitExceededError;
      }
      throw new Error('expected a refusal');
    })();
    expect(error).toBeInstanceOf(CodLimitExceededError);
    expect(error.issues).toHaveLength(100);
    expect(error.issues.length + error.unlistedIssues).toBe(301);
    expect(error.issues.some((issue) => issue.errorCode === 3007)).toBe(true);
  });

  it('valid items in any number pass, sent as copies without undefined values', () => {
    const items = Array.from({ length: 10_000 }, (_, i) => ({ sku: `SKU-${i}`, quantity: 1, name: undefined }));
    const order = validateOrder(fulfillmentWith(items));
    expect(order.type === 'FXF_SEND' && order.fulfillmentInfo.items[9_999]).toEqual({ sku: 'SKU-9999', quantity: 1 });
  });
});
