// The input is read once into a snapshot the SDK owns (internal/input.ts, snapshotOf), and that
// snapshot is what is checked and what is written. These tests hold it to JSON's own reading:
// a differential fuzz against `JSON.parse(JSON.stringify(input))` over values of every kind
// (getters, Proxies, toJSON, wrapper objects, class instances, `__proto__` keys, holes), and what
// JSON cannot carry refused naming the field. `npm run fuzz:wire` (and
// `npm run test:full`) runs the fuzz at full size: 200,000 values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, ValidationError } from '../../src/index.js';
import { MAX_DEPTH, snapshotOf, writeJson } from '../../src/internal/input.js';
import { mulberry32 } from '../../src/testing/random.js';
import { junk } from '../support/order-arbitraries.js';
import { FULL } from '../support/sizes.js';

const VALUES = FULL ? 200_000 : 4_000;
/** Minutes on a loaded machine at full size; the suite's own limit otherwise. */
const FULL_TIMEOUT = FULL ? 3_600_000 : undefined;

class Refused extends Error {}

/** Whether `value` is a Number object (its slot, not its prototype: a Proxy of one is no number). */
function numberObject(value: unknown): value is number {
  try {
    Number.prototype.valueOf.call(value);
    return true;
  } catch {
    return false;
  }
}

/** The reference: JSON's own text, refused where JSON throws or would write a non-finite number as `null`. */
function reference(input: unknown): { ok: true; json: string | undefined } | { ok: false } {
  try {
    const json = JSON.stringify(input, (_key, value: unknown) => {
      const number = typeof value === 'number' ? value : numberObject(value) ? Number.prototype.valueOf.call(value) : 0;
      if (!Number.isFinite(number)) throw new Refused();
      return value;
    });
    return { ok: true, json };
  } catch {
    return { ok: false };
  }
}

class Row {
  constructor(fields: Record<string, unknown>) {
    Object.assign(this, fields);
  }
}

/**
 * `value` dressed as callers' objects come: some objects behind a Proxy, some fields behind a
 * getter (that answers the same each time), some values behind `toJSON`, class instances,
 * fields JSON leaves out (non-enumerable, symbol-keyed, functions, `undefined`), NaN, cycles.
 */
function dressed(value: unknown, random: () => number, depth = 0): unknown {
  const roll = random();
  if (roll < 0.02) return Number.NaN;
  if (roll < 0.03) return () => value;
  if (roll < 0.04) return Symbol('s');
  if (roll < 0.07) return { toJSON: () => value };
  if (typeof value !== 'object' || value === null || depth > 6) return value;
  if (value instanceof Map || value instanceof Set || value instanceof Date) return value;
  const isArray = Array.isArray(value);
  let dressedValue: Record<string | number, unknown> | unknown[];
  if (isArray) dressedValue = (value as unknown[]).map((item) => dressed(item, random, depth + 1));
  else {
    const target: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : random() < 0.1 ? new Row({}) : {};
    for (const key of Object.keys(value)) {
      const field = dressed((value as Record<string, unknown>)[key], random, depth + 1);
      if (random() < 0.15) Object.defineProperty(target, key, { get: () => field, enumerable: true, configurable: true });
      else Object.defineProperty(target, key, { value: field, enumerable: true, writable: true, configurable: true });
    }
    if (random() < 0.1) Object.defineProperty(target, 'hidden', { value: 1, enumerable: false });
    if (random() < 0.1) (target as Record<symbol, unknown>)[Symbol('key')] = 1;
    if (random() < 0.05) target['gone'] = undefined;
    dressedValue = target;
  }
  if (random() < 0.02) (dressedValue as Record<string, unknown>)['self'] = dressedValue;
  const wrap = random();
  if (wrap < 0.1) return new Proxy(dressedValue, {});
  if (wrap < 0.15)
    return new Proxy(dressedValue, { get: (target, key, receiver) => Reflect.get(target, key, receiver), ownKeys: (target) => Reflect.ownKeys(target) });
  return dressedValue;
}

/** Equal as JSON values: the same prototypes (plain objects and arrays only), own keys in the same order, numbers by Object.is. */
function sameJsonValue(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b) || ![Object.prototype, Array.prototype].includes(Object.getPrototypeOf(a))) return false;
  const keys = Reflect.ownKeys(a);
  if (JSON.stringify(keys) !== JSON.stringify(Reflect.ownKeys(b))) return false;
  return keys.every((key) => sameJsonValue((a as Record<PropertyKey, unknown>)[key], (b as Record<PropertyKey, unknown>)[key]));
}

