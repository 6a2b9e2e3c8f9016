import { describe, expect, it } from 'vitest';
import { jsonPieces } from '../../src/webhooks/json-pieces.js';

const written = (value: unknown): string => [...jsonPieces(value)].join('');

describe('jsonPieces writes a parsed body back as JSON.stringify would', () => {
  it.each<[string, unknown]>([
    ['a webhook body', { _id: 'o1', trackingNumber: 4567891234, state: 45, cod: 1250, isConfirmedDelivery: true, businessReference: 'طلب-١٠٤٢' }],
    ['primitives', [1, -0, 1.5e300, 'a"b\\c\n\u2028', true, false, null]],
    ['what JSON cannot carry', { a: undefined, f: () => 1, s: Symbol('s'), list: [undefined, () => 1, Symbol('t'), Number.NaN, Number.POSITIVE_INFINITY] }],
    ['toJSON and boxed primitives', { at: new Date(0), bytes: Buffer.from('hi'), n: Object(3), own: { toJSON: (key: string) => `key ${key}` } }],
    ['empty containers and odd keys', { '': [], 'k"ey': {}, nested: [[{}], { x: [[]] }] }],
  ])('%s', (_, value) => {
    expect(written(value)).toBe(JSON.stringify(value));
  });

  it('a string longer than a slice, a surrogate pair cut at its edge, reads back the same', () => {
    const text = `${'x'.repeat(16 * 1024 - 1)}🔑${'y'.repeat(20_000)}`;
    expect(JSON.parse(written({ text }))).toEqual({ text });
  });

  it('any depth, without recursion (JSON.stringify throws RangeError here)', () => {
    const deep = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) as unknown;
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(written(deep)).toBe(`${'['.repeat(20_000)}${']'.repeat(20_000)}`);
  });

  it('does no more work than the pieces a reader takes', () => {
    let reads = 0;
    const items = new Proxy([] as unknown[], { get: (target, key) => (key === 'length' ? 1_000_000 : typeof key === 'string' && /^\d+$/.test(key) ? (reads++, 1) : Reflect.get(target, key)) });
    const pieces = jsonPieces(items);
    for (let i = 0; i < 100; i++) pieces.next();
    pieces.return();
    expect(reads).toBeLessThan(100);
  });

  it('throws TypeError on a cycle or a BigInt, like JSON.stringify', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => written(cyclic)).toThrow(TypeError);
    expect(() => written({ big: 1n })).toThrow(TypeError);
    const shared = { x: 1 };
    expect(written([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });
});
