import { describe, expectTypeOf, it } from 'vitest';
import {
  type Address,
  type APIPromise,
  type BulkCreatedDelivery,
  type BulkCreateResult,
  type BulkCreationError,
  type BulkFailure,
  type BulkyCreatedOrder,
  type BulkyMergeGroup,
  type Business,
  type BusinessAdmin,
  type City,
  type CityDistricts,
  type Country,
  CountryId,
  type CreatedDelivery,
  DeliveryClient,
  type DeliveryError,
  type DeliveryRecord,
  type DeliveryTracking,
  DeliveryType,
  type DistrictEntry,
  type FulfillmentReturnOrder,
  type FulfillmentSendOrder,
  FulfillmentType,
  type OrderAddress,
  type PickupLocationRecord,
  previewBulkyMerge,
  type VerificationResult,
  type WithResponse,
  type Zone,
} from '../../src/index.js';

const client = new DeliveryClient({ baseUrl: 'https://api.example.com/v2' });
const dropOffAddress = { city: 'Giza', districtId: 'd1', firstLine: '12 Tahrir Street' };

describe('result types', () => {
  it('a created order has _id and trackingNumber as strings, known fields typed, others unknown', () => {
    const created = client.deliveries.create({ type: DeliveryType.Deliver, dropOffAddress });
    expectTypeOf(created).toEqualTypeOf<APIPromise<CreatedDelivery>>();
    expectTypeOf<CreatedDelivery['_id']>().toEqualTypeOf<string>();
    expectTypeOf<CreatedDelivery['trackingNumber']>().toEqualTypeOf<string>();
    expectTypeOf<CreatedDelivery['cod']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<CreatedDelivery['anythingElse']>().toEqualTypeOf<unknown>();
    expectTypeOf(client.fulfillment.create({ type: FulfillmentType.Send, fulfillmentInfo: { items: [{ sku: 'A', quantity: 1 }] } })).toEqualTypeOf<
      APIPromise<CreatedDelivery>
    >();
  });

  it('lookups are plain arrays of the spec entries; resolveAddress gives an order address', () => {
    expectTypeOf(client.lookup.cities({ countryId: CountryId.Egypt })).toEqualTypeOf<APIPromise<City[]>>();
    expectTypeOf(client.lookup.zones('c1')).toEqualTypeOf<APIPromise<Zone[]>>();
    expectTypeOf(client.lookup.districts('c1')).toEqualTypeOf<APIPromise<DistrictEntry[]>>();
    expectTypeOf<DistrictEntry['dropOffAvailability']>().toEqualTypeOf<boolean>();
    expectTypeOf(
      client.lookup.resolveAddress({ city: 'Giza', district: 'Dokki', firstLine: '12 Tahrir Street', for: 'dropOffAddress' }),
    ).resolves.toMatchTypeOf<OrderAddress>();
    expectTypeOf(CountryId.Egypt).toEqualTypeOf<'60e4482c7cb7d4bc4849c4d5'>();
    // The spec's Country table: _id (what countryId takes), name, two-letter code.
    expectTypeOf<Pick<Country, '_id' | 'name' | 'code'>>().toEqualTypeOf<{ _id: string; name: string; code: string }>();
    // @ts-expect-error a country record has its code
    const withoutCode: Country = { _id: CountryId.Egypt, name: 'Egypt' };
    void withoutCode;
  });

  it('businesses have an _id to update their locations with', () => {
    expectTypeOf(client.businesses.create({ name: 'Shop' })).toEqualTypeOf<APIPromise<Business>>();
    expectTypeOf<Business['_id']>().toEqualTypeOf<string>();
    expectTypeOf(client.businesses.updatePickupLocations('b1', [{ districtId: 'd1', firstLine: 'Tahrir' }])).toEqualTypeOf<APIPromise<Business>>();
  });

  it('every other method resolves its own result type', () => {
    const send = {} as FulfillmentSendOrder;
    expectTypeOf(client.fulfillment.createReturn({} as FulfillmentReturnOrder)).toEqualTypeOf<APIPromise<CreatedDelivery>>();
    expectTypeOf(client.fulfillment.createBulky([send])).toEqualTypeOf<APIPromise<BulkyCreatedOrder[]>>();
    expectTypeOf(previewBulkyMerge([send])).toEqualTypeOf<BulkyMergeGroup[]>();
    // One home: the merge preview is a pure function, not a method of the namespace.
    // @ts-expect-error no client.fulfillment.previewBulkyMerge
    void client.fulfillment.previewBulkyMerge;
    expectTypeOf(client.lookup.allDistricts()).toEqualTypeOf<APIPromise<CityDistricts[]>>();
    expectTypeOf<CityDistricts['districts']>().toEqualTypeOf<DistrictEntry[]>();
    expectTypeOf<City['nameAr']>().toEqualTypeOf<string | undefined>();
    expectTypeOf(client.lookup.resolveAddress({ city: 'Giza', district: 'Dokki', firstLine: '12 Tahrir Street', for: 'dropOffAddress' })).toEqualTypeOf<
      Promise<Address>
    >();
    expectTypeOf(
      client.users.registerBusinessAdmin({
        email: 'a@b.example',
        password: 'x',
        countryId: CountryId.Egypt,
        profile: { firstName: 'M', lastName: 'A', phone: '+20100' },
      }),
    ).toEqualTypeOf<APIPromise<BusinessAdmin>>();
    expectTypeOf(client.users.verifyPhone({ phone: '+20100' })).toEqualTypeOf<APIPromise<VerificationResult>>();
    expectTypeOf(client.users.confirmPhone({ phone: '+20100', token: '1' })).toEqualTypeOf<APIPromise<VerificationResult>>();
    expectTypeOf(client.users.confirmEmail({ token: '1' })).toEqualTypeOf<APIPromise<VerificationResult>>();
  });

  it('withResponse() on a resource call gives the typed result and the Fetch Response', () => {
    const call = client.deliveries.create({ type: DeliveryType.Deliver, dropOffAddress }).withResponse();
    expectTypeOf(call).toEqualTypeOf<Promise<WithResponse<CreatedDelivery>>>();
    expectTypeOf(call).resolves.toHaveProperty('data').toEqualTypeOf<CreatedDelivery>();
    expectTypeOf(call).resolves.toHaveProperty('response').toEqualTypeOf<Response>();
    expectTypeOf(client.lookup.cities({ countryId: CountryId.Egypt }).withResponse())
      .resolves.toHaveProperty('data')
      .toEqualTypeOf<City[]>();
  });

  it('createBulk resolves the result; the error carries the same, typed', () => {
    expectTypeOf(client.deliveries.createBulk([{ type: DeliveryType.Deliver, dropOffAddress }])).toEqualTypeOf<Promise<BulkCreateResult>>();
    expectTypeOf<BulkCreatedDelivery['index']>().toEqualTypeOf<number>();
    // The service's bulk answer lists ids without saying whose: they are there only when certain.
    expectTypeOf<BulkCreatedDelivery['trackingNumber']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<BulkCreatedDelivery['_id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<BulkCreateResult['createdIds']>().toEqualTypeOf<string[]>();
    expectTypeOf<BulkFailure['error']>().toEqualTypeOf<DeliveryError>();
    expectTypeOf<BulkFailure['mayExist']>().toEqualTypeOf<boolean>();
    expectTypeOf<BulkCreationError['created']>().toEqualTypeOf<readonly BulkCreatedDelivery[]>();
    expectTypeOf<BulkCreationError['result']>().toEqualTypeOf<BulkCreateResult>();
    expectTypeOf<NonNullable<BulkCreateResult['stopped']>['at']>().toEqualTypeOf<number>();
  });
});

describe('inputs', () => {
  it('createBulk takes arrays, generators and async iterables of orders', () => {
    function* rows() {
      yield { type: DeliveryType.Deliver, dropOffAddress } as const;
    }
    async function* stream() {
      yield { type: DeliveryType.CashCollection, pickupAddress: dropOffAddress, cod: 10 } as const;
    }
    expectTypeOf(client.deliveries.createBulk(rows())).toEqualTypeOf<Promise<BulkCreateResult>>();
    expectTypeOf(client.deliveries.createBulk(stream(), { chunkSize: 50, concurrency: 2, onProgress: (p) => p.done })).toEqualTypeOf<
      Promise<BulkCreateResult>
    >();
  });

  it("types a merchant's month: tracking, waiting, several warehouses, several merchants", () => {
    expectTypeOf(client.deliveries.track('70000012')).toEqualTypeOf<APIPromise<DeliveryTracking>>();
    expectTypeOf(client.deliveries.waitForState('70000012', { until: (state) => state === 45 })).toEqualTypeOf<Promise<DeliveryRecord>>();
    expectTypeOf(client.pickupLocations.create({ districtId: 'd', firstLine: '5 Makram Ebeid Street' })).toEqualTypeOf<APIPromise<PickupLocationRecord>>();
    expectTypeOf(client.pickupLocations.delete('loc-1')).toEqualTypeOf<APIPromise<void>>();
    expectTypeOf(client.withOptions({ apiKey: 'merchant-key' })).toEqualTypeOf<DeliveryClient>();
    expectTypeOf(client.deliveries.get('70000012', { apiKey: 'merchant-key' })).toEqualTypeOf<APIPromise<DeliveryRecord>>();
    // @ts-expect-error a pickup location needs districtId and firstLine
    void client.pickupLocations.create({ locationName: 'Warehouse' });
    // @ts-expect-error until is told the state code, a number
    void client.deliveries.waitForState('70000012', { until: (state: string) => state === 'Delivered' });
  });

  it('refuses what the compiler can know is wrong', () => {
    // @ts-expect-error a Cash Collection needs cod
    void client.deliveries.create({ type: DeliveryType.CashCollection, pickupAddress: dropOffAddress });
    // @ts-expect-error fulfillment.create takes FXF_SEND orders only
    void client.fulfillment.create({ type: FulfillmentType.CustomerReturnPickup, fulfillmentInfo: { items: [] }, originalFulfillmentTrackingNumber: '1' });
    // @ts-expect-error lookups need a countryId for cities
    void client.lookup.cities({});
    // @ts-expect-error resolveAddress is told the field the address goes in: dropOffAddress or pickupAddress
    void client.lookup.resolveAddress({ city: 'Giza', district: 'Dokki', firstLine: '12 Tahrir Street', for: 'both' });
    // @ts-expect-error there is no default: a pickup checked for drop-off resolves districts the service does not pick up from
    void client.lookup.resolveAddress({ city: 'Giza', district: 'Dokki', firstLine: '12 Tahrir Street' });
    // @ts-expect-error a marketplace business takes salesChannel as an array
    void client.businesses.create({ name: 'Shop', autoCreatePickups: true, salesChannel: 'FACEBOOK_SELLER' });
  });
});
