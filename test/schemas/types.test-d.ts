import { describe, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  type Address,
  type AddressByDistrictName,
  type CashCollectionOrder,
  type CheckResult,
  type ClientRuleCode,
  type CustomerReturnPickupOrder,
  type DeliverOrder,
  type DeliveryClientOptions,
  type DeliveryError,
  type DeliveryOrder,
  DeliveryType,
  ErrorCode,
  type ExchangeOrder,
  type FulfillmentOrder,
  type FulfillmentReturnOrder,
  type FulfillmentSendOrder,
  FulfillmentType,
  type OrderAddress,
  type OrderInput,
  type PackageSize,
  type PackageType,
  type RequestOptions,
  type ValidateSetting,
} from '../../src/index.js';
import type { AddressFields } from '../../src/schemas/address.js';
import type {
  cashCollectionSchema,
  customerReturnPickupSchema,
  deliverSchema,
  exchangeSchema,
  fulfillmentReturnSchema,
  fulfillmentSendSchema,
} from '../../src/schemas/order.js';
import { checkOrder, validateDeliveryOrder, validateFulfillmentOrder, validateFulfillmentReturn, validateOrder } from '../../src/validation.js';

const address: Address = { city: 'Cairo', districtId: 'aiJudRHeOt', firstLine: '12 Talaat Harb Street' };
const fulfillmentInfo = { items: [{ sku: 'SHIRT-M', quantity: 2 }] };

describe('the compiler enforces what each order type requires', () => {
  it('Cash Collection: cod and pickupAddress', () => {
    const ok: CashCollectionOrder = { type: DeliveryType.CashCollection, cod: 500, pickupAddress: address };
    expectTypeOf(ok).toExtend<OrderInput>();
    // @ts-expect-error cod is required
    const noCod: CashCollectionOrder = { type: 15, pickupAddress: address };
    // @ts-expect-error pickupAddress is required
    const noPickup: CashCollectionOrder = { type: 15, cod: 500 };
    // @ts-expect-error through the union too: a type 15 without cod is no order at all
    const viaUnion: OrderInput = { type: 15, pickupAddress: address };
    void [noCod, noPickup, viaUnion];
  });

  it('Deliver and Exchange: dropOffAddress', () => {
    const deliver: DeliverOrder = { type: 10, dropOffAddress: address };
    const exchange: ExchangeOrder = { type: DeliveryType.Exchange, dropOffAddress: address };
    // @ts-expect-error dropOffAddress is required
    const noDropOff: DeliverOrder = { type: DeliveryType.Deliver, cod: 100 };
    // @ts-expect-error dropOffAddress is required
    const exchangeNoDropOff: DeliveryOrder = { type: 30 };
    // @ts-expect-error dropOffAddress is required, through the union too
    const deliverViaUnion: OrderInput = { type: DeliveryType.Deliver, cod: 100 };
    // @ts-expect-error dropOffAddress is required
    const exchangeDirect: ExchangeOrder = { type: 30, cod: 100 };
    void [deliver, exchange, noDropOff, exchangeNoDropOff, deliverViaUnion, exchangeDirect];
  });

  it('CRP: pickupAddress', () => {
    const ok: CustomerReturnPickupOrder = { type: 25, pickupAddress: address, cod: -100 };
    // @ts-expect-error pickupAddress is required
    const noPickup: CustomerReturnPickupOrder = { type: 25 };
    // @ts-expect-error pickupAddress is required, through the union too
    const viaUnion: OrderInput = { type: DeliveryType.CustomerReturnPickup, dropOffAddress: address };
    void [ok, noPickup, viaUnion];
  });

  it('fulfillment: fulfillmentInfo; a fulfillment return also originalFulfillmentTrackingNumber', () => {
    const send: FulfillmentSendOrder = { type: FulfillmentType.Send, fulfillmentInfo, dropOffAddress: address };
    const back: FulfillmentReturnOrder = { type: 'CUSTOMER_RETURN_PICKUP', fulfillmentInfo, originalFulfillmentTrackingNumber: '7234258' };
    // @ts-expect-error fulfillmentInfo is required
    const noInfo: FulfillmentSendOrder = { type: 'FXF_SEND', dropOffAddress: address };
    // @ts-expect-error originalFulfillmentTrackingNumber is required
    const noOriginal: FulfillmentReturnOrder = { type: 'CUSTOMER_RETURN_PICKUP', fulfillmentInfo };
    // @ts-expect-error fulfillmentInfo is required, through the union too
    const viaUnion: FulfillmentOrder = { type: 'CUSTOMER_RETURN_PICKUP', originalFulfillmentTrackingNumber: '7234258' };
    void [send, back, noInfo, noOriginal, viaUnion];
  });

  it('catches a misspelt field; packageType and size suggest the known values and take any other string', () => {
    // @ts-expect-error `cdo` is not a field of any order
    const typo: DeliverOrder = { type: 10, dropOffAddress: address, cdo: 100 };
    const parcel: DeliverOrder = { type: 10, dropOffAddress: address, specs: { packageType: 'Parcel', size: 'MEDIUM' } };
    const spelt: DeliverOrder = { type: 10, dropOffAddress: address, specs: { packageType: 'Light Bulky', size: 'Small' } };
    // @ts-expect-error a package type is a string
    const numeric: DeliverOrder = { type: 10, dropOffAddress: address, specs: { packageType: 2 } };
    expectTypeOf<'Parcel' | 'Document' | 'Light Bulky' | 'Heavy Bulky'>().toExtend<PackageType>();
    expectTypeOf<'SMALL' | 'MEDIUM' | 'LARGE'>().toExtend<PackageSize>();
    expectTypeOf<'anything else'>().toExtend<PackageType>();
    void [typo, parcel, spelt, numeric];
  });

  it('takes null for an optional field, and numbers for building, floor and apartment', () => {
    const fromPhp: DeliverOrder = {
      type: 10,
      dropOffAddress: { city: 'Cairo', districtId: 'd1', firstLine: '12 Talaat Harb', secondLine: null, buildingNumber: 12, floor: 3, apartment: null },
      notes: null,
      receiver: { firstName: 'Mona', phone: '01012345678', email: null },
      cod: null,
    };
    // @ts-expect-error a Cash Collection's cod is still required
    const noCod: CashCollectionOrder = { type: 15, pickupAddress: address, cod: null };
    void [fromPhp, noCod];
  });
});

