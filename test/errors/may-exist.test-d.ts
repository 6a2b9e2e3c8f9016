import { expectTypeOf, test } from 'vitest';
import { type ApiError, type BulkCreatedDelivery, type DeliveryError, DuplicateOrderError } from '../../src/index.js';

test('every error says whether what it asked for may have happened', () => {
  expectTypeOf<DeliveryError['mayExist']>().toEqualTypeOf<boolean>();
  const error = {} as DeliveryError;
  // @ts-expect-error mayExist is the SDK's to set, not the caller's
  error.mayExist = true;
});

test('a DuplicateOrderError is an ApiError naming the reference and the order holding it', () => {
  expectTypeOf<DuplicateOrderError>().toMatchTypeOf<ApiError>();
  expectTypeOf<DuplicateOrderError['trackingNumber']>().toEqualTypeOf<string | undefined>();
  expectTypeOf<DuplicateOrderError['uniqueBusinessReference']>().toEqualTypeOf<string | undefined>();
  expectTypeOf<BulkCreatedDelivery['alreadyExisted']>().toEqualTypeOf<boolean | undefined>();
  expectTypeOf(DuplicateOrderError).toBeConstructibleWith('taken', { status: 400, request: { method: 'POST', url: 'u' }, trackingNumber: '1' });
});
