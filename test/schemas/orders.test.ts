import { describe, expect, it } from 'vitest';
import {
  AddressLocationRequiredError,
  CodLimitExceededError,
  CodRequiredError,
  CrpRefundCodOnlyError,
  DeliveryImagesRequiredError,
  DeliveryType,
  ErrorCode,
  FulfillmentType,
  InvalidDeliveryImageUrlError,
  isDeliveryError,
  RefundCodLimitExceededError,
  ValidationError,
} from '../../src/index.js';
import { checkOrder, validateDeliveryOrder, validateFulfillmentOrder, validateFulfillmentReturn, validateOrder } from '../../src/validation.js';
import { cairoAddress, imageUrls, pathsOf, thrownBy, validOrders } from '../support/orders.js';

describe('every order type', () => {
  it.each(Object.entries(validOrders))('accepts a valid %s order as written', (_, build) => {
    expect(validateOrder(build())).toStrictEqual(build());
  });

  it('takes the DeliveryType and FulfillmentType constants as well as the literals', () => {
    expect(validateOrder({ ...validOrders.deliver(), type: DeliveryType.Deliver }).type).toBe(10);
    expect(validateOrder({ ...validOrders.fulfillmentSend(), type: FulfillmentType.Send }).type).toBe('FXF_SEND');
  });

  it('does not change the caller’s object', () => {
    const order = { ...validOrders.deliver(), notes: undefined, specs: { packageType: 'small' } };
    const copy = structuredClone(order);
    validateOrder(order);
    expect(order).toEqual(copy);
  });

  it('sends no undefined value, at any depth, and keeps fields the SDK does not know', () => {
    const order = {
      ...validOrders.deliver(),
      notes: undefined,
      receiver: { firstName: 'Mona', email: undefined },
      dropOffAddress: { ...cairoAddress(), floor: undefined },
      flexShip: true,
    };
    const { floor: _, ...addressWithoutFloor } = cairoAddress();
    // toStrictEqual tells a key holding undefined from a missing key.
    expect(validateOrder(order)).toStrictEqual({
      ...validOrders.deliver(),
      receiver: { firstName: 'Mona' },
      dropOffAddress: addressWithoutFloor,
      flexShip: true,
    });
  });
});

describe('the order type', () => {
  it('must be one of the six the API takes', () => {
    for (const type of ['10', 'SEND', 11, null, 'fxf_send']) {
      const error = thrownBy(() => validateOrder({ ...validOrders.deliver(), type }));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.issues).toHaveLength(1);
      expect(error.message).toMatch(/^Invalid order: type: expected one of 10, 15, 25, 30, 'FXF_SEND' or 'CUSTOMER_RETURN_PICKUP', received /);
    }
  });

  it('is required', () => {
    const { type: _, ...rest } = validOrders.deliver();
    expect(thrownBy(() => validateOrder(rest)).issues[0]).toMatchObject({ path: ['type'], message: expect.stringMatching(/^required/) });
  });

  it('decides which validator takes the order', () => {
    expect(validateDeliveryOrder(validOrders.exchange()).type).toBe(30);
    expect(pathsOf(thrownBy(() => validateDeliveryOrder(validOrders.fulfillmentSend())))).toEqual(['type']);
    expect(validateFulfillmentOrder(validOrders.fulfillmentSend()).type).toBe('FXF_SEND');
    expect(validateFulfillmentOrder(validOrders.fulfillmentReturn()).type).toBe('CUSTOMER_RETURN_PICKUP');
    expect(pathsOf(thrownBy(() => validateFulfillmentOrder(validOrders.deliver())))).toEqual(['type']);
    expect(validateFulfillmentReturn(validOrders.fulfillmentReturn()).originalFulfillmentTrackingNumber).toBe('7234258');
    expect(thrownBy(() => validateFulfillmentReturn(validOrders.fulfillmentSend())).message).toContain(
      "type: expected 'CUSTOMER_RETURN_PICKUP', received 'FXF_SEND'",
    );
  });

  it('needs an object', () => {
    const given: Array<[unknown, string]> = [
      [null, 'null'],
      [undefined, 'undefined'],
      ['order', "'order'"],
      [[validOrders.deliver()], 'an array'],
    ];
    for (const [input, shown] of given) {
      expect(thrownBy(() => validateOrder(input)).issues).toEqual([{ path: [], message: `expected an order object, received ${shown}` }]);
    }
  });
});

