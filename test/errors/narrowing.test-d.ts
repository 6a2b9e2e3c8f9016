import { describe, expectTypeOf, it } from 'vitest';
import {
  type AddressNotServedError,
  type APIPromise,
  type ApiError,
  type BulkCreationError,
  type CityNotFoundError,
  type CodLimitExceededError,
  DeliveryClient,
  type DeliveryError,
  type DistrictNotFoundError,
  ErrorCode,
  isDeliveryError,
  type OrderStateError,
  type PlaceCandidate,
  type ValidationError,
  type WithResponse,
  type ZoneNotFoundError,
} from '../../src/index.js';

describe('isDeliveryError', () => {
  it('narrows to the class of a spec code', () => {
    const err: unknown = undefined;
    if (isDeliveryError(err, ErrorCode.CodLimitExceeded)) {
      expectTypeOf(err).toEqualTypeOf<CodLimitExceededError>();
      expectTypeOf(err.errorCode).toEqualTypeOf<3007>();
      expectTypeOf(err.source).toEqualTypeOf<'client' | 'server'>();
    }
  });

  it('narrows to an ApiError carrying an unknown code', () => {
    const err: unknown = undefined;
    if (isDeliveryError(err, 4242)) {
      expectTypeOf(err).toMatchTypeOf<ApiError>();
      expectTypeOf(err.errorCode).toEqualTypeOf<4242>();
    }
  });

  it('narrows to DeliveryError without a code', () => {
    const err: unknown = undefined;
    if (isDeliveryError(err)) expectTypeOf(err).toEqualTypeOf<DeliveryError>();
  });

  it('keeps ErrorCode values literal', () => {
    expectTypeOf(ErrorCode.CodLimitExceeded).toEqualTypeOf<3007>();
    // @ts-expect-error ErrorCode is a frozen catalogue, not a mutable record
    ErrorCode.CodLimitExceeded = 1;
  });
});

describe('address and bulk errors', () => {
  it('types candidates, the place not served, and what the service answered', () => {
    expectTypeOf<DistrictNotFoundError['candidates']>().toEqualTypeOf<readonly PlaceCandidate[]>();
    expectTypeOf<CityNotFoundError['unmatched'] | ZoneNotFoundError['unmatched'] | DistrictNotFoundError['unmatched']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<PlaceCandidate>().toEqualTypeOf<{ id: string; name: string; nameAr?: string | undefined }>();
    expectTypeOf<AddressNotServedError['availability']>().toEqualTypeOf<'dropOffAvailability' | 'pickupAvailability'>();
    expectTypeOf<NonNullable<AddressNotServedError['place']>['kind']>().toEqualTypeOf<'city' | 'zone' | 'district'>();
    expectTypeOf<AddressNotServedError['source']>().toEqualTypeOf<'client' | 'server'>();
    expectTypeOf<OrderStateError['state']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<AddressNotServedError>().toMatchTypeOf<ValidationError>();
    expectTypeOf<BulkCreationError['serviceErrors']>().toEqualTypeOf<readonly DeliveryError[]>();
    expectTypeOf<DistrictNotFoundError['inferredFrom']>().toEqualTypeOf<'message' | undefined>();
    expectTypeOf<DeliveryError['hint']>().toEqualTypeOf<string | undefined>();
  });
});

describe('APIPromise', () => {
  it('awaits to the result and offers withResponse', () => {
    const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2' });
    const call = client.request<{ trackingNumber: string }>({ method: 'GET', path: '/x' });
    expectTypeOf(call).toEqualTypeOf<APIPromise<{ trackingNumber: string }>>();
    expectTypeOf(call).resolves.toEqualTypeOf<{ trackingNumber: string }>();
    expectTypeOf(call.withResponse()).resolves.toEqualTypeOf<WithResponse<{ trackingNumber: string }>>();
  });
});
