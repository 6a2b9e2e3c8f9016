import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLIENT_RULE_CODES, type ClientRuleCode, ValidationError } from '../../src/index.js';
import { snapshotOf } from '../../src/internal/input.js';
import { checkOrderOf } from '../../src/schemas/order.js';
import { sendsAsWritten } from '../../src/schemas/order-fast.js';
import { breakers, junk, mutated, nearlyValid, type Order, pollutingJson, validOrder, validOrderOf, written } from '../support/order-arbitraries.js';
import { propertySeed } from '../support/property-seed.js';
import { runs, subsets } from '../support/sizes.js';

// The plain check (order-fast.ts) and the schemas are two writings of the same rules, both run on
// an order's snapshot (what create checks and sends). These properties hold them together: with every
// `skip` combination, the plain check passes exactly the orders the schemas pass and send as they
// are, byte for byte; it defers to the schemas for the rest.

const skipped = fc.subarray([...CLIENT_RULE_CODES]);

/**
 * The snapshot of `input` and its JSON (both undefined for `undefined`, as create has no body
 * then); `refused` when create refuses it before either check because JSON cannot carry it (a
 * BigInt, NaN, a cycle): a ValidationError naming the field, nothing sent.
 */
function wireOf(input: unknown): { json: string | undefined; value: unknown } | 'refused' {
  try {
    const value = snapshotOf(input);
    return { value, json: JSON.stringify(value) };
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return 'refused';
  }
}

/**
 * What the schemas say, and whether the plain check agrees: it passes exactly what they pass and
 * send unchanged. An input create refuses before both checks is asserted refused, never skipped.
 */
function expectAgreement(input: unknown, skip: ClientRuleCode[]): void {
  const wire = wireOf(input);
  if (wire === 'refused') return;
  const fast = sendsAsWritten(wire.value, new Set(skip));
  const schemas = checkOrderOf('order', wire.value, new Set(skip));
  const sentUnchanged = schemas.ok && JSON.stringify(schemas.value) === wire.json;
  expect(fast, JSON.stringify({ input: wire.json, skip, schemas: schemas.ok ? JSON.stringify(schemas.value) : schemas.error.message })).toBe(sentUnchanged);
}

describe('the plain order check and the schemas', () => {
  it('pass every generated valid order, with any rules skipped, sent as written', () => {
    fc.assert(
      fc.property(validOrder, skipped, (order, skip) => {
        const input = written(order);
        const wire = wireOf(input);
        expect(wire).not.toBe('refused');
        expect(sendsAsWritten(wire === 'refused' ? undefined : wire.value, new Set(skip))).toBe(true);
        expectAgreement(input, skip);
      }),
      { numRuns: runs(300) },
    );
  });

  it.each(breakers.map((breaker) => [breaker.rule, breaker] as const))('agree on orders broken by %s, with any rules skipped', (_, breaker) => {
    fc.assert(
      fc.property(validOrderOf(breaker.types), fc.double({ min: 0.01, max: 1e6, noNaN: true }), skipped, (order, n, skip) => {
        const broken = structuredClone(written(order));
        breaker.apply(broken, n);
        expectAgreement(broken, skip);
      }),
      { numRuns: 20 },
    );
  });

  it('agree on every one of the 128 skip combinations (in npm run test:full; their 16 edges in npm test), for an order broken by each breaker', () => {
    const combinations = subsets(CLIENT_RULE_CODES);
    for (const breaker of breakers) {
      const [order] = fc.sample(validOrderOf(breaker.types), { numRuns: 1, seed: 42 });
      const broken = structuredClone(written(order as Order));
      breaker.apply(broken, 7);
      for (const skip of combinations) expectAgreement(broken, skip);
    }
  });

  it('agree on valid orders with values replaced anywhere, with any rules skipped', () => {
    let refused = 0;
    const { seed, note } = propertySeed();
    fc.assert(
      fc.property(mutated, skipped, (order, skip) => {
        expectAgreement(order, skip);
        const wire = wireOf(order);
        if (wire === 'refused' || !sendsAsWritten(wire.value, new Set(skip))) refused++;
      }),
      { numRuns: runs(2000), seed },
    );
    // The mutations must reach both answers, or the property above proves little: more than a tenth refused, fewer than 95%.
    expect(refused, note).toBeGreaterThan(runs(2000) * 0.1);
    expect(refused, note).toBeLessThan(runs(2000) * 0.95);
  });

  it('agree on any other input too', () => {
    fc.assert(
      fc.property(fc.oneof(junk, pollutingJson, nearlyValid), skipped, (input, skip) => expectAgreement(input, skip)),
      { numRuns: runs(1000) },
    );
  });

  it('agree on phones written with any mix of ASCII and Eastern digits, separators, signs, spaces and letters', () => {
    // What a phone field may hold as people type it; a phone decides both answers alone here.
    const phone = fc.string({ unit: fc.constantFrom(...'0123456789٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹ -.()+x\t\u00a0'.split('')), maxLength: 20 });
    const order = { type: 10, dropOffAddress: { districtId: 'd1', firstLine: '12 Talaat Harb Street' } };
    fc.assert(
      fc.property(phone, fc.constantFrom('receiver', 'pickupLocationContact'), (typed, contact) =>
        expectAgreement({ ...order, [contact]: { phone: typed } }, []),
      ),
      { numRuns: runs(2000) },
    );
  });

  it('defer to the schemas for what they would send otherwise: a phone typed in Arabic-Indic digits, an own __proto__ key', () => {
    const order = { type: 10, dropOffAddress: { districtId: 'd1', firstLine: '12 Talaat Harb Street' } };
    const deferred = [
      { ...order, receiver: { phone: '٠١٠١٢٣٤٥٦٧٨' } },
      { ...order, receiver: { phone: '۰۱۰۱۲۳۴۵۶۷۸' } },
      JSON.parse('{"type": 10, "dropOffAddress": {"districtId": "d1", "firstLine": "12 Talaat Harb Street"}, "__proto__": {"x": 1}}'),
    ];
    for (const input of deferred) {
      expect(sendsAsWritten(input, new Set())).toBe(false);
      expectAgreement(input, []);
    }
    expect(sendsAsWritten(order, new Set())).toBe(true);
  });
});
