import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plural, thousands } from '../../src/cli/output.js';

describe('counts as the command writes them', () => {
  it('puts commas between thousands as en-US does, for any whole number', () => {
    fc.assert(fc.property(fc.maxSafeInteger(), (count) => thousands(count) === count.toLocaleString('en-US')));
    for (const count of [0, 7, 999, 1_000, 10_000, 100_000, 1_234_567, -1_000]) expect(thousands(count)).toBe(count.toLocaleString('en-US'));
  });

  it('writes any other number as en-US does', () => {
    for (const count of [1.5, 1234.5678, Number.MAX_SAFE_INTEGER + 2]) expect(thousands(count)).toBe(count.toLocaleString('en-US'));
  });

  it('gives a count its noun, singular for one', () => {
    expect(plural(1, 'row')).toBe('1 row');
    expect(plural(10_000, 'row')).toBe('10,000 rows');
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
  });
});
