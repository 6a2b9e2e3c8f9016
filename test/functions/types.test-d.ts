import { describe, expectTypeOf, it } from 'vitest';
import {
  type BulkChunkOutcome,
  type BulkCreateResult,
  createBulkDeliveries,
  createDelivery,
  type DeliveryCore,
  listCities,
  streamBulkDeliveries,
} from '../../src/functions/index.js';
import type { City, OrderInput } from '../../src/index.js';

declare const core: DeliveryCore;
declare const orders: OrderInput[];

describe('delivery-sdk/functions types', () => {
  it('the bulk functions: a promise of the result, or an async generator of chunk outcomes', () => {
    expectTypeOf(createBulkDeliveries(core, orders)).toEqualTypeOf<Promise<BulkCreateResult>>();
    expectTypeOf(streamBulkDeliveries(core, orders)).toEqualTypeOf<AsyncGenerator<BulkChunkOutcome, void, undefined>>();
    // @ts-expect-error a string is not a list of orders
    void createBulkDeliveries(core, 'orders');
  });

  it('every function takes the core first', () => {
    expectTypeOf(listCities).parameter(0).toEqualTypeOf<DeliveryCore>();
    expectTypeOf(listCities(core, { countryId: 'eg' })).resolves.toEqualTypeOf<City[]>();
    // @ts-expect-error the core comes first
    void createDelivery(orders[0] as OrderInput, core);
  });

  it('orders take uniqueBusinessReference, a string', () => {
    expectTypeOf<OrderInput['uniqueBusinessReference']>().toEqualTypeOf<string | null | undefined>();
    // @ts-expect-error not a number
    const wrong: OrderInput = { type: 10, dropOffAddress: { districtId: 'd', firstLine: '12 Talaat Harb Street' }, uniqueBusinessReference: 5 };
    void wrong;
  });
});
