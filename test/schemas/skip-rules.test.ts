// One client-side rule off, not all: `validate: { skip: [errorCode] }`, for the client and for one call.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ValidateOptions } from '../../src/core/options.js';
import type { DeliveryError } from '../../src/errors/base.js';
import {
  CodLimitExceededError,
  ConfigurationError,
  DeliveryClient,
  DeliveryImagesRequiredError,
  ErrorCode,
  type OrderInput,
  ValidationError,
} from '../../src/index.js';
import type { CheckResult } from '../../src/internal/input.js';
import { onWire } from '../../src/internal/input.js';
import { rulesToSkip } from '../../src/internal/skip-rules.js';
import { unwrap } from '../../src/schemas/issues.js';
import { checkOrderOf } from '../../src/schemas/order.js';
import { checkOrder, validateOrder } from '../../src/validation.js';
import { thrownBy, validOrders } from '../support/orders.js';
import { startWireRecorder, type WireRecorder } from '../support/wire-recorder.js';

// As the official plugin sends it: the package may be opened, and no images.
const openWithoutImages = (): Record<string, unknown> => ({ ...validOrders.deliver(), allowToOpenPackage: true });

// The schemas' check the client runs for `validate: { skip }`; the public validators take no options (below).
function check(input: unknown, options: ValidateOptions): CheckResult<OrderInput> {
  try {
    const skip = rulesToSkip(options, 'validate');
    return onWire(input, (wire) => checkOrderOf('order', wire, skip));
  } catch (error) {
    return { ok: false, error: error as DeliveryError };
  }
}
const validateWithout = (input: unknown, options: ValidateOptions): OrderInput => unwrap(check(input, options));

describe('the order checks with { skip }', () => {
  it('leave out only the rules named: 2150 off, 3007 still checked', () => {
    expect(thrownBy(() => validateOrder(openWithoutImages()))).toBeInstanceOf(DeliveryImagesRequiredError);
    expect(validateWithout(openWithoutImages(), { skip: [ErrorCode.DeliveryImagesRequired] })).toMatchObject({ allowToOpenPackage: true });
    const both = thrownBy(() => validateWithout({ ...openWithoutImages(), cod: 45_000 }, { skip: [ErrorCode.DeliveryImagesRequired] }));
    expect(both).toBeInstanceOf(CodLimitExceededError);
    expect(both.issues.map((issue) => issue.errorCode)).toEqual([3007]);
  });

  it('never leave out a rule without a code: a wrong type is still refused', () => {
    const error = thrownBy(() => validateWithout({ ...openWithoutImages(), receiver: { phone: 'abc' } }, { skip: [ErrorCode.DeliveryImagesRequired] }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues).toEqual([{ path: ['receiver', 'phone'], message: expect.stringContaining('must be a phone number') }]);
  });

  it.each<[string, () => Record<string, unknown>, number]>([
    [
      '2151 (an image URL that is not http)',
      () => ({ ...validOrders.deliver(), allowToOpenPackage: true, deliveryImages: [{ type: 'ALLOW_TO_OPEN_THE_PACKAGE', images: ['ftp://x/a.jpg'] }] }),
      2151,
    ],
    ['3005 (a positive cod on a CRP)', () => ({ ...validOrders.customerReturnPickup(), cod: 100 }), 3005],
    ['3006 (a Cash Collection without cod)', () => ({ ...validOrders.cashCollection(), cod: undefined }), 3006],
    ['3007 (cod above 30000)', () => ({ ...validOrders.deliver(), cod: 30_001 }), 3007],
    ['3008 (a refund above 30000)', () => ({ ...validOrders.customerReturnPickup(), cod: -30_001 }), 3008],
    ['3009 (an address without city, zoneId, districtId)', () => ({ ...validOrders.deliver(), dropOffAddress: { firstLine: '12 Talaat Harb Street' } }), 3009],
  ])('%s can be skipped on its own', (_, build, code) => {
    expect(checkOrder(build()).ok).toBe(false);
    expect(check(build(), { skip: [code as never] }).ok).toBe(true);
  });

  it('refuse an unknown code, or a code the SDK does not check, with a ConfigurationError that names it', () => {
    for (const skip of [[9999], [ErrorCode.CityNotFound], ['2150'], 2150]) {
      const result = check(openWithoutImages(), { skip } as never);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error).toBeInstanceOf(ConfigurationError);
        expect(result.error.message).toMatch(/skip/);
      }
    }
  });
});

