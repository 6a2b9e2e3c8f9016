import { describe, expect, it } from 'vitest';
import { checkReturnItemsSubset, type FulfillmentItem, ValidationError } from '../../src/index.js';

const original: FulfillmentItem[] = [
  { sku: 'SHIRT-M', quantity: 2 },
  { sku: 'BELT', quantity: 1 },
  { sku: 'SHIRT-M', quantity: 1 },
];

describe('a fulfillment return’s items are a subset of the original order’s (spec rule 1)', () => {
  it('accepts some or all of the items, quantities added up per sku on both sides', () => {
    expect(checkReturnItemsSubset([{ sku: 'BELT', quantity: 1 }], original)).toEqual([]);
    expect(
      checkReturnItemsSubset(
        [
          { sku: 'SHIRT-M', quantity: 3 },
          { sku: 'BELT', quantity: 1 },
        ],
        original,
      ),
    ).toEqual([]);
    expect(
      checkReturnItemsSubset(
        [
          { sku: 'SHIRT-M', quantity: 1 },
          { sku: 'SHIRT-M', quantity: 2 },
        ],
        original,
      ),
    ).toEqual([]);
  });

  it('reports more than was sent, once per sku, at the line where the total goes over', () => {
    const returned = [
      { sku: 'SHIRT-M', quantity: 2 },
      { sku: 'SHIRT-M', quantity: 2 },
      { sku: 'SHIRT-M', quantity: 1 },
    ];
    expect(checkReturnItemsSubset(returned, original)).toEqual([
      { path: ['fulfillmentInfo', 'items', 1, 'quantity'], message: "returns 4 of 'SHIRT-M' in all, but the original order had 3" },
    ]);
  });

  it('reports an sku the original order did not have', () => {
    expect(
      checkReturnItemsSubset(
        [
          { sku: 'HAT', quantity: 1 },
          { sku: 'HAT', quantity: 1 },
        ],
        original,
      ),
    ).toEqual([{ path: ['fulfillmentInfo', 'items', 0, 'sku'], message: "'HAT' is not an item of the original order" }]);
  });

  it('gives issues a ValidationError can carry, paths and all', () => {
    const issues = checkReturnItemsSubset([{ sku: 'BELT', quantity: 2 }], original);
    expect(new ValidationError(issues, { subject: 'Invalid fulfillment return' }).message).toBe(
      "Invalid fulfillment return: fulfillmentInfo.items[0].quantity: returns 2 of 'BELT' in all, but the original order had 1",
    );
  });
});
