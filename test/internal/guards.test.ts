import { describe, expect, it } from 'vitest';
import { shown } from '../../src/internal/guards.js';

describe('shown: a received value as a message names it', () => {
  it.each([
    ['250', "'250'"],
    ['x'.repeat(41), `'${'x'.repeat(40)}...'`],
    [250, '250'],
    [Number.NaN, 'NaN'],
    [Number.NEGATIVE_INFINITY, '-Infinity'],
    [10n, '10'],
    [false, 'false'],
    [null, 'null'],
    [undefined, 'undefined'],
    [Symbol('s'), 'a symbol'],
    [() => 1, 'a function'],
    [['250'], 'an array'],
    [{ cod: 250 }, 'an object'],
    [Object.create(null), 'an object'],
  ])('%s as %s', (value, expected) => {
    expect(shown(value)).toBe(expected);
  });

  it('names a revoked Proxy without throwing', () => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    expect(shown(proxy)).toBe('a revoked Proxy');
  });
});