describe('addresses', () => {
  it('second format: cityId and districtName, with city or zoneId, and no districtId', () => {
    const byCity: AddressByDistrictName = { cityId: 'c1', districtName: 'Zamalek', city: 'Cairo', firstLine: '26 July Street' };
    const byZone: OrderAddress = { cityId: 'c1', districtName: 'Zamalek', zoneId: 'z1', firstLine: '26 July Street' };
    // @ts-expect-error 3009: neither city nor zoneId
    const neither: AddressByDistrictName = { cityId: 'c1', districtName: 'Zamalek', firstLine: '26 July Street' };
    // @ts-expect-error districtId is not used in this format
    const both: AddressByDistrictName = { cityId: 'c1', districtName: 'Zamalek', city: 'Cairo', districtId: 'd1', firstLine: '26 July Street' };
    // @ts-expect-error an order address names its district, by id or by name
    const noDistrict: OrderAddress = { city: 'Cairo', firstLine: '26 July Street' };
    void [byCity, byZone, neither, both, noDistrict];
  });
});

describe('the discriminated union', () => {
  it('narrows on type, the constants and the literals alike', () => {
    expectTypeOf<typeof DeliveryType.Deliver>().toEqualTypeOf<10>();
    const order = {} as OrderInput;
    if (order.type === DeliveryType.CashCollection) expectTypeOf(order.cod).toEqualTypeOf<number>();
    if (order.type === 'CUSTOMER_RETURN_PICKUP') expectTypeOf(order.originalFulfillmentTrackingNumber).toEqualTypeOf<string>();
    if (order.type === 10) expectTypeOf(order).toEqualTypeOf<DeliverOrder>();
  });
});

