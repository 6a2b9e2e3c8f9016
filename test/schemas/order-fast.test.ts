import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wireForm } from '../../src/core/endpoint.js';
import { CLIENT_RULE_CODES, type ClientRuleCode } from '../../src/index.js';
import { checkOrderOf } from '../../src/schemas/order.js';
import { sendsAsWritten } from '../../src/schemas/order-fast.js';
import { breakers, junk, KNOWN_ORDER_FIELDS, nearlyValid, type Order, pollutingJson, validOrder, validOrderOf, written } from '../support/order-arbitraries.js';

// The plain check (order-fast.ts) and the schemas are two writings of the same rules, both run on
// an order's wire form (the JSON create sends). These properties hold them together: with every
// `skip` combination, the plain check passes exactly the orders the schemas pass and send as they
// are, byte for byte; it defers to the schemas for the rest.

const skipped = fc.subarray([...CLIENT_RULE_CODES]);

/** The wire form of `input`, or undefined when create would refuse it before any check (a BigInt, NaN). */
function wireOf(input: unknown): ReturnType<typeof wireForm> | undefined {
  try {
    return wireForm(input);
  } catch {
    return undefined;
  }
}

/** What the schemas say, and whether the plain check agrees: it passes exactly what they pass and send unchanged. */
function expectAgreement(input: unknown, skip: ClientRuleCode[]): void {
  const wire = wireOf(input);
  if (wire === undefined) return;
  const fast = sendsAsWritten(wire.value, new Set(skip));
  const schemas = checkOrderOf('order', wire.value, new Set(skip));
  const sentUnchanged = schemas.ok && JSON.stringify(schemas.value) === wire.json;
  expect(fast, JSON.stringify({ input: wire.json, skip, schemas: schemas.ok ? JSON.stringify(schemas.value) : schemas.error.message })).toBe(sentUnchanged);
}

/** Plain values a field may be set to: each type, the edges of the rules, `undefined` and `null`. */
const fieldValue = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    '',
    ' ',
    '      x',
    '123456',
    'Cairo',
    'https://cdn.example.com/a.jpg',
    'ftp://x',
    '01012345678',
    'X Bad',
    'ALLOW_TO_OPEN_THE_PACKAGE',
  ),
  fc.constantFrom(0, -0, 1, -1, 0.5, 30_000, 30_000.01, -30_000, -30_000.01, Number.NaN, Number.POSITIVE_INFINITY, true, false, [], {}),
  fc.jsonValue({ maxDepth: 2 }),
  fc.array(fc.constantFrom('https://cdn.example.com/a.jpg', '/a.jpg', 7), { maxLength: 12 }),
  fc
    .record({
      type: fc.constantFrom('ALLOW_TO_OPEN_THE_PACKAGE', 'X'),
      images: fc.array(fc.constantFrom('https://a.example/b.jpg', 'nope'), { maxLength: 11 }),
    })
    .map((entry) => [entry]),
);

/** Every path into an order's objects and arrays. */
function pathsOf(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return [];
  const keys = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  return keys.flatMap((key) => [[...prefix, key], ...pathsOf((value as Record<string | number, unknown>)[key], [...prefix, key])]);
}

/** A valid order with 1 to 3 values replaced, at paths it has or at known fields it may lack, or deleted. */
const mutated = fc
  .tuple(validOrder, fc.array(fc.tuple(fc.nat(), fc.boolean(), fieldValue, fc.boolean()), { minLength: 1, maxLength: 3 }))
  .map(([order, changes]) => {
    const copy = structuredClone(written(order)) as Order;
    for (const [pick, atKnown, value, remove] of changes) {
      const paths = pathsOf(copy);
      const path =
        atKnown || paths.length === 0
          ? [KNOWN_ORDER_FIELDS[pick % KNOWN_ORDER_FIELDS.length] as string]
          : (paths[pick % paths.length] as Array<string | number>);
      let parent = copy as Record<string | number, unknown>;
      for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
      const last = path.at(-1) as string | number;
      if (remove && !Array.isArray(parent)) delete parent[last];
      else parent[last] = structuredClone(value);
    }
    return copy;
  });

describe('the plain order check and the schemas', () => {
  it('pass every generated valid order, with any rules skipped, sent as written', () => {
    fc.assert(
      fc.property(validOrder, skipped, (order, skip) => {
        const input = written(order);
        expect(sendsAsWritten(wireOf(input)?.value, new Set(skip))).toBe(true);
        expectAgreement(input, skip);
      }),
      { numRuns: 300 },
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

  it('agree on every one of the 128 skip combinations, for an order broken by each breaker', () => {
    const combinations = Array.from({ length: 2 ** CLIENT_RULE_CODES.length }, (_, mask) => CLIENT_RULE_CODES.filter((_, bit) => (mask >> bit) & 1));
    for (const breaker of breakers) {
      const [order] = fc.sample(validOrderOf(breaker.types), { numRuns: 1, seed: 42 });
      const broken = structuredClone(written(order as Order));
      breaker.apply(broken, 7);
      for (const skip of combinations) expectAgreement(broken, skip);
    }
  });

  it('agree on valid orders with values replaced anywhere, with any rules skipped', () => {
    let refused = 0;
    fc.assert(
      fc.property(mutated, skipped, (order, skip) => {
        expectAgreement(order, skip);
        if (!sendsAsWritten(wireOf(order)?.value, new Set(skip))) refused++;
      }),
      { numRuns: 2000 },
    );
    // The mutations must reach both answers, or the property above proves little.
    expect(refused).toBeGreaterThan(200);
    expect(refused).toBeLessThan(1900);
  });

  it('agree on any other input too', () => {
    fc.assert(
      fc.property(fc.oneof(junk, pollutingJson, nearlyValid), skipped, (input, skip) => expectAgreement(input, skip)),
      { numRuns: 1000 },
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