describe('required addresses per type', () => {
  it.each([
    ['Deliver', validOrders.deliver, 'dropOffAddress'],
    ['Exchange', validOrders.exchange, 'dropOffAddress'],
    ['Cash Collection', validOrders.cashCollection, 'pickupAddress'],
    ['CRP', validOrders.customerReturnPickup, 'pickupAddress'],
  ] as const)('%s needs %s', (_, build, field) => {
    const order: Record<string, unknown> = build();
    delete order[field];
    const error = thrownBy(() => validateOrder(order));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues).toEqual([{ path: [field], message: 'required' }]);
  });

  it('a fulfillment return needs no address (the original order has them)', () => {
    const { pickupAddress: _, ...order } = validOrders.fulfillmentReturn();
    expect(validateOrder(order)).toEqual(order);
  });

  it('applies the address rules at the field’s path', () => {
    const error = thrownBy(() => validateOrder({ ...validOrders.deliver(), dropOffAddress: { firstLine: '12 Talaat Harb' } }));
    expect(error).toBeInstanceOf(AddressLocationRequiredError);
    expect(error.message).toContain('dropOffAddress: needs at least one of city, zoneId or districtId');
    expect(pathsOf(thrownBy(() => validateOrder({ ...validOrders.deliver(), dropOffAddress: { ...cairoAddress(), firstLine: 'Tahrr' } })))).toEqual([
      'dropOffAddress.firstLine',
    ]);
  });

  it('takes the marketplace pickupAddress (firstLine and city), but not as a drop-off address', () => {
    const marketplacePickup = { city: 'Cairo', firstLine: '12 Talaat Harb Street', zone: 'Downtown', district: 'Abdeen' };
    const order = { ...validOrders.cashCollection(), pickupAddress: marketplacePickup, pickupLocationContact: { firstName: 'Ali', phone: '+201001234567' } };
    expect(validateOrder(order)).toEqual({ ...order, pickupLocationContact: { firstName: 'Ali', phone: '01001234567' } });
    expect(pathsOf(thrownBy(() => validateOrder({ ...validOrders.deliver(), dropOffAddress: marketplacePickup })))).toEqual(['dropOffAddress.districtId']);
  });
});