describe('the validators', () => {
  it('take unknown input and return the typed order', () => {
    expectTypeOf(validateOrder).parameter(0).toBeUnknown();
    expectTypeOf(validateOrder).returns.toEqualTypeOf<OrderInput>();
    expectTypeOf(validateDeliveryOrder).returns.toEqualTypeOf<DeliveryOrder>();
    expectTypeOf(validateFulfillmentOrder).returns.toEqualTypeOf<FulfillmentOrder>();
    expectTypeOf(validateFulfillmentReturn).returns.toEqualTypeOf<FulfillmentReturnOrder>();
  });

  it('checkOrder narrows on ok', () => {
    const result = checkOrder({});
    expectTypeOf(result).toEqualTypeOf<CheckResult<OrderInput>>();
    if (result.ok) expectTypeOf(result.value).toEqualTypeOf<OrderInput>();
    else expectTypeOf(result.error).toEqualTypeOf<DeliveryError>();
  });
});

// The public types are written out (so no zod type reaches a user's .d.ts); these prove they
// have the schemas' fields, and that whatever they admit has the shape the schemas check.
type Out<S extends () => z.ZodMiniType> = z.output<ReturnType<S>>;

describe('the declared types and the schemas agree', () => {
  it('field by field, for every order type', () => {
    expectTypeOf<keyof DeliverOrder>().toEqualTypeOf<keyof Out<typeof deliverSchema>>();
    expectTypeOf<keyof CashCollectionOrder>().toEqualTypeOf<keyof Out<typeof cashCollectionSchema>>();
    expectTypeOf<keyof CustomerReturnPickupOrder>().toEqualTypeOf<keyof Out<typeof customerReturnPickupSchema>>();
    expectTypeOf<keyof ExchangeOrder>().toEqualTypeOf<keyof Out<typeof exchangeSchema>>();
    expectTypeOf<keyof FulfillmentSendOrder>().toEqualTypeOf<keyof Out<typeof fulfillmentSendSchema>>();
    expectTypeOf<keyof FulfillmentReturnOrder>().toEqualTypeOf<keyof Out<typeof fulfillmentReturnSchema>>();
  });

  it('every declared order fits its schema’s output', () => {
    expectTypeOf<DeliverOrder>().toExtend<Out<typeof deliverSchema>>();
    expectTypeOf<CashCollectionOrder>().toExtend<Out<typeof cashCollectionSchema>>();
    expectTypeOf<CustomerReturnPickupOrder>().toExtend<Out<typeof customerReturnPickupSchema>>();
    expectTypeOf<ExchangeOrder>().toExtend<Out<typeof exchangeSchema>>();
    expectTypeOf<FulfillmentSendOrder>().toExtend<Out<typeof fulfillmentSendSchema>>();
    expectTypeOf<FulfillmentReturnOrder>().toExtend<Out<typeof fulfillmentReturnSchema>>();
    expectTypeOf<OrderAddress>().toExtend<AddressFields>();
  });
});

describe('validate: { skip }', () => {
  it('takes the codes of client-side rules only', () => {
    const client = (validate: DeliveryClientOptions['validate']) => validate;
    client({ skip: [ErrorCode.DeliveryImagesRequired, ErrorCode.CodLimitExceeded, 3009] });
    client(true);
    client(false);
    // @ts-expect-error 3001 is checked by the service only
    client({ skip: [ErrorCode.CityNotFound] });
    // @ts-expect-error not an errorCode at all
    client({ skip: [9999] });
    // @ts-expect-error a code the SDK does not check
    client({ skip: [ErrorCode.BulkCreationFailed] });
    // The validators take one argument, so `orders.map(checkOrder)` gets no index for options.
    expectTypeOf(checkOrder).parameters.toEqualTypeOf<[input: unknown]>();
    expectTypeOf<RequestOptions['validate']>().toEqualTypeOf<ValidateSetting | undefined>();
    expectTypeOf<ClientRuleCode>().toEqualTypeOf<2150 | 2151 | 3005 | 3006 | 3007 | 3008 | 3009>();
  });
});