it('the public validators take one argument: orders.map(checkOrder) reads no index as options', () => {
  const results = [validOrders.deliver(), openWithoutImages()].map(checkOrder);
  expect(results.map((result) => result.ok)).toEqual([true, false]);
  expect(results[1]?.ok === false && results[1].error).toBeInstanceOf(DeliveryImagesRequiredError);
  expect([validOrders.deliver(), validOrders.deliver()].map(validateOrder)).toHaveLength(2);
});

describe('the validate option of the client and of one call', () => {
  let service: WireRecorder;
  beforeAll(async () => {
    service = await startWireRecorder();
  });
  afterAll(() => service.close());
  beforeEach(() => {
    service.requests.length = 0;
  });
  const client = (validate?: unknown) =>
    new DeliveryClient({ baseUrl: service.baseUrl, apiKey: 'sk_test', maxRetries: 0, ...(validate === undefined ? {} : { validate: validate as never }) });
  const order = () => openWithoutImages() as unknown as OrderInput;

  it('client-wide: the order is sent as written, other rules still checked before sending', async () => {
    const skipping = client({ skip: [ErrorCode.DeliveryImagesRequired] });
    await skipping.deliveries.create(order());
    expect(service.requests.map((request) => request.body)).toEqual([order()]);
    await expect(skipping.deliveries.create({ ...order(), cod: 45_000 } as OrderInput)).rejects.toBeInstanceOf(CodLimitExceededError);
    expect(service.requests).toHaveLength(1);
  });

  it('for one call: that call skips the rule, the next one checks it again', async () => {
    const plain = client();
    await plain.deliveries.create(order(), { validate: { skip: [ErrorCode.DeliveryImagesRequired] } });
    await expect(plain.deliveries.create(order())).rejects.toBeInstanceOf(DeliveryImagesRequiredError);
    expect(service.requests).toHaveLength(1);
  });

  it('a call’s validate replaces the client’s: true checks every rule again, false none', async () => {
    const skipping = client({ skip: [ErrorCode.DeliveryImagesRequired] });
    await expect(skipping.deliveries.create(order(), { validate: true })).rejects.toBeInstanceOf(DeliveryImagesRequiredError);
    await client().deliveries.create({ ...order(), cod: 45_000 } as OrderInput, { validate: false });
    expect(service.requests.map((request) => (request.body as { cod: number }).cod)).toEqual([45_000]);
  });

  it('createBulk takes it too', async () => {
    // What the recorder answers is not a bulk answer: only what was sent matters here.
    await client()
      .deliveries.createBulk([order(), order()], { validate: { skip: [ErrorCode.DeliveryImagesRequired] } })
      .catch(() => undefined);
    expect(service.requests).toHaveLength(1);
    expect(service.requests[0]?.body).toMatchObject({ deliveries: [order(), order()] });
  });

  it('an unknown code is refused when the client is made, and when the call is made (nothing sent)', async () => {
    expect(() => client({ skip: [9999] })).toThrow(ConfigurationError);
    expect(() => client({ skip: [ErrorCode.CityNotFound] })).toThrow(/skip: expected the errorCode of a rule the SDK checks \(one of [\d, ]+\), received 3001/);
    expect(() => client('some')).toThrow(ConfigurationError);
    await expect(client().deliveries.create(order(), { validate: { skip: [1234 as never] } })).rejects.toBeInstanceOf(ConfigurationError);
    expect(service.requests).toEqual([]);
  });
});
