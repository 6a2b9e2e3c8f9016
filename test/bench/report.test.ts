import { describe, expect, it } from 'vitest';
import { budgetNote, buildRows, type Row, verdictCell } from '../../bench/lib/report.mjs';
import { verdictOf } from '../../bench/lib/stats.mjs';

// How the bench words a verdict: a budget is judged on the median over process runs; a median that
// meets it while the range crosses it is "within noise", never ok, never over.
describe('the verdict on a figure measured over process runs', () => {
  it('is ok when every run meets the budget', () => {
    expect(verdictOf({ min: 0.9, median: 0.95, max: 1.0 }, 1.0)).toBe('ok');
    expect(verdictCell([0.9, 0.95, 1.0], 1.0)).toBe('ok');
  });

  it('is within noise when the median meets the budget and the range crosses it', () => {
    expect(verdictOf({ min: 0.9, median: 0.98, max: 1.04 }, 1.0)).toBe('noise');
    expect(verdictCell([0.9, 0.98, 1.04], 1.0)).toBe('within noise');
  });

  it('is over when the median is past the budget, whatever the best run did', () => {
    expect(verdictOf({ min: 0.97, median: 1.02, max: 1.1 }, 1.0)).toBe('over');
    expect(verdictCell([0.97, 1.02, 1.1], 1.0)).toBe('**OVER**');
  });

  it('reads the other way for a budget that is a floor', () => {
    expect(verdictOf({ min: 11, median: 12, max: 13 }, 10, { atLeast: true })).toBe('ok');
    expect(verdictOf({ min: 9, median: 12, max: 13 }, 10, { atLeast: true })).toBe('noise');
    expect(verdictOf({ min: 8, median: 9, max: 13 }, 10, { atLeast: true })).toBe('over');
  });
});

describe('the per-call rows of the table', () => {
  const run = (sdk: number, ky: number) => {
    const mode = { sdk: { median: sdk, p99: sdk, cpu: sdk }, sdkUnvalidated: { median: sdk, p99: sdk, cpu: sdk }, ky: { median: ky, p99: ky, cpu: ky } };
    return { sequential: mode, concurrent: mode };
  };

  it('say "within noise" of a median at the budget whose range crosses it', () => {
    const rows = buildRows({ perCall: { concurrency: 50, runs: [run(99, 100), run(100, 100), run(103, 100)] } });
    const wall = rows.find((row) => row[1] === 'Per call, sequential: wall time, median');
    expect(wall?.[4]).toBe('1.00x (0.99–1.03) plain ky');
    expect(wall?.[6]).toBe('within noise');
  });
});

describe('the note under the table for a figure not within its budget', () => {
  it('gives a page over its size budget in KB, not its ratio to ky', () => {
    const page: Row = ['3', 'Bundle, a page: every chunk', '51.7 KB, 40 files', 'plain ky 5.2 KB', '9.87x', '≤ 50.0 KB', '**OVER**'];
    expect(budgetNote(page)).toBe('Bundle, a page: every chunk: OVER (51.7 KB, 40 files; budget ≤ 50.0 KB).');
  });

  it('gives a timed figure its ratio, and says nothing of a figure within budget', () => {
    const bulk: Row = ['4', 'Bulk', '20,819 orders/s', 'plain ky', '1.43x (1.30–1.84)', '≤ 1.25x', '**OVER**'];
    expect(budgetNote(bulk)).toBe('Bulk: OVER (1.43x (1.30–1.84); budget ≤ 1.25x).');
    expect(budgetNote(['4', 'Bulk', '20,819 orders/s', 'plain ky', '1.10x (1.05–1.20)', '≤ 1.25x', 'ok'])).toBeUndefined();
  });
});