const anything = fc.oneof(
  junk,
  fc.anything({ withTypedArray: true, withBoxedValues: true, withSparseArray: true, withNullPrototype: true, withDate: true, maxDepth: 3 }),
  fc.tuple(junk, fc.integer()).map(([value, seed]) => dressed(value, mulberry32(seed))),
);

describe('the snapshot is what JSON would read, without the text between', () => {
  it(
    `for ${VALUES.toLocaleString('en-US')} generated values: refused where JSON refuses, else byte for byte and value for value`,
    () => {
      let accepted = 0;
      fc.assert(
        fc.property(anything, (input) => {
          const expected = reference(input);
          let snapshot: unknown;
          try {
            snapshot = snapshotOf(input);
          } catch (error) {
            expect(error).toBeInstanceOf(ValidationError);
            expect(expected.ok, (error as Error).message).toBe(false);
            return;
          }
          expect(expected.ok).toBe(true);
          if (!expected.ok) return;
          accepted++;
          expect(JSON.stringify(snapshot)).toBe(expected.json);
          if (expected.json !== undefined) expect(sameJsonValue(snapshot, JSON.parse(expected.json))).toBe(true);
        }),
        { numRuns: VALUES },
      );
      // Most generated values are sendable: a reader that refused everything would pass the property above.
      expect(accepted).toBeGreaterThan(VALUES / 2);
    },
    FULL_TIMEOUT,
  );

  it('reads each field once: a getter, a Proxy trap and a toJSON run once, and what they answer later is not in it', () => {
    let reads = 0;
    const order = Object.defineProperty({ type: 10 }, 'cod', { enumerable: true, get: () => (++reads === 1 ? 250 : 99_999) });
    const gets: string[] = [];
    const receiver = new Proxy(
      { firstName: 'Mona', phone: '01012345678' },
      { get: (target, key, own) => (gets.push(String(key)), Reflect.get(target, key, own)) },
    );
    let toJsonCalls = 0;
    const specs = { toJSON: () => ({ packageType: ++toJsonCalls === 1 ? 'SMALL' : 'HUGE' }) };
    const snapshot = snapshotOf({ ...order, receiver, specs }) as Record<string, unknown>;
    // The spread read `cod` once; the snapshot reads the copy's data field.
    expect(reads).toBe(1);
    expect(snapshot).toEqual({ type: 10, cod: 250, receiver: { firstName: 'Mona', phone: '01012345678' }, specs: { packageType: 'SMALL' } });
    // `toJSON` (looked up, found missing) and each field, once each.
    expect(gets).toEqual(['toJSON', 'firstName', 'phone']);
    expect(toJsonCalls).toBe(1);
    // The snapshot is the SDK's own: changing the caller's objects changes nothing in it.
    (receiver as { phone: string }).phone = '0';
    expect((snapshot['receiver'] as { phone: string }).phone).toBe('01012345678');
    expect(snapshotOf(order)).toEqual({ type: 10, cod: 99_999 });
  });

  it('reads an array whose length lies (a Proxy) to the length JSON reads: a whole number, 0 for less', () => {
    for (const length of [-3, 0, 1.7, '2', Number.NaN, 3]) {
      const input = new Proxy([1, 2, 3], { get: (target, key, receiver) => (key === 'length' ? length : Reflect.get(target, key, receiver)) });
      expect(JSON.stringify(snapshotOf(input)), String(length)).toBe(JSON.stringify(input));
    }
  });

  it('copies an own __proto__ key as an own key, as JSON.parse does, never as the prototype', () => {
    const input = JSON.parse('{"type":10,"__proto__":{"polluted":true}}') as unknown;
    const snapshot = snapshotOf(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(snapshot)).toBe(Object.prototype);
    expect(Object.keys(snapshot)).toEqual(['type', '__proto__']);
    expect(JSON.stringify(snapshot)).toBe('{"type":10,"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('unwraps Number, String and Boolean objects, writes -0 as 0, holes as null, and leaves out what JSON leaves out', () => {
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    const input = {
      cod: new Number(250),
      notes: new String('call'),
      allowToOpenPackage: new Boolean(false),
      zero: -0,
      sparse,
      gone: undefined,
      fn: () => 1,
      [Symbol('key')]: 1,
      list: [undefined, () => 1, Symbol('s')],
      when: new Date(Date.UTC(2026, 10, 27)),
    };
    const snapshot = snapshotOf(input);
    expect(snapshot).toStrictEqual({
      cod: 250,
      notes: 'call',
      allowToOpenPackage: false,
      zero: 0,
      sparse: [1, null, 3],
      list: [null, null, null],
      when: '2026-11-27T00:00:00.000Z',
    });
    expect(Object.is((snapshot as { zero: number }).zero, 0)).toBe(true);
  });

  it('knows a wrapper by its slot, as JSON does, not by its tag or its prototype', () => {
    class Amount extends Number {
      get [Symbol.toStringTag]() {
        return 'Amount';
      }
    }
    class Faked {
      readonly n = 7;
      get [Symbol.toStringTag]() {
        return 'Number';
      }
      valueOf() {
        return 7;
      }
    }
    const input = {
      cod: new Amount(250),
      faked: new Faked(),
      tagged: { [Symbol.toStringTag]: 'String', n: 1 },
    };
    expect(snapshotOf(input)).toStrictEqual({ cod: 250, faked: { n: 7 }, tagged: { n: 1 } });
    expect(snapshotOf(input)).toStrictEqual(JSON.parse(JSON.stringify(input)));
    // JSON reads a Number object by ToNumber: a valueOf answering a BigInt is refused, as JSON refuses it.
    const big = Object.assign(new Number(1), { valueOf: () => 1n });
    expect(() => JSON.stringify({ cod: big })).toThrow(TypeError);
    expect(() => snapshotOf({ cod: big })).toThrow(ValidationError);
  });
});

describe('what JSON cannot carry is refused, naming the field', () => {
  const refusal = (input: unknown): ValidationError => {
    try {
      snapshotOf(input);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return error as ValidationError;
    }
    throw new Error('not refused');
  };
  const cyclic: Record<string, unknown> = { firstLine: '12 Talaat Harb' };
  cyclic['self'] = cyclic;
  let deep: unknown = {};
  for (let i = 0; i < 100_000; i++) deep = { firstLine: deep };
  const boom = (): never => {
    throw new RangeError('gone');
  };

  it.each<[string, unknown, Array<string | number>, RegExp]>([
    ['NaN, which JSON would send as null', { type: 10, cod: Number.NaN }, ['cod'], /^expected a finite number, received NaN$/],
    ['Infinity deep in a list', { items: [{ quantity: 1 }, { quantity: -Infinity }] }, ['items', 1, 'quantity'], /received -Infinity/],
    ['NaN inside a Number object', { cod: new Number(Number.NaN) }, ['cod'], /received NaN/],
    ['a BigInt', { cod: 250n }, ['cod'], /received a BigInt/],
    ['a cycle', { dropOffAddress: cyclic }, ['dropOffAddress', 'self'], /contains itself/],
    ['nesting deeper than JSON can write', { receiver: deep }, ['receiver'], new RegExp(`more than ${MAX_DEPTH} levels`)],
    ['a getter that throws', { receiver: Object.defineProperty({}, 'phone', { enumerable: true, get: boom }) }, ['receiver', 'phone'], /\(gone\)/],
    ['a toJSON that throws', { specs: { toJSON: boom } }, ['specs'], /\(gone\)/],
    ['a Proxy whose traps throw', { receiver: new Proxy({}, { ownKeys: boom }) }, ['receiver'], /\(gone\)/],
  ])('%s', (_, input, path, message) => {
    const error = refusal(input);
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]?.path).toEqual(path);
    expect(error.issues[0]?.message).toMatch(message);
  });

  it('a revoked Proxy as the input itself: a ValidationError, not a TypeError', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(refusal(proxy).issues[0]?.path).toEqual([]);
  });

  it('nesting of MAX_DEPTH levels is read; one more is refused', () => {
    let nested: unknown = 1;
    for (let i = 0; i < MAX_DEPTH; i++) nested = [nested];
    expect(JSON.stringify(snapshotOf(nested))).toBe(JSON.stringify(nested));
    expect(refusal([nested]).issues[0]?.path).toEqual([0]);
  });
});

describe('writeJson: the snapshot written as it was checked', () => {
  it('refuses to write while Object.prototype or Array.prototype carries a toJSON, which JSON would call on the snapshot', () => {
    for (const prototype of [Object.prototype, Array.prototype]) {
      Object.defineProperty(prototype, 'toJSON', { value: () => 'swapped', configurable: true, writable: true });
      try {
        expect(() => writeJson({ deliveries: [{ cod: 1 }] })).toThrow(ConfigurationError);
      } finally {
        delete (prototype as { toJSON?: unknown }).toJSON;
      }
    }
    expect(writeJson({ deliveries: [{ cod: 1 }] })).toBe('{"deliveries":[{"cod":1}]}');
    expect(writeJson(undefined)).toBeUndefined();
  });
});
