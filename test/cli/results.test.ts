import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { FORMULA, Ledger, RESULT_COLUMNS, type RowResult, resultLines } from '../../src/cli/results.js';

// The results file's lines are written by hand, as Papa Parse's `unparse` wrote them before (quoting,
// doubled quotes, the formula escape): a spreadsheet, or a script reading them with any CSV parser, sees the same.
const asPapa = (rows: RowResult[]): string =>
  rows.length === 0
    ? ''
    : `${Papa.unparse(rows as unknown as Array<Record<string, unknown>>, { columns: [...RESULT_COLUMNS], header: false, newline: '\n', escapeFormulae: FORMULA })}\n`;

const text = fc.option(fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', ',', '"', '\n', '\r', '\t', '=', '+', '-', '@', "'", '\ufeff', 'ك') }), {
  nil: undefined,
});
const row: fc.Arbitrary<RowResult> = fc.record({
  row: fc.nat(),
  businessReference: text,
  uniqueBusinessReference: text,
  status: fc.constantFrom('created', 'existed', 'refused', 'not sent', 'unknown'),
  id: text,
  trackingNumber: text,
  errorClass: text,
  errorCode: fc.option(fc.integer({ min: -10, max: 9_000_000 }), { nil: undefined }),
  message: text,
});

describe('the results file, line by line', () => {
  it('writes every row as Papa Parse would, quotes and formulas included', () => {
    fc.assert(fc.property(fc.array(row, { maxLength: 5 }), (rows) => resultLines(rows) === asPapa(rows)));
  });

  it("quotes a cell a spreadsheet would run, with a ' before it", () => {
    const line = resultLines([
      {
        row: 1,
        businessReference: '=1+1',
        uniqueBusinessReference: 'U "1"',
        status: 'refused',
        id: undefined,
        trackingNumber: undefined,
        errorClass: 'ValidationError',
        errorCode: 2150,
        message: 'a, b',
      },
    ]);
    expect(line).toBe(`1,"'=1+1","U ""1""",refused,,,ValidationError,2150,"a, b"\n`);
  });
});

describe('the ledger of an import', () => {
  it('closes its sinks once, however often it is closed (the import, then a forced stop)', () => {
    let closes = 0;
    const ledger = new Ledger([{ write: () => undefined, close: () => void closes++ }]);
    ledger.close();
    ledger.close();
    expect(closes).toBe(1);
    expect(ledger.closed).toBe(true);
  });
});