describe('cod', () => {
  it('3006: a Cash Collection needs one', () => {
    const { cod: _, ...order } = validOrders.cashCollection();
    const error = thrownBy(() => validateOrder(order));
    expect(error).toBeInstanceOf(CodRequiredError);
    expect((error as CodRequiredError).source).toBe('client');
    expect(error.message).toBe('cod: required for Cash Collection orders (errorCode 3006)');
    expect(error.issues).toEqual([{ path: ['cod'], message: 'required for Cash Collection orders', errorCode: 3006 }]);
  });

  it('3006: a Cash Collection of 0 or less collects nothing', () => {
    for (const cod of [0, -5]) expect(thrownBy(() => validateOrder({ ...validOrders.cashCollection(), cod }))).toBeInstanceOf(CodRequiredError);
  });

  it.each([
    ['Deliver', validOrders.deliver],
    ['Cash Collection', validOrders.cashCollection],
    ['Exchange', validOrders.exchange],
    ['fulfillment send', validOrders.fulfillmentSend],
  ] as const)('3007: at most 30000 EGP on a %s', (_, build) => {
    expect(validateOrder({ ...build(), cod: 30_000 }).cod).toBe(30_000);
    const error = thrownBy(() => validateOrder({ ...build(), cod: 30_000.5 }));
    expect(error).toBeInstanceOf(CodLimitExceededError);
    expect(error.message).toContain('cod: must be at most 30000 EGP');
  });

  it('is not negative outside returns (a refund is for CRPs): a ValidationError', () => {
    const error = thrownBy(() => validateOrder({ ...validOrders.deliver(), cod: -1 }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(pathsOf(error)).toEqual(['cod']);
  });

  it.each([
    ['CRP', validOrders.customerReturnPickup],
    ['fulfillment return', validOrders.fulfillmentReturn],
  ] as const)('3005 and 3008: a %s takes only a refund (negative) of at most 30000', (_, build) => {
    expect(validateOrder({ ...build(), cod: 0 }).cod).toBe(0);
    expect(validateOrder({ ...build(), cod: -30_000 }).cod).toBe(-30_000);
    const positive = thrownBy(() => validateOrder({ ...build(), cod: 0.01 }));
    expect(positive).toBeInstanceOf(CrpRefundCodOnlyError);
    expect(positive.message).toContain('cod: must be a refund');
    const tooBig = thrownBy(() => validateOrder({ ...build(), cod: -30_001 }));
    expect(tooBig).toBeInstanceOf(RefundCodLimitExceededError);
    expect(tooBig.message).toContain('cod: a refund must be at most 30000 EGP');
  });

  it('is a finite number: NaN, Infinity and strings are refused with their path', () => {
    for (const cod of [Number.NaN, Number.POSITIVE_INFINITY, -Infinity, '100', {}]) {
      const error = thrownBy(() => validateOrder({ ...validOrders.deliver(), cod }));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.issues).toEqual([{ path: ['cod'], message: expect.stringMatching(/^expected a finite number, received /) }]);
    }
  });
});

describe('escrowInfo.amountToBeCollected', () => {
  it('is a portion of cod: 0 to cod', () => {
    for (const amount of [0, 600, 1250])
      expect(validateOrder({ ...validOrders.deliver(), escrowInfo: { amountToBeCollected: amount } })).toMatchObject({
        escrowInfo: { amountToBeCollected: amount },
      });
  });

  it('above cod, or without a cod, is refused', () => {
    const above = thrownBy(() => validateOrder({ ...validOrders.deliver(), escrowInfo: { amountToBeCollected: 1250.5 } }));
    expect(above).toBeInstanceOf(ValidationError);
    expect(above.message).toContain('escrowInfo.amountToBeCollected: must not be more than cod (1250)');
    const { cod: _, ...noCod } = validOrders.deliver();
    expect(pathsOf(thrownBy(() => validateOrder({ ...noCod, escrowInfo: { amountToBeCollected: 1 } })))).toEqual(['escrowInfo.amountToBeCollected']);
  });

  it('is not negative', () => {
    expect(pathsOf(thrownBy(() => validateOrder({ ...validOrders.deliver(), escrowInfo: { amountToBeCollected: -1 } })))).toEqual([
      'escrowInfo.amountToBeCollected',
    ]);
  });
});

describe('allowToOpenPackage and deliveryImages', () => {
  const images = (urls: string[]) => [{ type: 'ALLOW_TO_OPEN_THE_PACKAGE', images: urls }];

  it('2150: allowToOpenPackage true needs images', () => {
    for (const deliveryImages of [undefined, [], images([])]) {
      const error = thrownBy(() => validateOrder({ ...validOrders.deliver(), allowToOpenPackage: true, deliveryImages }));
      expect(error).toBeInstanceOf(DeliveryImagesRequiredError);
      expect(error.message).toContain('deliveryImages');
    }
  });

  it('takes 1 to 10 URLs per entry', () => {
    for (const count of [1, 10])
      expect(
        validateOrder({ ...validOrders.deliver(), allowToOpenPackage: true, deliveryImages: images(imageUrls(count)) }).deliveryImages?.[0]?.images,
      ).toHaveLength(count);
    const error = thrownBy(() => validateOrder({ ...validOrders.deliver(), allowToOpenPackage: true, deliveryImages: images(imageUrls(11)) }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues).toEqual([{ path: ['deliveryImages', 0, 'images'], message: 'takes at most 10 item(s)' }]);
  });

  it('needs images even when allowToOpenPackage is not set, once an entry is sent', () => {
    expect(pathsOf(thrownBy(() => validateOrder({ ...validOrders.deliver(), deliveryImages: images([]) })))).toEqual(['deliveryImages.0.images']);
    expect(validateOrder({ ...validOrders.deliver(), allowToOpenPackage: false })).toMatchObject({ allowToOpenPackage: false });
  });

  it('2151: each URL is an absolute http(s) URL', () => {
    const bad = [
      'ftp://cdn.example.com/a.jpg',
      '/products/a.jpg',
      'https://',
      'https://exa mple.com/a.jpg',
      'javascript:alert(1)',
      ' https://cdn.example.com/a.jpg',
      'https://cdn.example.com/a.jpg\n',
      'cdn.example.com/a.jpg',
    ];
    for (const url of bad) {
      const error = thrownBy(() =>
        validateOrder({ ...validOrders.deliver(), allowToOpenPackage: true, deliveryImages: images([imageUrls(1)[0] as string, url]) }),
      );
      expect(error, url).toBeInstanceOf(InvalidDeliveryImageUrlError);
      expect(error.issues).toEqual([{ path: ['deliveryImages', 0, 'images', 1], message: 'is not an absolute http(s) URL', errorCode: 2151 }]);
      expect(error.message).toContain('deliveryImages[0].images[1]');
    }
    const accepted = images(['HTTP://CDN.EXAMPLE.COM/A.JPG', 'https://[::1]:8443/a.jpg?x=1#y']);
    expect(validateOrder({ ...validOrders.deliver(), deliveryImages: accepted }).deliveryImages).toEqual(accepted);
  });

  it('takes only the type ALLOW_TO_OPEN_THE_PACKAGE', () => {
    const error = thrownBy(() => validateOrder({ ...validOrders.deliver(), deliveryImages: [{ type: 'allow_to_open_the_package', images: imageUrls(1) }] }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues).toEqual([
      { path: ['deliveryImages', 0, 'type'], message: "expected 'ALLOW_TO_OPEN_THE_PACKAGE', received 'allow_to_open_the_package'" },
    ]);
  });
});

describe('webhookUrl and webhookCustomHeaders', () => {
  it('take an absolute http(s) URL and token-named headers', () => {
    const order = {
      ...validOrders.deliver(),
      webhookUrl: 'https://shop.example/hooks/delivery',
      webhookCustomHeaders: { Authorization: 'Bearer x', 'X-Api-Key': "k!#$%&'*+.^_`|~" },
    };
    expect(validateOrder(order)).toEqual(order);
  });

  it('refuse a webhookUrl that is not absolute http(s)', () => {
    for (const webhookUrl of ['/hooks', 'ftp://shop.example/hooks', 'https://', 'shop.example/hooks']) {
      const error = thrownBy(() => validateOrder({ ...validOrders.deliver(), webhookUrl }));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.issues).toEqual([{ path: ['webhookUrl'], message: 'must be an absolute http(s) URL' }]);
    }
  });

  it('refuse header names that are not HTTP tokens, and values that could split headers', () => {
    const error = thrownBy(() =>
      validateOrder({
        ...validOrders.deliver(),
        webhookCustomHeaders: { 'X Auth': 'a', 'Bad:Name': 'a', '': 'a', 'X-Ok': 'a\r\nX-Injected: 1', 'X-Nul': 'a\u0000', 'X-Num': 5 },
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues).toEqual([
      { path: ['webhookCustomHeaders', 'X Auth'], message: 'is not a valid HTTP header name' },
      { path: ['webhookCustomHeaders', 'Bad:Name'], message: 'is not a valid HTTP header name' },
      { path: ['webhookCustomHeaders', ''], message: 'is not a valid HTTP header name' },
      { path: ['webhookCustomHeaders', 'X-Ok'], message: 'must not contain CR, LF or NUL' },
      { path: ['webhookCustomHeaders', 'X-Nul'], message: 'must not contain CR, LF or NUL' },
      { path: ['webhookCustomHeaders', 'X-Num'], message: 'expected a string (not shown: it may be a credential)' },
    ]);
  });
});

describe('specs', () => {
  it.each([
    [{ packageType: 'Parcel', size: 'MEDIUM' }],
    [{ packageType: 'Document', size: 'SMALL' }],
    [{ packageType: 'Light Bulky' }],
    [{ packageType: 'Heavy Bulky', size: 'LARGE' }],
    [{ packageType: 'small' }],
    [{ packageType: 'Parcel', size: 'Small' }],
    [{ packageType: 'Pallet', size: 'XL' }],
  ])('%j is sent as written: the caller’s spelling is never changed', (specs) => {
    expect(validateOrder({ ...validOrders.deliver(), specs }).specs).toStrictEqual(specs);
  });

  it('refuses a packageType or size that is not a string, with its path', () => {
    const error = thrownBy(() => validateOrder({ ...validOrders.deliver(), specs: { packageType: 2, size: ['M'] } }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues).toEqual([
      { path: ['specs', 'packageType'], message: 'expected a string, received 2' },
      { path: ['specs', 'size'], message: 'expected a string, received an array' },
    ]);
  });

  it('takes a whole itemsCount', () => {
    expect(pathsOf(thrownBy(() => validateOrder({ ...validOrders.deliver(), specs: { packageDetails: { itemsCount: 1.5 } } })))).toEqual([
      'specs.packageDetails.itemsCount',
    ]);
  });
});

describe('fulfillment orders', () => {
  it('need fulfillmentInfo with at least one item of a sku and a whole quantity of 1 or more', () => {
    const { fulfillmentInfo: _, ...without } = validOrders.fulfillmentSend();
    expect(thrownBy(() => validateOrder(without)).issues).toEqual([{ path: ['fulfillmentInfo'], message: 'required' }]);
    const error = thrownBy(() =>
      validateOrder({
        ...validOrders.fulfillmentSend(),
        fulfillmentInfo: {
          items: [
            { sku: ' ', quantity: 0 },
            { sku: 'A', quantity: 1.5 },
          ],
        },
      }),
    );
    expect(pathsOf(error)).toEqual(['fulfillmentInfo.items.0.sku', 'fulfillmentInfo.items.0.quantity', 'fulfillmentInfo.items.1.quantity']);
    expect(pathsOf(thrownBy(() => validateOrder({ ...validOrders.fulfillmentSend(), fulfillmentInfo: { items: [] } })))).toEqual(['fulfillmentInfo.items']);
  });

  it('keep fields of fulfillmentInfo and goodsInfo the spec does not show', () => {
    const order = {
      ...validOrders.fulfillmentSend(),
      fulfillmentInfo: { items: [{ sku: 'A', quantity: 1 }], warehouse: 'W1' },
      goodsInfo: { amount: 900, currency: 'EGP' },
    };
    expect(validateOrder(order)).toEqual(order);
  });

  it('a return needs originalFulfillmentTrackingNumber', () => {
    const { originalFulfillmentTrackingNumber: _, ...without } = validOrders.fulfillmentReturn();
    const error = thrownBy(() => validateFulfillmentReturn(without));
    expect(error.issues).toEqual([{ path: ['originalFulfillmentTrackingNumber'], message: 'required' }]);
    expect(pathsOf(thrownBy(() => validateFulfillmentReturn({ ...without, originalFulfillmentTrackingNumber: '' })))).toEqual([
      'originalFulfillmentTrackingNumber',
    ]);
  });
});

describe('an order with several problems', () => {
  const broken = () => ({
    ...validOrders.deliver(),
    cod: 45_000,
    receiver: { phone: 1012345678 },
    webhookUrl: 'hooks',
    deliveryImages: [{ type: 'ALLOW_TO_OPEN_THE_PACKAGE', images: ['not a url'] }],
  });

  it('lists every one of them, and takes the class of the first coded one', () => {
    const error = thrownBy(() => validateOrder(broken()));
    expect(error).toBeInstanceOf(CodLimitExceededError);
    expect(isDeliveryError(error, ErrorCode.CodLimitExceeded)).toBe(true);
    expect(pathsOf(error).sort()).toEqual(['cod', 'deliveryImages.0.images.0', 'receiver.phone', 'webhookUrl']);
    expect(error.issues.filter((issue) => issue.errorCode !== undefined).map((issue) => issue.errorCode)).toEqual([3007, 2151]);
    // The coded problem first, said once with its field; then the others.
    expect(error.message).toMatch(/^cod: must be at most 30000 EGP \(errorCode 3007\); /);
    expect(error.message.match(/30000/g)).toHaveLength(1);
    for (const path of ['receiver.phone', 'webhookUrl', 'deliveryImages[0].images[0]']) expect(error.message).toContain(path);
  });

  it('checkOrder returns the same error instead of throwing', () => {
    const result = checkOrder(broken());
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toBeInstanceOf(CodLimitExceededError);
      expect(result.error.message).toBe(thrownBy(() => validateOrder(broken())).message);
    }
    expect(checkOrder(validOrders.exchange())).toEqual({ ok: true, value: validOrders.exchange() });
  });
});

describe('the example of docs/orders.md', () => {
  it('throws CodLimitExceededError from the client with the cod issue', () => {
    const error = thrownBy(() =>
      validateOrder({ type: DeliveryType.CashCollection, pickupAddress: { districtId: 'aiJudRHeOt', firstLine: '12 Talaat Harb Street' }, cod: 45_000 }),
    );
    expect(isDeliveryError(error, ErrorCode.CodLimitExceeded) && error.source).toBe('client');
    expect(error.issues).toEqual([{ path: ['cod'], message: 'must be at most 30000 EGP', errorCode: 3007 }]);
  });
});
