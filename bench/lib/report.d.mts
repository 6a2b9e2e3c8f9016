/** Types of report.mjs, for test/bench/report.test.ts. */
export type Row = [string, string, string, string, string, string, string];
export declare const verdictCell: (values: number[], budget: number, options?: { atLeast?: boolean }) => string;
export declare function buildRows(results: Record<string, unknown>): Row[];
export declare function budgetNote(row: Row): string | undefined;
