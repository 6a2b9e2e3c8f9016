import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/exit.js';
import { formatOf } from '../../src/cli/input.js';

// The format of the file to import: --format when given (checked in one place), else the file's extension.
describe('the format of an import', () => {
  it('takes --format over the extension, refuses another value naming the flag, and reads the extension without it', () => {
    expect(formatOf('orders.txt', 'jsonl')).toBe('jsonl');
    expect(formatOf('orders.jsonl', 'csv')).toBe('csv');
    expect(() => formatOf('orders.csv', 'xlsx')).toThrow(new UsageError("--format: expected csv or jsonl, received 'xlsx'"));
    expect([formatOf('a.CSV', undefined), formatOf('a.ndjson', undefined), formatOf('a.jsonl', undefined)]).toEqual(['csv', 'jsonl', 'jsonl']);
    expect(() => formatOf('-', undefined)).toThrow(UsageError);
  });
});
