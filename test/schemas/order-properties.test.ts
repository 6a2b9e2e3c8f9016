import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeliveryError, ValidationError } from '../../src/index.js';
import {
  checkOrder,
  validateAddress,
  validateBusiness,
  validateConfirmEmail,
  validateConfirmPhone,
  validateDeliveryOrder,
  validateFulfillmentOrder,
  validateFulfillmentReturn,
  validateOrder,
  validatePickupLocations,
  validateRegisterBusinessAdmin,
  validateVerifyPhone,
} from '../../src/validation.js';
import { ALL, breakers, expectedBody, junk, nearlyValid, pollutingJson, validOrder, validOrderOf, written } from '../support/order-arbitraries.js';
import { validOrders } from '../support/orders.js';
import { propertySeed } from '../support/property-seed.js';
import { runs, sized } from '../support/sizes.js';

describe('every generated valid order', () => {
  it('passes every validator of its type, sent as written', () => {
    fc.assert(
      fc.property(validOrder, (order) => {
        const input = written(order);
        const expected = expectedBody(order);
        expect(validateOrder(input)).toStrictEqual(expected);
        const narrow = typeof order['type'] === 'number' ? validateDeliveryOrder : validateFulfillmentOrder;
        expect(narrow(input)).toStrictEqual(expected);
        expect(checkOrder(input)).toStrictEqual({ ok: true, value: expected });
      }),
      { numRuns: runs(300) },
    );
  });
});

// ---------------------------------------------------------------- one rule broken

describe('every order broken in exactly one rule', () => {
  // One property per breaker, rather than one breaker picked at random per order: a random pick
  // left the rarest breakers (one type of six, one breaker of sixteen) unapplied in about 1 run in 100.
  it.each(breakers.map((breaker) => [breaker.rule, breaker] as const))(
    '%s: fails with exactly that rule’s code, or a ValidationError at exactly its path',
    (_, breaker) => {
      fc.assert(
        fc.property(validOrderOf(breaker.types), fc.double({ min: 0.01, max: 1e6, noNaN: true }), (order, n) => {
          const broken = structuredClone(written(order));
          const expected = breaker.apply(broken, n);
          let error: unknown;
          try {
            validateOrder(broken);
          } catch (thrown) {
            error = thrown;
          }
          expect(error, breaker.rule).toBeInstanceOf(DeliveryError);
          const { errorCode, issues } = error as DeliveryError & { issues: ReadonlyArray<{ path: unknown; errorCode?: number }> };
          expect(errorCode, breaker.rule).toBe(expected.code);
          if (expected.code === undefined) expect(error, breaker.rule).toBeInstanceOf(ValidationError);
          expect(issues, breaker.rule).toEqual([expect.objectContaining({ path: expected.path })]);
          expect(issues[0]?.errorCode, breaker.rule).toBe(expected.code);
        }),
        { numRuns: 25 },
      );
    },
  );

  it('has a breaker for every type, and every breaker applies to a type that exists', () => {
    for (const type of ALL) expect(breakers.some((breaker) => breaker.types.includes(type))).toBe(true);
    for (const breaker of breakers) expect(breaker.types.length > 0 && breaker.types.every((type) => ALL.includes(type as never)), breaker.rule).toBe(true);
  });
});

// ---------------------------------------------------------------- arbitrary input

const validators: ReadonlyArray<[string, (input: unknown) => unknown]> = [
  ['validateOrder', validateOrder],
  ['validateDeliveryOrder', validateDeliveryOrder],
  ['validateFulfillmentOrder', validateFulfillmentOrder],
  ['validateFulfillmentReturn', validateFulfillmentReturn],
  ['validateAddress', validateAddress],
  ['validatePickupLocations', validatePickupLocations],
  ['validateBusiness', validateBusiness],
  ['validateRegisterBusinessAdmin', validateRegisterBusinessAdmin],
  ['validateVerifyPhone', validateVerifyPhone],
  ['validateConfirmPhone', validateConfirmPhone],
  ['validateConfirmEmail', validateConfirmEmail],
  [
    'checkOrder',
    (input) => {
      const result = checkOrder(input);
      if (!result.ok) throw result.error;
      return result.value;
    },
  ],
];

/** Whether `validate` refused the input; fails the test if it threw anything but a plain DeliveryError. */
function expectOnlyDeliveryErrors(validate: (input: unknown) => unknown, input: unknown): boolean {
  try {
    validate(input);
    return false;
  } catch (error) {
    expect(error).toBeInstanceOf(DeliveryError);
    // A `cause` would mean an unexpected exception was caught and wrapped, not a rule found.
    expect((error as DeliveryError).cause).toBeUndefined();
    expect(typeof (error as DeliveryError).message).toBe('string');
    return true;
  }
}

describe('arbitrary input', () => {
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();

  it.each(validators)('%s throws only DeliveryErrors and pollutes nothing', (_, validate) => {
    let refused = 0;
    const { seed, note } = propertySeed();
    fc.assert(
      fc.property(fc.oneof(junk, pollutingJson, nearlyValid), (input) => {
        if (expectOnlyDeliveryErrors(validate, input)) refused++;
      }),
      { numRuns: 150, seed },
    );
    // Nearly all of it is invalid: a validator that refused nothing would pass the property above.
    expect(refused, note).toBeGreaterThan(75);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  // No clock here: a validator that backtracks or recurses without end hangs into the test timeout or overflows the stack.
  // Strings of 2,000,000 characters in `npm run test:full`, a quarter of that in `npm test` (quadratic work on either is
  // far past the timeout); 100,000 levels of nesting in both, which is what overflows a stack.
  it('copes with huge strings and deep nesting', () => {
    const length = sized(500_000, 2_000_000);
    const huge = 'a'.repeat(length);
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    let deepObject: unknown = {};
    for (let i = 0; i < 100_000; i++) deepObject = { firstLine: deepObject };
    const inputs: unknown[] = [
      { ...validOrders.deliver(), dropOffAddress: { districtId: 'd', firstLine: huge } },
      { ...validOrders.deliver(), webhookCustomHeaders: { [huge]: huge, 'X-Ok': `${huge}\n` } },
      { ...validOrders.deliver(), webhookUrl: `https://shop.example/${huge}`, notes: huge, specs: { packageType: ` ${'_ '.repeat(length / 4)}x` } },
      {
        ...validOrders.deliver(),
        deliveryImages: [{ type: 'ALLOW_TO_OPEN_THE_PACKAGE', images: [`https://${'a.'.repeat(length / 4)}com/x.jpg`, `http:${'/'.repeat(length / 2)}`] }],
      },
      { ...validOrders.deliver(), receiver: deep, dropOffAddress: deepObject, extra: deep },
      { ...validOrders.fulfillmentSend(), fulfillmentInfo: { items: deep } },
      { type: huge },
      deep,
    ];
    for (const [, validate] of validators) for (const input of inputs) expectOnlyDeliveryErrors(validate, input);
    expect(expectOnlyDeliveryErrors(validateRegisterBusinessAdmin, { email: `${'@'.repeat(length / 20)}${'a.'.repeat(length / 4)}` })).toBe(true);
  });
});
