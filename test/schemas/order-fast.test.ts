import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLIENT_RULE_CODES, type ClientRuleCode } from '../../src/index.js';
import { orderValidators } from '../../src/schemas/order.js';
import { sendsAsWritten } from '../../src/schemas/order-fast.js';
import { breakers, junk, KNOWN_ORDER_FIELDS, nearlyValid, type Order, pollutingJson, validOrder, validOrderOf, written } from '../support/order-arbitraries.js';

// The plain check (order-fast.ts) and the schemas are two writings of the same rules. These
// properties hold them together: on plain data they agree on every input, with every `skip`
// combination; on anything else the plain check may only defer to the schemas.

/** A body as the service reads it, keys sorted (their order means nothing on the wire). */
function asSent(value: unknown): string {
  const sorted = (json: unknown): unknown => {
    if (Array.isArray(json)) return json.map(sorted);
    if (typeof json !== 'object' || json === null) return json;
    return Object.fromEntries(
      Object.entries(json)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, inner]) => [key, sorted(inner)]),
    );
  };
  try {
    return JSON.stringify(sorted(JSON.parse(JSON.stringify(value))));
  } catch (error) {
    // A BigInt in a field the SDK does not know: neither body can be sent, both fail the same way.
    return `unserializable: ${(error as Error).message}`;
  }
}

const skipped = fc.subarray([...CLIENT_RULE_CODES]);

/** What the schemas say, and whether the plain check agrees: it passes exactly what they pass, sent as they would send it. */
function expectAgreement(input: unknown, skip: ClientRuleCode[]): void {
  const fast = sendsAsWritten(input, new Set(skip));
  const schemas = orderValidators.schemas(input, { skip });
  expect(fast, JSON.stringify({ input, skip, schemas: schemas.ok ? 'ok' : schemas.error.message })).toBe(schemas.ok);
  if (fast && schemas.ok) expect(asSent(input)).toBe(asSent(schemas.value));
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
        expect(sendsAsWritten(input, new Set(skip))).toBe(true);
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
        if (!sendsAsWritten(order, new Set(skip))) refused++;
      }),
      { numRuns: 2000 },
    );
    // The mutations must reach both answers, or the property above proves little.
    expect(refused).toBeGreaterThan(200);
    expect(refused).toBeLessThan(1900);
  });

  it('on any other input, pass only what the schemas pass, sent as they would send it', () => {
    fc.assert(
      fc.property(fc.oneof(junk, pollutingJson, nearlyValid), skipped, (input, skip) => {
        if (!sendsAsWritten(input, new Set(skip))) return;
        const schemas = orderValidators.schemas(input, { skip });
        expect(schemas.ok).toBe(true);
        if (schemas.ok) expect(asSent(input)).toBe(asSent(schemas.value));
      }),
      { numRuns: 1000 },
    );
  });

  it('defer to the schemas for what they would copy into something else', () => {
    const order = { type: 10, dropOffAddress: { districtId: 'd1', firstLine: '12 Talaat Harb Street' } };
    class Address {
      districtId = 'd1';
      firstLine = '12 Talaat Harb Street';
    }
    const deferred = [
      { ...order, toJSON: () => ({}) },
      { ...order, dropOffAddress: new Address() },
      JSON.parse('{"type": 10, "dropOffAddress": {"districtId": "d1", "firstLine": "12 Talaat Harb Street"}, "__proto__": {"x": 1}}'),
      Object.defineProperty({ ...order }, 'cod', {
        enumerable: true,
        get() {
          throw new Error('unreadable');
        },
      }),
    ];
    for (const input of deferred) expect(sendsAsWritten(input, new Set())).toBe(false);
    expect(sendsAsWritten(order, new Set())).toBe(true);
  });
});
